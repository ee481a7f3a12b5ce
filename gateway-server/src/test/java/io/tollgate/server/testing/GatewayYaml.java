package io.tollgate.server.testing;

/**
 * The YAML preamble routing tests share (event loops, one listener, one catch-all virtual host),
 * written around the listener settings, routes and clusters each test spells out itself.
 */
public final class GatewayYaml {

    private GatewayYaml() {
    }

    /**
     * One event loop and an HTTP/1.1 listener {@code http} whose only virtual host routes by
     * {@code routes}, followed by {@code rest}.
     *
     * @see #gateway(int, String, String, String)
     */
    public static String http(String routes, String rest) {
        return gateway(1, "name: http", routes, rest);
    }

    /**
     * A gateway on {@code eventLoops} event loops with one listener: {@code listener} holds its
     * settings, name first (e.g. {@code name: h2} and {@code protocols: [h2c]} on separate lines);
     * {@code routes} the YAML list of routes of its virtual host {@code all}, which matches every
     * domain; {@code rest} the top-level YAML that follows, e.g. {@code clusters:}. All three are
     * written without the indentation of where they end up.
     */
    public static String gateway(int eventLoops, String listener, String routes, String rest) {
        return "event_loops: " + eventLoops + "\n"
                + "listeners:\n"
                + "  - " + listener.indent(4).substring(4)
                + """
                      route_config:
                        virtual_hosts:
                          - name: all
                            domains: ["*"]
                            routes:
                  """
                + routes.indent(12)
                + rest;
    }
}
