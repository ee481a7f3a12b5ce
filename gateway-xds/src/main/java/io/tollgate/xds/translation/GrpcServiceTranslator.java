package io.tollgate.xds.translation;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.envoyproxy.envoy.config.core.v3.GrpcService;
import io.envoyproxy.envoy.type.matcher.v3.ListStringMatcher;
import io.envoyproxy.envoy.type.matcher.v3.StringMatcher;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * What the policy filters ({@code ext_authz}, {@code rate_limit}) read of Envoy's messages: a
 * {@code GrpcService} as the filters' {@code grpc_service} block (the gateway's filters dial their
 * service themselves, so a {@code google_grpc.target_uri} is needed: an {@code envoy_grpc} cluster
 * is refused naming the field), and header name lists given as exact matchers.
 */
final class GrpcServiceTranslator {

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private GrpcServiceTranslator() {
    }

    /** The {@code grpc_service} block of {@code service}; {@code timeout} overrides the service's own when set. */
    static ObjectNode grpcService(GrpcService service, com.google.protobuf.Duration timeout, String at) {
        if (service.hasEnvoyGrpc()) {
            throw new XdsRejection(at + ".envoy_grpc: cluster '" + service.getEnvoyGrpc().getClusterName()
                    + "' not supported (supported: google_grpc.target_uri, host:port of the service)");
        }
        Fields.allowOnly(service, at, Set.of("google_grpc", "timeout"));
        if (!service.hasGoogleGrpc()) {
            throw new XdsRejection(at + ": needs google_grpc.target_uri");
        }
        Fields.allowOnly(service.getGoogleGrpc(), at + ".google_grpc", Set.of("target_uri", "stat_prefix"));
        ObjectNode node = JSON.objectNode().put("target", service.getGoogleGrpc().getTargetUri());
        if (timeout != null) {
            node.put("timeout", Fields.duration(timeout));
        } else if (service.hasTimeout()) {
            node.put("timeout", Fields.duration(service.getTimeout()));
        }
        return node;
    }

    /** Header names of a list of exact (case-insensitive) matchers, lower case. */
    static List<String> headerNames(ListStringMatcher list, String at) {
        Fields.allowOnly(list, at, Set.of("patterns"));
        List<String> names = new ArrayList<>(list.getPatternsCount());
        for (int i = 0; i < list.getPatternsCount(); i++) {
            StringMatcher matcher = list.getPatterns(i);
            String where = at + ".patterns[" + i + "]";
            Fields.allowOnly(matcher, where, Set.of("exact", "ignore_case"));
            if (matcher.getMatchPatternCase() != StringMatcher.MatchPatternCase.EXACT) {
                throw new XdsRejection(where + ": only exact header names are supported");
            }
            names.add(matcher.getExact().toLowerCase(Locale.ROOT));
        }
        return names;
    }
}
