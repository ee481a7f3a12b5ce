package io.tollgate.server.testing;

import java.io.IOException;
import java.util.Map;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingServer;

/**
 * A real ZooKeeper server in the test JVM (Curator's {@link TestingServer}) on 127.0.0.1 and a
 * free port, where real Dubbo and SOFARPC providers register.
 */
public final class ZooKeeperServer implements AutoCloseable {

    private final TestingServer server;

    private ZooKeeperServer(TestingServer server) {
        this.server = server;
    }

    /** Starts a server; it accepts once this returns. */
    public static ZooKeeperServer start() throws Exception {
        return new ZooKeeperServer(new TestingServer(new InstanceSpec(null, -1, -1, -1, true, -1, -1, -1,
                Map.of("clientPortAddress", "127.0.0.1"), "127.0.0.1"), true));
    }

    /** {@code 127.0.0.1:port}, as a registry's {@code ensemble}. */
    public String ensemble() {
        return "127.0.0.1:" + server.getPort();
    }

    /** The port it listens on. */
    public int port() {
        return server.getPort();
    }

    /** Stops the server, keeping its data: clients lose their connection. */
    public void stop() throws IOException {
        server.stop();
    }

    /** Starts the stopped server again on the same port with the same data. */
    public void restart() throws Exception {
        server.restart();
    }

    @Override
    public void close() throws IOException {
        server.close();
    }
}
