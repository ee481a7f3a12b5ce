package io.tollgate.xds.translation;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.envoyproxy.envoy.config.core.v3.CidrRange;
import io.envoyproxy.envoy.config.rbac.v3.Permission;
import io.envoyproxy.envoy.config.rbac.v3.Policy;
import io.envoyproxy.envoy.config.rbac.v3.Principal;
import io.envoyproxy.envoy.config.route.v3.HeaderMatcher;
import io.envoyproxy.envoy.extensions.filters.http.rbac.v3.RBAC;
import io.envoyproxy.envoy.type.matcher.v3.StringMatcher;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.BiFunction;

/**
 * Turns Envoy's RBAC HTTP filter configuration into the settings of the gateway's {@code rbac}
 * filter. Envoy's permissions and principals are trees of {@code and}/{@code or}/{@code not};
 * the gateway's policy is a list of entries, each a conjunction of conditions of different kinds,
 * so a tree is written out as that list (an or of ands). What that form cannot hold (two
 * conditions of one kind in one conjunction, a {@code not} of anything but a header, and the
 * conditions the gateway's filter has no counterpart for) refuses the resource with the field's path.
 */
final class RbacTranslator {

    /** The most entries one permission or principal may expand into. */
    private static final int MAX_ENTRIES = 256;
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private RbacTranslator() {
    }

    /**
     * The {@code rbac} settings of {@code rbac} (without {@code name}): its {@code rules}, or its
     * {@code shadow_rules} as a shadow filter; null when it has neither (Envoy's filter then does nothing).
     */
    static ObjectNode settings(RBAC rbac, String at) {
        Fields.allowOnly(rbac, at, Set.of("rules", "shadow_rules", "rules_stat_prefix", "shadow_rules_stat_prefix"));
        if (rbac.hasRules() && rbac.hasShadowRules()) {
            throw new XdsRejection(at + ".shadow_rules: set beside rules (supported: one of them; the gateway's rbac"
                    + " filter enforces or shadows one set of policies)");
        }
        if (rbac.hasRules()) {
            return rules(rbac.getRules(), at + ".rules").put("shadow", false);
        }
        if (rbac.hasShadowRules()) {
            return rules(rbac.getShadowRules(), at + ".shadow_rules").put("shadow", true);
        }
        return null;
    }

    private static ObjectNode rules(io.envoyproxy.envoy.config.rbac.v3.RBAC rules, String at) {
        Fields.allowOnly(rules, at, Set.of("action", "policies"));
        ObjectNode settings = JSON.objectNode();
        switch (rules.getAction()) {
            case ALLOW -> settings.put("action", "ALLOW");
            case DENY -> settings.put("action", "DENY");
            default -> throw new XdsRejection(at + ".action: " + rules.getAction()
                    + " not supported (supported: ALLOW, DENY)");
        }
        ArrayNode policies = settings.putArray("policies");
        for (Map.Entry<String, Policy> named : new TreeMap<>(rules.getPoliciesMap()).entrySet()) {
            String where = at + ".policies['" + named.getKey() + "']";
            Policy policy = named.getValue();
            Fields.allowOnly(policy, where, Set.of("permissions", "principals"));
            ObjectNode p = policies.addObject().put("name", named.getKey());
            p.set("permissions", list(policy.getPermissionsList(), where + ".permissions", RbacTranslator::permission));
            p.set("principals", list(policy.getPrincipalsList(), where + ".principals", RbacTranslator::principal));
        }
        return settings;
    }

    private static <T> ArrayNode list(List<T> rules, String at, BiFunction<T, String, List<ObjectNode>> expand) {
        if (rules.isEmpty()) {
            throw new XdsRejection(at + ": must not be empty");
        }
        ArrayNode entries = JSON.arrayNode();
        for (int i = 0; i < rules.size(); i++) {
            entries.addAll(expand.apply(rules.get(i), at + "[" + i + "]"));
        }
        return entries;
    }

