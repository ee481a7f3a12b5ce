package io.tollgate.xds.translation;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.envoyproxy.envoy.config.core.v3.HttpUri;
import io.envoyproxy.envoy.extensions.filters.http.ext_authz.v3.AuthorizationResponse;
import io.envoyproxy.envoy.extensions.filters.http.ext_authz.v3.BufferSettings;
import io.envoyproxy.envoy.extensions.filters.http.ext_authz.v3.ExtAuthz;
import io.envoyproxy.envoy.extensions.filters.http.ext_authz.v3.ExtAuthzPerRoute;
import io.envoyproxy.envoy.extensions.filters.http.ext_authz.v3.HttpService;
import io.envoyproxy.envoy.type.matcher.v3.ListStringMatcher;
import java.util.Set;

/**
 * Turns Envoy's {@code envoy.filters.http.ext_authz} into the gateway's {@code ext_authz} filter:
 * the gRPC service ({@code google_grpc.target_uri}) or the HTTP service ({@code server_uri.uri},
 * its timeout, {@code path_prefix} and the allowed header lists), {@code failure_mode_allow},
 * {@code status_on_error}, {@code allowed_headers} and {@code with_request_body}. {@code ExtAuthzPerRoute} may disable the
 * check for a route. A field the gateway's filter has no counterpart for refuses the resource.
 */
final class ExtAuthzTranslator {

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private ExtAuthzTranslator() {
    }

    /** The {@code ext_authz} settings of {@code authz}. */
    static ObjectNode settings(ExtAuthz authz, String at) {
        Fields.allowOnly(authz, at, Set.of("grpc_service", "http_service", "failure_mode_allow", "status_on_error",
                "allowed_headers", "stat_prefix", "transport_api_version", "with_request_body"));
        ObjectNode settings = JSON.objectNode();
        if (authz.hasGrpcService()) {
            settings.set("grpc_service", GrpcServiceTranslator.grpcService(authz.getGrpcService(), null,
                    at + ".grpc_service"));
        } else if (authz.hasHttpService()) {
            settings.set("http_service", httpService(authz.getHttpService(), at + ".http_service"));
        } else {
            throw new XdsRejection(at + ": needs grpc_service or http_service");
        }
        if (authz.getFailureModeAllow()) {
            settings.put("failure_mode_allow", true);
        }
        if (authz.hasStatusOnError() && authz.getStatusOnError().getCodeValue() != 0) {
            settings.put("status_on_error", authz.getStatusOnError().getCodeValue());
        }
        if (authz.hasWithRequestBody()) {
            BufferSettings body = authz.getWithRequestBody();
            if (body.getMaxRequestBytes() == 0) {
                throw new XdsRejection(at + ".with_request_body.max_request_bytes: must be > 0");
            }
            settings.set("with_request_body", JSON.objectNode().put("max_request_bytes", body.getMaxRequestBytes())
                    .put("allow_partial_message", body.getAllowPartialMessage())
                    .put("pack_as_bytes", body.getPackAsBytes()));
        }
        if (authz.hasAllowedHeaders()) {
            settings.set("allowed_headers", names(authz.getAllowedHeaders(), at + ".allowed_headers"));
        }
        return settings;
    }

    /** A route's {@code ExtAuthzPerRoute}: {@code disabled} turns the check off; other overrides are refused. */
    static HttpFilterTranslator.PerRoute perRoute(ExtAuthzPerRoute perRoute, String at) {
        Fields.allowOnly(perRoute, at, Set.of("disabled"));
        return perRoute.getDisabled() ? new HttpFilterTranslator.PerRoute("ext_authz", null)
                : new HttpFilterTranslator.PerRoute("ext_authz", null, true);
    }

    private static ObjectNode httpService(HttpService service, String at) {
        Fields.allowOnly(service, at, Set.of("server_uri", "path_prefix", "authorization_response"));
        HttpUri uri = service.getServerUri();
        Fields.allowOnly(uri, at + ".server_uri", Set.of("uri", "cluster", "timeout"));
        ObjectNode node = JSON.objectNode().put("server_uri", uri.getUri());
        if (uri.hasTimeout()) {
            node.put("timeout", Fields.duration(uri.getTimeout()));
        }
        if (!service.getPathPrefix().isEmpty()) {
            node.put("path_prefix", service.getPathPrefix());
        }
        if (service.hasAuthorizationResponse()) {
            AuthorizationResponse response = service.getAuthorizationResponse();
            String where = at + ".authorization_response";
            Fields.allowOnly(response, where, Set.of("allowed_upstream_headers", "allowed_client_headers",
                    "allowed_client_headers_on_success"));
            if (response.hasAllowedUpstreamHeaders()) {
                node.set("allowed_upstream_headers", names(response.getAllowedUpstreamHeaders(),
                        where + ".allowed_upstream_headers"));
            }
            if (response.hasAllowedClientHeaders()) {
                node.set("allowed_client_headers", names(response.getAllowedClientHeaders(),
                        where + ".allowed_client_headers"));
            }
            if (response.hasAllowedClientHeadersOnSuccess()) {
                node.set("allowed_client_headers_on_success", names(response.getAllowedClientHeadersOnSuccess(),
                        where + ".allowed_client_headers_on_success"));
            }
        }
        return node;
    }

    private static ArrayNode names(ListStringMatcher list, String at) {
        ArrayNode names = JSON.arrayNode();
        GrpcServiceTranslator.headerNames(list, at).forEach(names::add);
        return names;
    }
}
