package io.tollgate.server;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFactory;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.unix.FileDescriptor;
import io.netty.channel.unix.UnixChannel;
import io.tollgate.admin.AdminServer;
import io.tollgate.core.config.ConfigException;
import io.tollgate.core.config.ConfigLoader;
import io.tollgate.core.config.GatewayConfig;
import io.tollgate.core.config.ListenerConfig;
import io.tollgate.core.extension.ExtensionRegistry;
import io.tollgate.core.metrics.GatewayMetrics;
import io.tollgate.router.cluster.Cluster;
import io.tollgate.router.outlier.OutlierDetector;
import io.tollgate.server.configwatch.ConfigWatchSwitch;
import io.tollgate.server.control.ControlThread;
import io.tollgate.server.demo.DemoUpstream;
import io.tollgate.server.discovery.DiscoveredClusters;
import io.tollgate.server.dns.DnsClusters;
import io.tollgate.server.drain.Drain;
import io.tollgate.server.drain.DrainController;
import io.tollgate.server.drain.DrainTrigger;
import io.tollgate.server.health.UpstreamHealth;
import io.tollgate.server.listener.DownstreamProtocols;
import io.tollgate.server.listener.Listener;
import io.tollgate.server.overload.OverloadGuard;
import io.tollgate.server.tls.CertificateFileWatcher;
import io.tollgate.server.transport.EventLoopDelayProbe;
import io.tollgate.server.transport.Transport;
import io.tollgate.server.upgrade.Inheritance;
import io.tollgate.xds.XdsClient;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One running gateway: its event loops, control thread, listeners, admin API, optional demo
 * upstream, metrics, upstream health checking, overload guard, the current configuration snapshot
 * and, with {@code dynamic_resources}, its xDS client. {@link #start} returns once every socket is
 * bound (the gateway reports ready once the first xDS configuration, if any, is applied too);
 * {@link #reload} swaps the configuration without a restart; {@link #drain} and
 * {@link #drainAndClose} let the requests in flight finish (see {@link io.tollgate.server.drain});
 * {@link #close} stops everything, after the drain under way if there is one. In a hot restart it
 * starts on the sockets and counters of the process before it ({@link Inheritance}).
 */
public final class Gateway implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(Gateway.class);

    private final AtomicReference<Snapshot> snapshot;
    private final Path configFile;
    private final Launch launch;
    private final Instant started = Instant.now();
    private final Transport transport;
    private final EventLoopGroup workers;
    private final EventLoopDelayProbe loopDelays;
    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final GatewayMetrics metrics = new GatewayMetrics(registry);
    private final List<Listener> listeners = new CopyOnWriteArrayList<>();
    private final ReloadMeters reloads = new ReloadMeters(registry);
    private final ControlThread control = ControlThread.start();
    private final Inheritance inherited;
    private final DrainController drains;
    private final Set<Listener> retiring = ConcurrentHashMap.newKeySet();
    private final AtomicBoolean closing = new AtomicBoolean();
    private final AtomicBoolean closeScheduled = new AtomicBoolean();
    private final CompletableFuture<Void> terminated = new CompletableFuture<>();
    private DemoUpstream demo;
    private AdminServer admin;
    private UpstreamHealth health;
    private DnsClusters dns;
    private DownstreamProtocols protocols;
    private OverloadGuard overload;
    private XdsClient xds;
    private final ConfigWatchSwitch fileWatch;
    private final DiscoveredClusters discovery;
    /** The configuration last applied, before the providers of registries are added; control thread only. */
    private GatewayConfig applied;
    /** Whether start-up stopped waiting for the registries' first state (had it, or waited its bound). */
    private volatile boolean discoveryAwaited;

    private Gateway(GatewayConfig config, Launch launch, Inheritance inherited) {
        this.inherited = inherited;
        inherited.addCountersTo(registry);
        try {
            this.snapshot = new AtomicReference<>(Snapshot.compile(config, metrics, control));
        } catch (RuntimeException e) {
            control.close();
            throw e;
        }
        this.launch = launch;
        this.configFile = launch.configFile();
        this.fileWatch = new ConfigWatchSwitch(configFile, () -> snapshot.get().config().configWatch().debounce(),
                this::reload);
        this.transport = Transport.best();
        this.workers = transport.newGroup(config.eventLoops(), "tollgate-io");
        this.loopDelays = EventLoopDelayProbe.start(workers, registry);
        this.discovery = new DiscoveredClusters(control, registry, this::applyDiscovered);
        this.applied = config;
        this.drains = new DrainController(workers, registry,
                () -> (xds == null || xds.initialized()) && discoveryAwaited);
        reloads.version(1);
    }

    /** Starts a gateway on a validated configuration; {@link #reload()} has no file to read. */
    public static Gateway start(GatewayConfig config) throws InterruptedException {
        return start(config, (Path) null);
    }

    /**
     * Starts a gateway on a validated configuration read from {@code configFile}, which
     * {@link #reload()} reads again.
     */
    public static Gateway start(GatewayConfig config, Path configFile) throws InterruptedException {
        return start(config, Launch.fresh(configFile, List.of()));
    }

    /**
     * Starts a gateway on a validated configuration read from {@code launch}'s file, which
     * {@link #reload()} reads again; {@code launch} is what {@code /server_info} reports of the process.
     */
    public static Gateway start(GatewayConfig config, Launch launch) throws InterruptedException {
        return start(config, launch, Inheritance.NONE);
    }

    /**
     * Starts a gateway as {@link #start(GatewayConfig, Launch)} does, on the sockets and counters a
     * previous process handed over: listeners and the admin API with a socket in {@code inherited}
     * serve on it instead of binding, and accept only once the whole gateway started.
     */
    public static Gateway start(GatewayConfig config, Launch launch, Inheritance inherited) throws InterruptedException {
        Gateway gateway = new Gateway(config, launch, inherited);
        try {
            gateway.bind();
        } catch (Exception e) { // also a BindException, which Netty throws undeclared
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
        dns = new DnsClusters(control, metrics, this::hostsResolved);
        awaitAtStart(control.call(() -> dns.update(config, snapshot.get().clusters())),
                DnsClusters.firstRoundsBound(config),
                "every DNS cluster had its first answer; those without one have no host yet", "first DNS resolutions");
        awaitFirstVerdicts(control.call(() -> health.update(snapshot.get())), config);
        overload = OverloadGuard.start(config.overload(), registry);
        protocols = new DownstreamProtocols(snapshot::get, transport, metrics, ExtensionRegistry.defaults(), overload,
                discovery.serviceClusters(), discovery.serviceMethods());
        for (ListenerConfig listenerConfig : config.listeners()) {
            FileDescriptor socket = inherited.listenerSocket(listenerConfig.name());
            listeners.add(socket == null ? Listener.bind(listenerConfig, workers, transport, protocols)
                    : Listener.adopt(listenerConfig, workers, transport, protocols, socket));
        }
        admin = startAdmin(config);
        awaitDiscovery(control.call(() -> {
            discovery.follow(config);
            return discovery.firstSync();
        }), config);
        if (config.xds().isPresent()) {
            xds = XdsClient.start(config, ExtensionRegistry.defaults(), registry, this::applyFromXds,
                    CertificateFileWatcher::checkNow);
        }
        listeners.forEach(Listener::startAccepting);
        fileWatch.follow(config.configWatch());
        drains.started();
        log.info("gateway ready; admin API on {}:{}, restart epoch {}", config.admin().address(), admin.port(),
                launch.restartEpoch());
    }

    /** The admin API on epoll when available, so that a hot restart can hand its socket over. */
    private AdminServer startAdmin(GatewayConfig config) throws InterruptedException {
        if (transport != Transport.EPOLL) {
            return AdminServer.start(config.admin(), adminContext());
        }
        FileDescriptor socket = inherited.adminSocket();
        ChannelFactory<ServerChannel> sockets = socket == null ? EpollServerSocketChannel::new
                : () -> new EpollServerSocketChannel(socket.intValue());
        return AdminServer.start(config.admin(), adminContext(), EpollIoHandler.newFactory(), sockets, socket != null);
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
        awaitAtStart(firstVerdicts, 2 * timeoutNanos + TimeUnit.SECONDS.toNanos(1),
                "every host had its first health check; those without one take no traffic yet", "first health checks");
    }

    /**
     * Waits at most {@code timeoutNanos} for {@code done}, then starts anyway, saying so: "starting
     * before {@code missing}"; a failure of {@code what} stops the start.
     */
    private static void awaitAtStart(CompletableFuture<Void> done, long timeoutNanos, String missing, String what)
            throws InterruptedException {
        try {
            done.get(timeoutNanos, TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            log.warn("starting before {}", missing);
        } catch (ExecutionException e) {
            throw new IllegalStateException(what + " failed", e.getCause());
        }
    }

    /**
     * Waits, before any listener accepts, until every registry was read whole once and its
     * providers applied, as long as the slowest registry's connection timeout at most; then serves
     * with what it knows (the rest arrives as it comes).
     */
    private void awaitDiscovery(CompletableFuture<Void> firstSync, GatewayConfig config) throws InterruptedException {
        long timeoutNanos = config.discovery().registries().stream()
                .mapToLong(r -> r.connectionTimeout().toNanos()).max().orElse(0);
        try {
            awaitAtStart(firstSync, timeoutNanos,
                    "every service registry was read; discovered clusters fill as registries answer", "service discovery");
        } finally {
            discoveryAwaited = true;
        }
    }

    /**
     * Applies the configuration again with the providers the registries report now, on the
     * control thread: how a registry change reaches the clusters.
     */
    private CompletableFuture<Void> applyDiscovered() {
        if (closing.get() || drains.draining()) {
            return CompletableFuture.completedFuture(null);
        }
        try {
            return apply(applied).firstVerdicts();
        } catch (ConfigException e) {
            log.warn("providers from the service registries not applied: {}", e.getMessage());
            return CompletableFuture.completedFuture(null);
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
    private Applied apply(GatewayConfig given) {
        GatewayConfig config = discovery.withProviders(given);
        Snapshot current = snapshot.get();
        if (drains.draining()) {
            reloads.failed();
            throw new ConfigException("<root>: the gateway is draining (" + drains.processDrain().trigger().tag()
                    + "); still serving version " + current.version());
        }
        List<Listener> bound = new ArrayList<>();
        List<ListenerReplacement> replaced = new ArrayList<>();
        SnapshotUpdate update;
        try {
            update = SnapshotUpdate.prepare(current, config, control);
            for (ListenerConfig added : update.addedListeners()) {
                bound.add(bindForReload(added));
            }
            for (ListenerConfig changed : update.changedListeners()) {
                replaced.add(replaceForReload(changed));
            }
        } catch (ConfigException e) {
            replaced.forEach(ListenerReplacement::undo);
            bound.forEach(Listener::close);
            reloads.failed();
            log.warn("configuration reload rejected, still serving version {}: {}", current.version(), e.getMessage());
            throw e;
        }
        Snapshot next = update.commit(metrics, control);
        snapshot.set(next);
        applied = given;
        discovery.follow(given);
        listeners.addAll(bound);
        for (String removed : update.removedListeners()) {
            Listener listener = listener(removed);
            listeners.remove(listener);
            retire(listener, DrainTrigger.LISTENER_REMOVED, config.drain().timeout());
        }
        for (ListenerReplacement replacement : replaced) {
            // in place: a reader looking the listener up by name never finds it missing
            listeners.set(listeners.indexOf(replacement.previous()), replacement.next());
            retire(replacement.previous(), DrainTrigger.LISTENER_CHANGED, config.drain().timeout());
        }
        dns.update(config, next.clusters());
        CompletableFuture<Void> firstVerdicts = health.update(next);
        protocols.retireUpstreams(next.clusters());
        reloads.applied(next.version());
        log.info("configuration version {} applied: {} listeners, {} clusters", next.version(),
                config.listeners().size(), config.clusters().size());
        fileWatch.follow(config.configWatch());
        return new Applied(next.version(), firstVerdicts);
    }

    /**
     * A DNS cluster's hosts changed, on the control thread: its outlier detection, health checks
     * and upstream pools follow as after a reload (while starting, {@link #bind} does that itself).
     */
    private void hostsResolved(Cluster cluster) {
        Snapshot current = snapshot.get();
        if (current.clusters().cluster(cluster.name()) != cluster) {
            return;
        }
        OutlierDetector detector = current.outliers().detector(cluster.name());
        if (detector != null) {
            detector.retain(cluster.hosts());
        }
        if (protocols != null) {
            health.update(current);
            protocols.retireUpstreams(current.clusters());
        }
    }

    /**
     * Drains a listener the configuration no longer has, or has changed (it stops accepting at
     * once), then closes what served it, on the control thread.
     */
    private void retire(Listener listener, DrainTrigger trigger, Duration timeout) {
        retiring.add(listener);
        drains.drainListener(listener, trigger, timeout).done().whenCompleteAsync((outcome, error) -> {
            if (retiring.remove(listener)) {
                listener.close();
            }
        }, control);
    }

    private Listener listener(String name) {
        return listeners.stream().filter(l -> l.config().name().equals(name)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("listener: " + name));
    }

    private ListenerReplacement replaceForReload(ListenerConfig config) {
        return forReload(config, "replacing it", "cannot apply its change",
                () -> ListenerReplacement.of(listener(config.name()), config, workers, transport, protocols));
    }

    private Listener bindForReload(ListenerConfig config) {
        return forReload(config, "binding", "cannot bind " + config.address() + ":" + config.port(),
                () -> Listener.bind(config, workers, transport, protocols));
    }

    /**
     * Sets up a listener of a reload: a failure (a BindException, which Netty throws undeclared, a
     * certificate or access log that cannot be used) becomes a ConfigException naming the listener.
     */
    private static <T> T forReload(ListenerConfig config, String doing, String failure, ListenerSetUp<T> setUp) {
        try {
            return setUp.run();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ConfigException("listeners." + config.name() + ": interrupted while " + doing, e);
        } catch (RuntimeException e) {
            throw new ConfigException("listeners." + config.name() + ": " + failure + ": " + e.getMessage(), e);
        }
    }

    /** Binds or replaces a listener, which waits for its socket. */
    @FunctionalInterface
    private interface ListenerSetUp<T> {
        T run() throws InterruptedException;
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
        return listener(listenerName).port();
    }

    /** The port the admin API is bound to. */
    public int adminPort() {
        return admin.port();
    }

    /** How this process was started, its restart epoch included. */
    public Launch launch() {
        return launch;
    }

    /** The event loops that serve connections. */
    public EventLoopGroup eventLoops() {
        return workers;
    }

    /** How late the event loops run their tasks: see {@link EventLoopDelayProbe}. */
    public EventLoopDelayProbe eventLoopDelays() {
        return loopDelays;
    }

    /** The transport the gateway runs on; hot restarts need {@link Transport#EPOLL}. */
    public Transport transport() {
        return transport;
    }

    /** The listeners serving now. */
    public List<Listener> listeners() {
        return List.copyOf(listeners);
    }

    /** The admin API's listening socket, for a hot restart to hand over; null on NIO. */
    public FileDescriptor adminSocket() {
        Channel channel = admin.channel();
        return channel instanceof UnixChannel unix ? unix.fd() : null;
    }

    /**
     * Stops accepting on every listener and the admin API: a hot restart handed their sockets
     * over, and another process accepts on them now. Connections already open stay.
     */
    public void stopAccepting() {
        listeners.forEach(Listener::stopAccepting);
        admin.close();
    }

    /**
     * Serves a connection moved here by a hot restart on the listener named {@code listenerName},
     * with the protocol it spoke (see {@link Listener#adoptConnection}); closes it when no such
     * listener serves now.
     *
     * @return false when the connection was closed instead
     */
    public boolean adoptConnection(String listenerName, Channel connection, String protocol, boolean firstFrameSeen) {
        for (Listener listener : listeners) {
            if (listener.config().name().equals(listenerName)) {
                return listener.adoptConnection(connection, protocol, firstFrameSeen);
            }
        }
        connection.unsafe().closeForcibly();
        return false;
    }

    /**
     * Drains every listener for the whole process: {@code /ready} answers 503 at once, every open
     * connection finishes its work in flight and closes (see {@link io.tollgate.server.drain}),
     * and the drain ends when none is left or at {@code drain.timeout}, closing those still open.
     * The first call starts the drain; later ones join it. The process keeps running: see
     * {@link #drainAndClose} to stop it after.
     *
     * @param stopAccepting whether the listeners stop accepting at once (the process exits after, or
     *     another process serves their sockets now); else they accept until the process closes, and
     *     every new connection drains at once
     * @return the drain, whose {@link Drain#done()} completes once nothing is left in flight
     */
    public Drain drain(DrainTrigger trigger, boolean stopAccepting) {
        return drains.drainProcess(trigger, List.copyOf(listeners), stopAccepting,
                snapshot.get().config().drain().timeout());
    }

    /**
     * Drains every listener, accepting no new connection, then closes the gateway on a thread of its
     * own; how SIGTERM, {@code /quitquitquit} and the old process of a hot restart stop. Returns
     * {@link #terminated()}. Safe from any thread, the event loops included.
     */
    public CompletableFuture<Void> drainAndClose(DrainTrigger trigger) {
        Drain drain = drain(trigger, true);
        if (closeScheduled.compareAndSet(false, true)) {
            drain.done().whenComplete((outcome, error) -> {
                Thread closer = new Thread(this::close, "tollgate-stop");
                closer.start();
            });
        }
        return terminated;
    }

    /**
     * Ends the process's drain at once, if one is under way (a second SIGTERM): the connections
     * still open are closed with their work unfinished.
     */
    public void endDrain() {
        Drain drain = drains.processDrain();
        if (drain != null) {
            drain.endNow();
        }
    }

    /** Completes once {@link #close()} has stopped everything. */
    public CompletableFuture<Void> terminated() {
        return terminated;
    }

    /** The process's drain state: live, draining or failing health checks. */
    public DrainController drains() {
        return drains;
    }

    /**
     * Stops everything. When a drain of the process is under way, it first waits for that drain
     * to end (at most its timeout, less when {@link #endDrain()} is called), so that closing never
     * cuts requests a drain lets finish; else connections still open are cut.
     */
    @Override
    public void close() {
        if (!closing.compareAndSet(false, true)) {
            terminated.join();
            return;
        }
        fileWatch.close();
        Drain draining = drains.processDrain();
        if (draining != null) {
            draining.done().join();
        }
        if (xds != null) {
            xds.close();
        }
        control.call(() -> {
            discovery.close();
            return null;
        });
        if (admin != null) {
            admin.close();
        }
        for (Listener listener : listeners) {
            listener.close();
        }
        for (Listener listener : retiring) {
            if (retiring.remove(listener)) {
                listener.close();
            }
        }
        if (demo != null) {
            demo.close();
        }
        if (health != null) {
            control.call(() -> {
                health.close();
                if (dns != null) {
                    dns.close();
                }
                return null;
            });
        }
        if (overload != null) {
            overload.close();
        }
        loopDelays.close();
        workers.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
        control.close();
        registry.close();
        log.info("gateway stopped");
        terminated.complete(null);
    }

    /** When this process's gateway started. */
    Instant started() {
        return started;
    }

    private GatewayAdminContext adminContext() {
        return new GatewayAdminContext(this, registry, () -> xds == null ? List.of() : xds.resources(), discovery);
    }

    /** The gateway's version, from the jar's manifest. */
    public static String version() {
        String version = Gateway.class.getPackage().getImplementationVersion();
        return version == null ? "development build" : version;
    }
}
