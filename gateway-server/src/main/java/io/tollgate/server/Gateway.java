package io.tollgate.server;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.netty.channel.EventLoopGroup;
import io.tollgate.admin.AdminContext;
import io.tollgate.admin.ServedConfig;
import io.tollgate.admin.AdminServer;
import io.tollgate.admin.ListenerInfo;
import io.tollgate.core.config.ConfigException;
import io.tollgate.core.config.ConfigLoader;
import io.tollgate.core.config.GatewayConfig;
import io.tollgate.core.config.ListenerConfig;
import io.tollgate.core.config.XdsResourceStatus;
import io.tollgate.core.extension.ExtensionRegistry;
import io.tollgate.core.metrics.GatewayMetrics;
import io.tollgate.router.cluster.ClusterManager;
import io.tollgate.server.control.ControlThread;
import io.tollgate.server.demo.DemoUpstream;
import io.tollgate.server.health.UpstreamHealth;
import io.tollgate.server.listener.DownstreamProtocols;
import io.tollgate.server.listener.Listener;
import io.tollgate.server.overload.OverloadGuard;
import io.tollgate.server.tls.CertificateFileWatcher;
import io.tollgate.server.transport.Transport;
import io.tollgate.xds.XdsClient;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One running gateway: its event loops, control thread, listeners, admin API, optional demo
 * upstream, metrics, upstream health checking, overload guard, the current configuration snapshot
 * and, with {@code dynamic_resources}, its xDS client. {@link #start} returns once every socket is
 * bound (the gateway reports ready once the first xDS configuration, if any, is applied too);
 * {@link #reload} swaps the configuration without a restart; {@link #close} stops everything.
 */
public final class Gateway implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(Gateway.class);

    private final AtomicReference<Snapshot> snapshot;
    private final Path configFile;
    private final Transport transport;
    private final EventLoopGroup workers;
    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final GatewayMetrics metrics = new GatewayMetrics(registry);
    private final List<Listener> listeners = new CopyOnWriteArrayList<>();
    private final ReloadMeters reloads = new ReloadMeters(registry);
    private final ControlThread control = ControlThread.start();
    private volatile boolean ready;
    private DemoUpstream demo;
    private AdminServer admin;
    private UpstreamHealth health;
    private DownstreamProtocols protocols;
    private OverloadGuard overload;
    private XdsClient xds;

    private Gateway(GatewayConfig config, Path configFile) {
        try {
            this.snapshot = new AtomicReference<>(Snapshot.compile(config, metrics, control));
        } catch (RuntimeException e) {
            control.close();
            throw e;
        }
        this.configFile = configFile;
        this.transport = Transport.best();
        this.workers = transport.newGroup(config.eventLoops(), "tollgate-io");
        reloads.version(1);
    }

    /** Starts a gateway on a validated configuration; {@link #reload()} has no file to read. */
    public static Gateway start(GatewayConfig config) throws InterruptedException {
        return start(config, null);
    }

    /**
     * Starts a gateway on a validated configuration read from {@code configFile}, which
     * {@link #reload()} reads again.
     */
    public static Gateway start(GatewayConfig config, Path configFile) throws InterruptedException {
        Gateway gateway = new Gateway(config, configFile);
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
        health = UpstreamHealth.create(workers, transport, metrics, control);
        awaitFirstVerdicts(control.call(() -> health.update(snapshot.get())), config);
        overload = OverloadGuard.start(config.overload(), registry);
        protocols = new DownstreamProtocols(snapshot::get, transport, metrics, ExtensionRegistry.defaults(), overload);
        for (ListenerConfig listenerConfig : config.listeners()) {
            listeners.add(Listener.bind(listenerConfig, workers, transport, protocols));
        }
        admin = AdminServer.start(config.admin(), new Context());
        if (config.xds().isPresent()) {
            xds = XdsClient.start(config, ExtensionRegistry.defaults(), registry, this::applyFromXds,
                    CertificateFileWatcher::checkNow);
        }
        ready = true;
        log.info("gateway ready; admin API on {}:{}", config.admin().address(), admin.port());
    }

    /**
     * Waits, before any listener accepts, for the first health verdict of every checked host (as
     * Envoy's cluster warming does), so that start-up does not meet every host still pending; at
     * most twice the longest health check timeout, then serves with what it knows.
     */
    private static void awaitFirstVerdicts(CompletableFuture<Void> firstVerdicts, GatewayConfig config)
            throws InterruptedException {
        long timeoutNanos = config.clusters().stream().flatMap(c -> c.healthCheck().stream())
                .mapToLong(h -> h.timeout().toNanos()).max().orElse(0);
        try {
            firstVerdicts.get(2 * timeoutNanos + TimeUnit.SECONDS.toNanos(1), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            log.warn("starting before every host had its first health check; those without one take no traffic yet");
        } catch (ExecutionException e) {
            throw new IllegalStateException("first health checks failed", e.getCause());
        }
    }

    /**
     * Reads the configuration file again and applies it: see {@link #reload(GatewayConfig)}. With
     * an xDS control plane, the file's listeners and clusters are applied together with those
     * received from it (the control plane's address changes with a restart only).
     *
     * @throws ConfigException when the gateway has no configuration file or the file is invalid
     */
    public long reload() {
        if (configFile == null) {
            reloads.failed();
            throw new ConfigException("<root>: the gateway was started without a configuration file (run -c FILE)");
        }
        GatewayConfig config;
        try {
            config = ConfigLoader.load(configFile);
        } catch (ConfigException e) {
            reloads.failed();
            log.warn("configuration reload from {} rejected, still serving version {}: {}", configFile,
                    snapshot.get().version(), e.getMessage());
            throw e;
        }
        if (xds != null) {
            xds.rebase(config);
            return snapshot.get().version();
        }
        return reload(config);
    }

    /**
     * Applies a validated configuration without a restart and returns its version. The next
     * snapshot is compiled on the control thread, never on an event loop, then published at once:
     * requests already routed finish on the snapshot they started with. Clusters whose settings
     * are unchanged keep their hosts (health, load, outlier state, pooled connections) and take
     * the new endpoint list in place; the upstream pools of clusters and hosts that left close
     * once their requests end. Listeners under new names are bound and those no longer listed
     * closed; a listener's address, port, protocols and options change only with a restart. New
     * hosts of health-checked clusters take traffic after their first passing check.
     *
     * @throws ConfigException when the configuration cannot be applied; the running one stays whole
     */
    public long reload(GatewayConfig config) {
        return control.call(() -> apply(config).version());
    }

    /**
     * {@link #reload(GatewayConfig)} for the xDS client, which warms a new health-checked cluster
     * until the returned future completes: once every host this configuration checks for the first
     * time has had its first verdict.
     */
    private CompletableFuture<Void> applyFromXds(GatewayConfig config) {
        return control.call(() -> apply(config).firstVerdicts());
    }

    /** What {@link #apply} did: the version served and when its new hosts had their first health verdicts. */
    private record Applied(long version, CompletableFuture<Void> firstVerdicts) {
    }

    /** {@link #reload(GatewayConfig)}, on the control thread. */
    private Applied apply(GatewayConfig config) {
        Snapshot current = snapshot.get();
        List<Listener> bound = new ArrayList<>();
        SnapshotUpdate update;
        try {
            update = SnapshotUpdate.prepare(current, config, control);
            for (ListenerConfig added : update.addedListeners()) {
                bound.add(bindForReload(added));
            }
        } catch (ConfigException e) {
            bound.forEach(Listener::close);
            reloads.failed();
            log.warn("configuration reload rejected, still serving version {}: {}", current.version(), e.getMessage());
            throw e;
        }
        Snapshot next = update.commit(metrics, control);
        snapshot.set(next);
        listeners.addAll(bound);
        for (String removed : update.removedListeners()) {
            for (Listener listener : listeners) {
                if (listener.config().name().equals(removed)) {
                    listeners.remove(listener);
                    listener.close();
                }
            }
        }
        CompletableFuture<Void> firstVerdicts = health.update(next);
        protocols.retireUpstreams(next.clusters());
        reloads.applied(next.version());
        log.info("configuration version {} applied: {} listeners, {} clusters", next.version(),
                config.listeners().size(), config.clusters().size());
        return new Applied(next.version(), firstVerdicts);
    }

    private Listener bindForReload(ListenerConfig config) {
        try {
            return Listener.bind(config, workers, transport, protocols);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ConfigException("listeners." + config.name() + ": interrupted while binding", e);
        } catch (RuntimeException e) { // a BindException, which Netty throws undeclared
            throw new ConfigException("listeners." + config.name() + ": cannot bind " + config.address() + ":"
                    + config.port() + ": " + e.getMessage(), e);
        }
    }

    /** The current configuration snapshot. */
    public Snapshot snapshot() {
        return snapshot.get();
    }

    /** The process's meters. */
    public GatewayMetrics metrics() {
        return metrics;
    }

    /** The port a listener is bound to; MUST name a configured listener. */
    public int port(String listenerName) {
        return listeners.stream().filter(l -> l.config().name().equals(listenerName)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("listener: " + listenerName))
                .port();
    }

    /** The port the admin API is bound to. */
    public int adminPort() {
        return admin.port();
    }

    @Override
    public void close() {
        ready = false;
        if (xds != null) {
            xds.close();
        }
        if (admin != null) {
            admin.close();
        }
        for (Listener listener : listeners) {
            listener.close();
        }
        if (demo != null) {
            demo.close();
        }
        if (health != null) {
            control.call(() -> {
                health.close();
                return null;
            });
        }
        if (overload != null) {
            overload.close();
        }
        workers.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
        control.close();
        registry.close();
        log.info("gateway stopped");
    }

    /** What the admin API sees of this gateway. */
    private final class Context implements AdminContext {
        @Override
        public ServedConfig served() {
            return snapshot.get();
        }

        @Override
        public long reload() {
            return Gateway.this.reload();
        }

        @Override
        public ClusterManager clusters() {
            return snapshot.get().clusters();
        }

        @Override
        public List<ListenerInfo> listeners() {
            List<ListenerInfo> infos = new ArrayList<>();
            for (Listener listener : listeners) {
                ListenerConfig config = listener.config();
                infos.add(new ListenerInfo(config.name(), config.address(), listener.port(), config.protocols()));
            }
            return infos;
        }

        @Override
        public PrometheusMeterRegistry prometheus() {
            return registry;
        }

        @Override
        public boolean ready() {
            return ready && (xds == null || xds.initialized());
        }

        @Override
        public List<XdsResourceStatus> xdsResources() {
            return xds == null ? List.of() : xds.resources();
        }
    }
}