    /** A permission as a list of entries, one of which must match. */
    private static List<ObjectNode> permission(Permission permission, String at) {
        return switch (permission.getRuleCase()) {
            case ANY -> List.of(JSON.objectNode().put("any", true));
            case HEADER -> List.of(header(permission.getHeader(), at + ".header"));
            case URL_PATH -> {
                Fields.allowOnly(permission.getUrlPath(), at + ".url_path", Set.of("path"));
                yield List.of(condition("path", string(permission.getUrlPath().getPath(), at + ".url_path.path")));
            }
            case REQUESTED_SERVER_NAME -> List.of(condition("sni",
                    string(permission.getRequestedServerName(), at + ".requested_server_name")));
            case OR_RULES -> or(permission.getOrRules().getRulesList(), at + ".or_rules.rules", RbacTranslator::permission);
            case AND_RULES -> and(permission.getAndRules().getRulesList(), at + ".and_rules.rules",
                    RbacTranslator::permission);
            case NOT_RULE -> not(permission(permission.getNotRule(), at + ".not_rule"), at + ".not_rule");
            default -> throw unsupported(at, permission.getRuleCase().name(),
                    "any, header, url_path, requested_server_name, and_rules, or_rules, not_rule of a header");
        };
    }

    /** A principal as a list of entries, one of which must match. */
    private static List<ObjectNode> principal(Principal principal, String at) {
        return switch (principal.getIdentifierCase()) {
            case ANY -> List.of(JSON.objectNode().put("any", true));
            case HEADER -> List.of(header(principal.getHeader(), at + ".header"));
            case AUTHENTICATED -> {
                Principal.Authenticated authenticated = principal.getAuthenticated();
                Fields.allowOnly(authenticated, at + ".authenticated", Set.of("principal_name"));
                // Without a name Envoy matches any verified client certificate: any identity at all.
                yield List.of(condition("authenticated", authenticated.hasPrincipalName()
                        ? string(authenticated.getPrincipalName(), at + ".authenticated.principal_name")
                        : JSON.objectNode().put("prefix", "")));
            }
            case SOURCE_IP -> List.of(sourceIp(principal.getSourceIp(), at + ".source_ip"));
            case DIRECT_REMOTE_IP -> List.of(sourceIp(principal.getDirectRemoteIp(), at + ".direct_remote_ip"));
            case OR_IDS -> or(principal.getOrIds().getIdsList(), at + ".or_ids.ids", RbacTranslator::principal);
            case AND_IDS -> and(principal.getAndIds().getIdsList(), at + ".and_ids.ids", RbacTranslator::principal);
            case NOT_ID -> not(principal(principal.getNotId(), at + ".not_id"), at + ".not_id");
            default -> throw unsupported(at, principal.getIdentifierCase().name(), "any, header, authenticated,"
                    + " source_ip, direct_remote_ip (the connection's peer), and_ids, or_ids, not_id of a header");
        };
    }

    private static XdsRejection unsupported(String at, String ruleCase, String supported) {
        return new XdsRejection(at + "." + ruleCase.toLowerCase(Locale.ROOT) + ": not supported (supported: "
                + supported + ")");
    }

    private static <T> List<ObjectNode> or(List<T> rules, String at, BiFunction<T, String, List<ObjectNode>> expand) {
        List<ObjectNode> entries = new ArrayList<>();
        for (int i = 0; i < rules.size(); i++) {
            entries.addAll(expand.apply(rules.get(i), at + "[" + i + "]"));
        }
        if (entries.isEmpty()) {
            throw new XdsRejection(at + ": must not be empty");
        }
        return entries;
    }

    /** Every combination of one entry of each rule, each merged into one entry. */
    private static <T> List<ObjectNode> and(List<T> rules, String at, BiFunction<T, String, List<ObjectNode>> expand) {
        List<ObjectNode> product = List.of(JSON.objectNode().put("any", true));
        for (int i = 0; i < rules.size(); i++) {
            List<ObjectNode> next = new ArrayList<>();
            for (ObjectNode left : product) {
                for (ObjectNode right : expand.apply(rules.get(i), at + "[" + i + "]")) {
                    next.add(merge(left, right, at));
                }
            }
            if (next.size() > MAX_ENTRIES) {
                throw new XdsRejection(at + ": expands into more than " + MAX_ENTRIES + " alternatives");
            }
            product = next;
        }
        return product;
    }

    /** The conjunction of two entries; {@code any} adds nothing to other conditions. */
    private static ObjectNode merge(ObjectNode left, ObjectNode right, String at) {
        ObjectNode merged = left.deepCopy();
        for (Iterator<Map.Entry<String, com.fasterxml.jackson.databind.JsonNode>> it = right.fields(); it.hasNext();) {
            Map.Entry<String, com.fasterxml.jackson.databind.JsonNode> condition = it.next();
            if (condition.getKey().equals("any")) {
                continue;
            }
            if (merged.has(condition.getKey())) {
                throw new XdsRejection(at + ": two " + condition.getKey() + " conditions in one conjunction (not"
                        + " supported: the gateway's rbac entries hold one condition of each kind)");
            }
            merged.set(condition.getKey(), condition.getValue());
        }
        if (merged.size() > 1) {
            merged.remove("any");
        }
        return merged;
    }

