package io.tollgate.xds.translation;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.BoolValue;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Message;
import io.envoyproxy.envoy.config.core.v3.RuntimeFractionalPercent;
import io.envoyproxy.envoy.type.matcher.v3.StringMatcher;
import java.util.List;
import java.util.Set;

/**
 * Turns an Envoy {@code CorsPolicy} into the settings of the gateway's {@code cors} filter. Both
 * of Envoy's forms are read: the filter's per-route {@code envoy.extensions.filters.http.cors.v3.CorsPolicy}
 * and the deprecated {@code envoy.config.route.v3.CorsPolicy} of virtual hosts and route actions,
 * whose fields have the same names.
 */
final class CorsTranslator {

    private static final Set<String> SUPPORTED = Set.of("allow_origin_string_match", "allow_methods", "allow_headers",
            "expose_headers", "max_age", "allow_credentials", "filter_enabled", "forward_not_matching_preflights");

    private CorsTranslator() {
    }

    /**
     * The {@code cors} settings of {@code policy} (without {@code name}), or null when it allows no
     * origin or {@code filter_enabled} is 0 %: then the route runs without the filter, as in Envoy.
     */
    static ObjectNode settings(Message policy, String at) {
        Fields.allowOnly(policy, at, SUPPORTED);
        if (policy.hasField(field(policy, "filter_enabled"))) {
            RuntimeFractionalPercent enabled = (RuntimeFractionalPercent) policy.getField(field(policy, "filter_enabled"));
            Fields.allowOnly(enabled, at + ".filter_enabled", Set.of("default_value"));
            double percent = HttpFilterTranslator.percentage(enabled.getDefaultValue(), true);
            if (percent == 0) {
                return null;
            }
            if (percent < 100) {
                throw new XdsRejection(at + ".filter_enabled.default_value: " + percent + "% (supported: 0% or 100%)");
            }
        }
        FieldDescriptor forward = field(policy, "forward_not_matching_preflights");
        if (policy.hasField(forward) && !((BoolValue) policy.getField(forward)).getValue()) {
            throw new XdsRejection(at + ".forward_not_matching_preflights: false not supported (the gateway forwards"
                    + " preflights from origins the policy does not allow)");
        }
        @SuppressWarnings("unchecked")
        List<StringMatcher> origins = (List<StringMatcher>) policy.getField(field(policy, "allow_origin_string_match"));
        if (origins.isEmpty()) {
            return null;
        }
        ObjectNode settings = JsonNodeFactory.instance.objectNode();
        ArrayNode allow = settings.putArray("allow_origin");
        for (int i = 0; i < origins.size(); i++) {
            allow.add(origin(origins.get(i), at + ".allow_origin_string_match[" + i + "]"));
        }
        for (String header : List.of("allow_methods", "allow_headers", "expose_headers")) {
            String value = (String) policy.getField(field(policy, header));
            if (!value.isEmpty()) {
                settings.put(header, value);
            }
        }
        String maxAge = (String) policy.getField(field(policy, "max_age"));
        if (!maxAge.isEmpty()) {
            try {
                settings.put("max_age", Long.parseLong(maxAge));
            } catch (NumberFormatException e) {
                throw new XdsRejection(at + ".max_age: '" + maxAge + "' is not a whole number of seconds");
            }
        }
        FieldDescriptor credentials = field(policy, "allow_credentials");
        if (policy.hasField(credentials)) {
            settings.put("allow_credentials", ((BoolValue) policy.getField(credentials)).getValue());
        }
        return settings;
    }

    private static ObjectNode origin(StringMatcher matcher, String at) {
        Fields.allowOnly(matcher, at, Set.of("exact", "prefix", "suffix", "safe_regex"));
        ObjectNode origin = JsonNodeFactory.instance.objectNode();
        switch (matcher.getMatchPatternCase()) {
            case EXACT -> origin.put("exact", matcher.getExact());
            case PREFIX -> origin.put("prefix", matcher.getPrefix());
            case SUFFIX -> origin.put("suffix", matcher.getSuffix());
            case SAFE_REGEX -> origin.put("regex", RouteTranslator.regex(matcher.getSafeRegex(), at + ".safe_regex"));
            default -> throw new XdsRejection(at + ": needs exact, prefix, suffix or safe_regex");
        }
        return origin;
    }

    private static FieldDescriptor field(Message policy, String name) {
        return policy.getDescriptorForType().findFieldByName(name);
    }
}
