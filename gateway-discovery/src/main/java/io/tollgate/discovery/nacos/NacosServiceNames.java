package io.tollgate.discovery.nacos;

import io.tollgate.core.config.ProviderQueryConfig;
import io.tollgate.discovery.dubbo.DubboLayout;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * The Nacos service names under which a query's providers register. Nacos keeps one service per
 * name (in a namespace and group), and both frameworks fold what tells their services apart into it:
 * <ul>
 * <li>Dubbo: {@code providers:{interface}:{version}:{group}}, empty parts kept (so
 *     {@code providers:com.example.Echo::}); Dubbo 2.7.3 and older registered
 *     {@code providers:{interface}[:{version}][:{group}]}, empty parts left out, which Dubbo's own
 *     consumers still read, and so is read too;</li>
 * <li>SOFARPC: {@code {interface}[:{uniqueId}]:{protocol}}, where Bolt and TR are {@code DEFAULT};
 *     the service's version is only in the instances' metadata.</li>
 * </ul>
 * A query that takes any group or version (Dubbo) or any unique id (SOFARPC) names no single
 * service: the group's services are listed and those that {@link #matches} are read.
 */
final class NacosServiceNames {

    private static final String DUBBO_CATEGORY = "providers";
    /** What SOFARPC writes in place of the Bolt and TR protocols. */
    private static final String SOFA_DEFAULT_PROTOCOL = "DEFAULT";

    private NacosServiceNames() {
    }

    /** Whether {@code query} takes any value of a part of the service name, so that names must be listed. */
    static boolean listed(ProviderQueryConfig query) {
        return switch (query.kind()) {
            case DUBBO -> ProviderQueryConfig.ANY.equals(query.group())
                    || ProviderQueryConfig.ANY.equals(query.version());
            case SOFA -> ProviderQueryConfig.ANY.equals(query.uniqueId());
        };
    }

    /** The service names of a query that is not {@link #listed}, most current first. */
    static Set<String> of(ProviderQueryConfig query) {
        Set<String> names = new LinkedHashSet<>();
        if (query.kind() == ProviderQueryConfig.Kind.DUBBO) {
            names.add(DUBBO_CATEGORY + ":" + query.interfaceName() + ":" + query.version() + ":" + query.group());
            names.add(DUBBO_CATEGORY + ":" + query.interfaceName()
                    + (query.version().isEmpty() ? "" : ":" + query.version())
                    + (query.group().isEmpty() ? "" : ":" + query.group()));
        } else {
            String service = query.interfaceName() + (query.uniqueId().isEmpty() ? "" : ":" + query.uniqueId());
            for (String protocol : query.protocols()) {
                names.add(service + ":" + sofaProtocol(protocol));
            }
        }
        return names;
    }

    /** Whether the listed service {@code name} holds providers of {@code query}. */
    static boolean matches(ProviderQueryConfig query, String name) {
        if (query.kind() == ProviderQueryConfig.Kind.DUBBO) {
            String[] parts = name.split(":", -1);
            return parts.length == 4 && parts[0].equals(DUBBO_CATEGORY) && parts[1].equals(query.interfaceName())
                    && ProviderQueryConfig.matches(query.version(), DubboLayout.version(parts[2]))
                    && ProviderQueryConfig.matches(query.group(), parts[3]);
        }
        if (!name.startsWith(query.interfaceName() + ":")) {
            return false;
        }
        for (String protocol : query.protocols()) {
            String suffix = ":" + sofaProtocol(protocol);
            if (name.endsWith(suffix) && name.length() >= query.interfaceName().length() + suffix.length()) {
                String uniqueId = name.substring(query.interfaceName().length(), name.length() - suffix.length());
                if (uniqueId.isEmpty() || uniqueId.startsWith(":")) {
                    String id = uniqueId.isEmpty() ? "" : uniqueId.substring(1);
                    return ProviderQueryConfig.matches(query.uniqueId(), id);
                }
            }
        }
        return false;
    }

    private static String sofaProtocol(String protocol) {
        return protocol.equals("bolt") || protocol.equals("tr") ? SOFA_DEFAULT_PROTOCOL : protocol;
    }
}