    /** The negation of {@code entries}: only one header condition can be negated. */
    private static List<ObjectNode> not(List<ObjectNode> entries, String at) {
        if (entries.size() != 1 || entries.get(0).size() != 1 || !entries.get(0).has("header")) {
            throw new XdsRejection(at + ": not supported (supported: the negation of one header match)");
        }
        ObjectNode header = (ObjectNode) entries.get(0).get("header").deepCopy();
        header.put("invert", !header.path("invert").asBoolean(false));
        if (!header.get("invert").asBoolean()) {
            header.remove("invert");
        }
        return List.of(condition("header", header));
    }

    /**
     * A header condition; {@code :authority} is read from the Host header and {@code :method} is the
     * method condition. Other pseudo-headers are refused (the path is {@code url_path}).
     */
    private static ObjectNode header(HeaderMatcher matcher, String at) {
        Fields.allowOnly(matcher, at, Set.of("name", "exact_match", "prefix_match", "suffix_match", "contains_match",
                "present_match", "string_match", "invert_match"));
        String name = matcher.getName().toLowerCase(Locale.ROOT);
        ObjectNode value = JSON.objectNode();
        boolean invert = matcher.getInvertMatch();
        switch (matcher.getHeaderMatchSpecifierCase()) {
            case EXACT_MATCH -> value.put("exact", matcher.getExactMatch());
            case PREFIX_MATCH -> value.put("prefix", matcher.getPrefixMatch());
            case SUFFIX_MATCH -> value.put("suffix", matcher.getSuffixMatch());
            case CONTAINS_MATCH -> value.put("contains", matcher.getContainsMatch());
            case STRING_MATCH -> value.setAll(string(matcher.getStringMatch(), at + ".string_match"));
            case PRESENT_MATCH -> {
                value.put("present", true);
                invert ^= !matcher.getPresentMatch();
            }
            default -> throw new XdsRejection(at + ": needs exact_match, prefix_match, suffix_match, contains_match,"
                    + " present_match or string_match");
        }
        if (name.equals(":method") && !invert && !value.has("present")) {
            return condition("method", value);
        }
        if (name.equals(":authority")) {
            name = "host";
        } else if (name.startsWith(":")) {
            throw new XdsRejection(at + ".name: '" + name + "' not supported (supported: headers, :authority, :method"
                    + " without invert_match or present_match; the path is url_path)");
        }
        ObjectNode header = JSON.objectNode().put("name", name);
        header.setAll(value);
        if (invert) {
            header.put("invert", true);
        }
        return condition("header", header);
    }

    private static ObjectNode sourceIp(CidrRange range, String at) {
        Fields.allowOnly(range, at, Set.of("address_prefix", "prefix_len"));
        // Envoy reads an absent prefix_len as 0.
        String cidr = range.getAddressPrefix() + "/" + (range.hasPrefixLen() ? range.getPrefixLen().getValue() : 0);
        ObjectNode entry = JSON.objectNode();
        entry.putArray("source_ip").add(cidr);
        return entry;
    }

    /** {@code exact}, {@code prefix}, {@code suffix} or {@code contains}, case-sensitive. */
    private static ObjectNode string(StringMatcher matcher, String at) {
        Fields.allowOnly(matcher, at, Set.of("exact", "prefix", "suffix", "contains"));
        ObjectNode value = JSON.objectNode();
        switch (matcher.getMatchPatternCase()) {
            case EXACT -> value.put("exact", matcher.getExact());
            case PREFIX -> value.put("prefix", matcher.getPrefix());
            case SUFFIX -> value.put("suffix", matcher.getSuffix());
            case CONTAINS -> value.put("contains", matcher.getContains());
            default -> throw new XdsRejection(at + ": needs exact, prefix, suffix or contains");
        }
        return value;
    }

    private static ObjectNode condition(String kind, ObjectNode value) {
        ObjectNode entry = JSON.objectNode();
        entry.set(kind, value);
        return entry;
    }
}
