package io.tollgate.xds.translation;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.InvalidProtocolBufferException;
import io.envoyproxy.envoy.config.listener.v3.ListenerFilter;
import io.envoyproxy.envoy.extensions.filters.listener.proxy_protocol.v3.ProxyProtocol;
import java.util.List;
import java.util.Set;

/**
 * Translates an Envoy listener's {@code listener_filters}: the one the gateway has,
 * {@code envoy.filters.listener.proxy_protocol}, becomes the listener's {@code proxy_protocol},
 * trusting every source as Envoy's filter does, {@code optional} when it allows requests without a
 * header; any other listener filter rejects the listener.
 */
final class ListenerFilterTranslator {

    static final String PROXY_PROTOCOL = "envoy.filters.listener.proxy_protocol";

    private ListenerFilterTranslator() {
    }

    /** Writes what {@code filters} ask for into {@code tree}, a listener of the file's form. */
    static void translate(List<ListenerFilter> filters, String at, ObjectNode tree) {
        for (int i = 0; i < filters.size(); i++) {
            String where = at + "[" + i + "]";
            ListenerFilter filter = filters.get(i);
            Fields.allowOnly(filter, where, Set.of("name", "typed_config"));
            if (!filter.getTypedConfig().is(ProxyProtocol.class) || tree.has("proxy_protocol")) {
                throw new XdsRejection(where + ": '" + filter.getName() + "' with typed_config "
                        + filter.getTypedConfig().getTypeUrl() + " not supported (supported: one " + PROXY_PROTOCOL + ")");
            }
            ProxyProtocol proxyProtocol;
            try {
                proxyProtocol = filter.getTypedConfig().unpack(ProxyProtocol.class);
            } catch (InvalidProtocolBufferException e) {
                throw new XdsRejection(where + ".typed_config: cannot be decoded: " + e.getMessage());
            }
            Fields.allowOnly(proxyProtocol, where + ".typed_config", Set.of("allow_requests_without_proxy_protocol",
                    "stat_prefix"));
            ObjectNode block = tree.putObject("proxy_protocol");
            block.put("mode", proxyProtocol.getAllowRequestsWithoutProxyProtocol() ? "optional" : "required");
            block.putArray("trusted_sources").add("0.0.0.0/0").add("::/0");
        }
    }
}
