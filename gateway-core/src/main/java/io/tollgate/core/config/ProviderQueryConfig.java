package io.tollgate.core.config;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * Which registered providers make a cluster's hosts (a cluster's {@code discovery:}): the
 * providers of one service in one registry, as Dubbo or SOFARPC register them.
 *
 * @param registry the name of a registry in {@code registries}
 * @param kind whose layout the registry is read in
 * @param interfaceName the service's interface, e.g. {@code com.example.EchoService}
 * @param group Dubbo's group; empty matches providers without one, {@value #ANY} any
 * @param version the service's version (Dubbo's {@code version}, SOFARPC's {@code version});
 *     empty matches providers without one, {@value #ANY} any
 * @param uniqueId SOFARPC's {@code uniqueId}; empty matches providers without one, {@value #ANY}
 *     any; always empty for Dubbo
 * @param protocols the provider protocols taken (Dubbo: {@code dubbo}; SOFARPC: {@code bolt});
 *     providers registered over another protocol are left out
 */
public record ProviderQueryConfig(String registry, Kind kind, String interfaceName, String group, String version,
        String uniqueId, List<String> protocols) {

    /** Matches every value, none included. */
    public static final String ANY = "*";

    public ProviderQueryConfig {
        requireNonNull(registry, "registry");
        requireNonNull(kind, "kind");
        requireNonNull(interfaceName, "interfaceName");
        requireNonNull(group, "group");
        requireNonNull(version, "version");
        requireNonNull(uniqueId, "uniqueId");
        protocols = List.copyOf(protocols);
    }

    /** Whether a provider's {@code value} of a field this query sets to {@code wanted} matches. */
    public static boolean matches(String wanted, String value) {
        return ANY.equals(wanted) || wanted.equals(value == null ? "" : value);
    }

    /** Whose registrations a query reads. */
    public enum Kind {
        /** Apache Dubbo's interface-level registrations, {@code /dubbo/{interface}/providers/{url}}. */
        DUBBO("dubbo"),
        /** SOFARPC's registrations, {@code /sofa-rpc/{interface}/providers/{url}}. */
        SOFA("sofa");

        private final String configName;

        Kind(String configName) {
            this.configName = configName;
        }

        /** The name the configuration file uses. */
        public String configName() {
            return configName;
        }
    }
}
