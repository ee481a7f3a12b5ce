package io.tollgate.server.network;

import io.netty.buffer.ByteBuf;
import io.tollgate.core.config.ConfigNode;
import io.tollgate.core.config.NetworkFilterConfig;
import io.tollgate.core.filter.NetworkConnection;
import io.tollgate.core.filter.NetworkFilter;
import io.tollgate.core.filter.NetworkFilterContext;
import io.tollgate.core.filter.NetworkFilterFactory;
import io.tollgate.core.filter.NetworkFilterStatus;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.function.Supplier;

/**
 * A test-only network filter, {@code test_hold}: it holds each connection once, at its opening
 * ({@code hold: connect}) or at its first bytes ({@code hold: first_read}), and hands the
 * connection to {@link #HELD}, from which a test resumes it on its own thread, as asynchronous
 * work would.
 */
public final class HoldingFilterFactory implements NetworkFilterFactory {

    /** The connections held and not yet taken by a test. */
    static final BlockingQueue<NetworkConnection> HELD = new LinkedBlockingQueue<>();

    @Override
    public String name() {
        return "test_hold";
    }

    @Override
    public Set<String> keys() {
        return Set.of("hold");
    }

    @Override
    public NetworkFilterConfig parse(ConfigNode node, NetworkFilterConfig base) {
        String hold = node.string("hold");
        if (!hold.equals("connect") && !hold.equals("first_read")) {
            throw node.child("hold").error("'" + hold + "' (expected connect or first_read)");
        }
        return new Config(hold.equals("connect"));
    }

    @Override
    public Supplier<NetworkFilter> prepare(NetworkFilterConfig config, NetworkFilterContext context) {
        boolean atConnect = ((Config) config).atConnect();
        return () -> new NetworkFilter() {
            private boolean held;

            @Override
            public NetworkFilterStatus onConnect(NetworkConnection connection) {
                return atConnect ? hold(connection) : NetworkFilterStatus.CONTINUE;
            }

            @Override
            public NetworkFilterStatus onRead(NetworkConnection connection, ByteBuf data) {
                return atConnect ? NetworkFilterStatus.CONTINUE : hold(connection);
            }

            private NetworkFilterStatus hold(NetworkConnection connection) {
                if (held) {
                    return NetworkFilterStatus.CONTINUE;
                }
                held = true;
                HELD.add(connection);
                return NetworkFilterStatus.STOP;
            }
        };
    }

    private record Config(boolean atConnect) implements NetworkFilterConfig {
    }
}
