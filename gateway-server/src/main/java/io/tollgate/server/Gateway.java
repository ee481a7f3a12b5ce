package io.tollgate.server;

import io.netty.channel.EventLoopGroup;
import io.tollgate.core.config.GatewayConfig;
import io.tollgate.core.config.ListenerConfig;
import io.tollgate.server.demo.DemoUpstream;
import io.tollgate.server.listener.DownstreamProtocols;
import io.tollgate.server.listener.Listener;
import io.tollgate.server.transport.Transport;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One running gateway: its event loops, listeners, optional demo upstream, and the current
 * configuration snapshot. {@link #start} returns once every socket is bound; {@link #close}
 * stops everything.
 */
public final class Gateway implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(Gateway.class);

    private final AtomicReference<Snapshot> snapshot;
    private final Transport transport;
    private final EventLoopGroup workers;
    private final List<Listener> listeners = new ArrayList<>();
    private DemoUpstream demo;

    private Gateway(GatewayConfig config) {
        this.snapshot = new AtomicReference<>(Snapshot.compile(config));
        this.transport = Transport.best();
        this.workers = transport.newGroup(config.eventLoops(), "tollgate-io");
    }

    /** Starts a gateway on a validated configuration. */
    public static Gateway start(GatewayConfig config) throws InterruptedException {
        Gateway gateway = new Gateway(config);
        try {
            gateway.bind();
        } catch (RuntimeException | InterruptedException e) {
            gateway.close();
            throw e;
        }
        return gateway;
    }

    private void bind() throws InterruptedException {
        GatewayConfig config = snapshot.get().config();
        if (config.demoUpstream().isPresent()) {
            demo = DemoUpstream.start(config.demoUpstream().get(), workers, transport);
        }
        DownstreamProtocols protocols = new DownstreamProtocols(snapshot::get, transport);
        for (ListenerConfig listenerConfig : config.listeners()) {
            listeners.add(Listener.bind(listenerConfig, workers, transport, protocols));
        }
    }

    /** The current configuration snapshot. */
    public Snapshot snapshot() {
        return snapshot.get();
    }

    /** The bound listeners, in configuration order. */
    public List<Listener> listeners() {
        return List.copyOf(listeners);
    }

    /** The port a listener is bound to; MUST name a configured listener. */
    public int port(String listenerName) {
        return listeners.stream().filter(l -> l.config().name().equals(listenerName)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("listener: " + listenerName))
                .port();
    }

    @Override
    public void close() {
        for (Listener listener : listeners) {
            listener.close();
        }
        if (demo != null) {
            demo.close();
        }
        workers.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
        log.info("gateway stopped");
    }
}
