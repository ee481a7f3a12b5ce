package io.tollgate.xds.translation;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.Any;
import io.envoyproxy.envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager.ForwardClientCertDetails;
import io.envoyproxy.envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager.PathWithEscapedSlashesAction;
import io.envoyproxy.envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager.ServerHeaderTransformation;
import io.envoyproxy.envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager.UpgradeConfig;
import io.envoyproxy.envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager;
import io.envoyproxy.envoy.extensions.request_id.uuid.v3.UuidRequestIdConfig;
import java.util.Locale;
import java.util.Set;

/**
 * The settings of an HTTP connection manager beside its routes and filters, as istiod sends them
 * to an ingress gateway: each either matches what the gateway does (kept as a check), is applied
 * (the {@code server} header, the client certificate header's sanitizing, as a {@code headers}
 * filter first on the chain; path normalization, as the listener's {@code http} settings), is accepted as a documented no-op, or is refused naming the field
 * and value the gateway cannot honour. See docs/istio.md for the table.
 */
final class ConnectionManagerOptions {

    /** The fields of the connection manager this class reads, beside those {@link ListenerTranslator} reads. */
    static final Set<String> FIELDS = Set.of("forward_client_cert_details", "set_current_client_cert_details",
            "http_protocol_options", "normalize_path", "merge_slashes", "path_with_escaped_slashes_action", "proxy_100_continue",
            "request_id_extension", "generate_request_id", "server_name", "server_header_transformation",
            "stream_idle_timeout", "tracing", "upgrade_configs", "use_remote_address");

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    private static final String XFCC = "x-forwarded-client-cert";

    private ConnectionManagerOptions() {
    }

    /**
     * Checks {@code hcm}'s settings (at {@code at}) against what the gateway does and returns the
     * {@code headers} filter that applies those it applies, or null when none needs one.
     */
    static ObjectNode apply(HttpConnectionManager hcm, String at) {
        checkRequests(hcm, at);
        if (hcm.hasStreamIdleTimeout() && (hcm.getStreamIdleTimeout().getSeconds() != 0
                || hcm.getStreamIdleTimeout().getNanos() != 0)) {
            throw new XdsRejection(at + ".stream_idle_timeout: " + Fields.duration(hcm.getStreamIdleTimeout())
                    + " not supported (supported: 0s, none; the route's timeout bounds each exchange)");
        }
        if (hcm.hasTracing()) {
            Fields.allowOnly(hcm.getTracing(), at + ".tracing", Set.of("client_sampling", "random_sampling",
                    "overall_sampling", "custom_tags", "max_path_tag_length", "verbose", "spawn_upstream_span"));
            IstioExtensions.accepted("HTTP connection manager tracing without a provider", "only samples for a tracer"
                    + " that is not configured (Envoy traces nothing either); the trace filter gives spans");
        }
        for (int i = 0; i < hcm.getUpgradeConfigsCount(); i++) {
            UpgradeConfig upgrade = hcm.getUpgradeConfigs(i);
            String where = at + ".upgrade_configs[" + i + "]";
            Fields.allowOnly(upgrade, where, Set.of("upgrade_type"));
            if (!upgrade.getUpgradeType().equalsIgnoreCase("websocket")) {
                throw new XdsRejection(where + ".upgrade_type: '" + upgrade.getUpgradeType()
                        + "' not supported (supported: websocket)");
            }
            IstioExtensions.accepted("HTTP connection manager upgrade_configs websocket", "would let WebSocket"
                    + " upgrades through; the gateway does not proxy them yet");
        }
        ObjectNode response = serverHeader(hcm, at);
        ObjectNode request = clientCertificateHeader(hcm, at);
        if (response == null && request == null) {
            return null;
        }
        ObjectNode filter = JSON.objectNode().put("name", "headers");
        if (request != null) {
            filter.set("request_headers", request);
        }
        if (response != null) {
            filter.set("response_headers", response);
        }
        return filter;
    }

    /**
     * Path handling before routing ({@code normalize_path}, {@code merge_slashes},
     * {@code path_with_escaped_slashes_action}) into the listener's {@code http} block
     * ({@code listener}): the gateway normalizes as Envoy documents it.
     */
    static void paths(HttpConnectionManager hcm, ObjectNode listener) {
        PathWithEscapedSlashesAction slashes = hcm.getPathWithEscapedSlashesAction();
        boolean normalize = hcm.hasNormalizePath() && hcm.getNormalizePath().getValue();
        boolean keep = slashes == PathWithEscapedSlashesAction.IMPLEMENTATION_SPECIFIC_DEFAULT
                || slashes == PathWithEscapedSlashesAction.KEEP_UNCHANGED;
        if (!normalize && !hcm.getMergeSlashes() && keep) {
            return;
        }
        ObjectNode http = listener.putObject("http").put("normalize_path", normalize)
                .put("merge_slashes", hcm.getMergeSlashes());
        if (!keep) {
            http.put("path_with_escaped_slashes_action", slashes.name().toLowerCase(Locale.ROOT));
        }
    }

