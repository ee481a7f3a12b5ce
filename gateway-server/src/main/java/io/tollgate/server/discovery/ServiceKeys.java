package io.tollgate.server.discovery;

import io.tollgate.core.config.ProviderQueryConfig;
import io.tollgate.core.route.RouteRequest;
import io.tollgate.discovery.dubbo.DubboLayout;
import java.util.List;

/**
 * A call's service as a key, and a key as the query of its providers. Dubbo's key is its own
 * service key, {@code [group/]interface[:version]} (group and version from the call's
 * attachments); SOFARPC's is the service's unique name, {@code interface:version[:uniqueId]}, as
 * the call's {@code service} header carries it.
 */
final class ServiceKeys {

    private ServiceKeys() {
    }

    /** The key of {@code request}'s service, or null when it names none. */
    static String of(ProviderQueryConfig.Kind kind, RouteRequest request) {
        String path = request.path();
        int end = path.indexOf('/', 1);
        String service = end < 0 ? path.substring(1) : path.substring(1, end);
        if (service.isEmpty()) {
            return null;
        }
        if (kind == ProviderQueryConfig.Kind.SOFA) {
            return service;
        }
        String group = request.header("group");
        String version = DubboLayout.version(request.header("version"));
        boolean grouped = group != null && !group.isEmpty();
        boolean versioned = version != null && !version.isEmpty();
        if (!grouped && !versioned) {
            return service;
        }
        return (grouped ? group + "/" : "") + service + (versioned ? ":" + version : "");
    }

    /** The key of the service {@code query} reads the providers of. */
    static String of(ProviderQueryConfig query) {
        if (query.kind() == ProviderQueryConfig.Kind.SOFA) {
            return query.interfaceName() + ":" + query.version() + (query.uniqueId().isEmpty() ? "" : ":" + query.uniqueId());
        }
        return (query.group().isEmpty() ? "" : query.group() + "/") + query.interfaceName()
                + (query.version().isEmpty() ? "" : ":" + query.version());
    }

    /** The providers of the service of {@code key} in {@code registry}. */
    static ProviderQueryConfig query(String registry, ProviderQueryConfig.Kind kind, String key) {
        if (kind == ProviderQueryConfig.Kind.SOFA) {
            String[] parts = key.split(":", 3);
            return new ProviderQueryConfig(registry, kind, parts[0], "", parts.length > 1 ? parts[1] : "",
                    parts.length > 2 ? parts[2] : "", List.of("bolt"));
        }
        int slash = key.indexOf('/');
        String group = slash < 0 ? "" : key.substring(0, slash);
        String rest = key.substring(slash + 1);
        int colon = rest.indexOf(':');
        return new ProviderQueryConfig(registry, kind, colon < 0 ? rest : rest.substring(0, colon), group,
                colon < 0 ? "" : rest.substring(colon + 1), "", List.of("dubbo"));
    }
}
