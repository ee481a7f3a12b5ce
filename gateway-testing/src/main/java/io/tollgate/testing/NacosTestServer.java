package io.tollgate.testing;

import org.junit.jupiter.api.Assumptions;

/**
 * Where the Nacos server of the Nacos tests runs. Nacos publishes no server to Maven Central
 * (only its client), so a test cannot start one itself: it is given from outside, as
 * {@code -Dtollgate.nacos.addr=host:port} or the environment's {@code NACOS_ADDR}, a standalone
 * server built from Nacos's published source (docs/discovery.md says how). Without one, a test
 * that needs it is skipped, saying so.
 */
public final class NacosTestServer {

    /** The system property naming the server. */
    public static final String PROPERTY = "tollgate.nacos.addr";
    /** The environment variable naming the server when the property does not. */
    public static final String ENVIRONMENT = "NACOS_ADDR";

    private NacosTestServer() {
    }

    /**
     * The server's {@code host:port}; skips the calling test when none is given. Points every
     * nacos-client of the JVM (the gateway's, Dubbo's, SOFARPC's) at {@code target/nacos} for the
     * disk copy of what it reads, which it keeps under the user's home unless told.
     */
    public static String address() {
        System.setProperty("JM.SNAPSHOT.PATH", "target/nacos");
        String address = System.getProperty(PROPERTY);
        if (address == null || address.isBlank()) {
            address = System.getenv(ENVIRONMENT);
        }
        Assumptions.assumeTrue(address != null && !address.isBlank(), "no Nacos server given: Nacos publishes none"
                + " to Maven Central; run one (docs/discovery.md) and pass -D" + PROPERTY + "=host:port or "
                + ENVIRONMENT + "=host:port");
        return address.trim();
    }
}