    /** Request handling the gateway does as Envoy with these settings does. */
    private static void checkRequests(HttpConnectionManager hcm, String at) {
        if (hcm.hasHttpProtocolOptions()) {
            Fields.allowOnly(hcm.getHttpProtocolOptions(), at + ".http_protocol_options", Set.of());
        }
        if (hcm.hasUseRemoteAddress() && !hcm.getUseRemoteAddress().getValue()) {
            throw new XdsRejection(at + ".use_remote_address: false not supported (the gateway appends the peer's"
                    + " address to x-forwarded-for, as Envoy does with true)");
        }
        if (hcm.hasGenerateRequestId() && !hcm.getGenerateRequestId().getValue()) {
            throw new XdsRejection(at + ".generate_request_id: false not supported (the gateway gives every request"
                    + " without an x-request-id one)");
        }
        if (hcm.hasRequestIdExtension()) {
            String where = at + ".request_id_extension";
            Fields.allowOnly(hcm.getRequestIdExtension(), where, Set.of("typed_config"));
            Any config = hcm.getRequestIdExtension().getTypedConfig();
            if (!config.is(UuidRequestIdConfig.class)) {
                throw new XdsRejection(where + ".typed_config: " + config.getTypeUrl()
                        + " not supported (supported: UuidRequestIdConfig)");
            }
            // pack_trace_reason and use_request_id_for_trace_sampling only serve a tracer.
        }
        if (hcm.getProxy100Continue()) {
            IstioExtensions.accepted("HTTP connection manager proxy_100_continue", "would pass Expect: 100-continue"
                    + " upstream; the gateway answers 100 Continue itself and sends the body");
        }
    }

    /** The response header mutation that sets {@code server}, or null. */
    private static ObjectNode serverHeader(HttpConnectionManager hcm, String at) {
        ServerHeaderTransformation transformation = hcm.getServerHeaderTransformation();
        if (transformation == ServerHeaderTransformation.PASS_THROUGH) {
            return null;
        }
        if (transformation != ServerHeaderTransformation.OVERWRITE) {
            throw new XdsRejection(at + ".server_header_transformation: " + transformation
                    + " not supported (supported: OVERWRITE, PASS_THROUGH)");
        }
        if (hcm.getServerName().isEmpty()) {
            return null;
        }
        ObjectNode mutation = JSON.objectNode();
        mutation.putArray("add").addObject().put("name", "server").put("value", hcm.getServerName());
        return mutation;
    }

    /**
     * Refuses a connection manager ({@code hcm}, at {@code at}) on a listener that verifies client
     * certificates when it asks for {@code x-forwarded-client-cert} to be set from them.
     */
    static void verifiesClientCertificates(HttpConnectionManager hcm, String at) {
        ForwardClientCertDetails details = hcm.getForwardClientCertDetails();
        if (details == ForwardClientCertDetails.SANITIZE_SET || details == ForwardClientCertDetails.APPEND_FORWARD) {
            throw new XdsRejection(at + ".forward_client_cert_details: " + details + " not supported on a listener"
                    + " verifying client certificates (x-forwarded-client-cert is not set from them; supported:"
                    + " SANITIZE, FORWARD_ONLY, ALWAYS_FORWARD_ONLY)");
        }
    }

    /**
     * The request header mutation that removes {@code x-forwarded-client-cert} when
     * {@code forward_client_cert_details} is SANITIZE_SET (there is no verified client certificate
     * to set it from: {@link #verifiesClientCertificates} refuses it otherwise), or null when the
     * header passes.
     */
    private static ObjectNode clientCertificateHeader(HttpConnectionManager hcm, String at) {
        ForwardClientCertDetails details = hcm.getForwardClientCertDetails();
        if (hcm.hasSetCurrentClientCertDetails()) {
            Fields.allowOnly(hcm.getSetCurrentClientCertDetails(), at + ".set_current_client_cert_details",
                    Set.of("subject", "cert", "chain", "dns", "uri"));
        }
        if (details != ForwardClientCertDetails.SANITIZE_SET) {
            return null;
        }
        ObjectNode mutation = JSON.objectNode();
        ArrayNode remove = mutation.putArray("remove");
        remove.add(XFCC);
        return mutation;
    }
}
