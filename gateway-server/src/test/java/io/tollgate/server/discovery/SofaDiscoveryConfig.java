package io.tollgate.server.discovery;

/**
 * The gateway configuration of the SOFARPC discovery tests, whatever the registry: a Bolt listener
 * whose virtual host for {@code ${INTERFACE}:1.0:<unique id>} goes to the cluster {@code named}
 * (the providers of that service and unique id found in the registry), every other call to
 * {@code sofa-services} (a cluster made per service from a template).
 */
final class SofaDiscoveryConfig {

    private SofaDiscoveryConfig() {
    }

    /**
     * @param registry the registry's name
     * @param settings the registry's settings, YAML lines indented as a list item's fields
     * @param uniqueId the unique id of the named cluster's service, as YAML
     */
    static String of(String registry, String settings, String uniqueId) {
        return """
                registries:
                  - name: %1$s
                %2$s    connection_timeout: 5s
                listeners:
                  - name: bolt
                    port: 0
                    protocols: [bolt]
                    route_config:
                      virtual_hosts:
                        - name: named
                          domains: ["${INTERFACE}:1.0:%4$s"]
                          routes: [{ match: { prefix: / }, route: { cluster: named } }]
                        - name: every-service
                          domains: ["*"]
                          routes: [{ match: { prefix: / }, route: { cluster: sofa-services } }]
                clusters:
                  - name: named
                    discovery: { registry: %1$s, sofa: { interface: "${INTERFACE}", unique_id: %3$s } }
                  - name: sofa-services
                    discovery: { registry: %1$s, per_service: sofa }
                """.formatted(registry, settings, uniqueId, uniqueId.replace("\"", ""));
    }
}
