package io.tollgate.server.rpc;

/** Gateway configurations that several Bolt tests share. */
final class BoltConfigs {

    private BoltConfigs() {
    }

    /**
     * A gateway whose Bolt-only listener {@code bolt} sends every request, whatever its service, to
     * {@code cluster}; {@code clusters} is the YAML of the {@code clusters:} list that follows.
     */
    static String everyServiceTo(String cluster, String clusters) {
        return """
                listeners:
                  - name: bolt
                    port: 0
                    protocols: [bolt]
                    route_config:
                      virtual_hosts:
                        - name: all
                          domains: ["*"]
                          routes: [{ match: { prefix: / }, route: { cluster: %s } }]
                clusters:
                """.formatted(cluster) + clusters;
    }
}
