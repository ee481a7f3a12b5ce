package io.tollgate.xds.transport;

import com.google.protobuf.Struct;
import com.google.rpc.Code;
import com.google.rpc.Status;
import io.envoyproxy.envoy.config.core.v3.Locality;
import io.envoyproxy.envoy.config.core.v3.Node;
import io.grpc.ManagedChannel;
import io.grpc.netty.GrpcSslContexts;
import io.grpc.netty.NettyChannelBuilder;
import io.micrometer.core.instrument.MeterRegistry;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.util.InsecureTrustManagerFactory;
import io.tollgate.core.config.ConfigException;
import io.tollgate.core.config.GatewayConfig;
import io.tollgate.core.config.UpstreamTlsConfig;
import io.tollgate.core.config.XdsConfig;
import io.tollgate.core.config.XdsResourceStatus;
import io.tollgate.core.extension.ExtensionRegistry;
import io.tollgate.xds.translation.ConfigComposer;
import io.tollgate.xds.translation.ResourceTranslation;
import io.tollgate.xds.translation.ResourceType;
import io.tollgate.xds.translation.SecretFiles;
import io.tollgate.xds.translation.XdsRejection;
import io.tollgate.xds.translation.XdsResources;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The gateway as an Envoy v3 ADS client: one gRPC stream to the control plane carries clusters,
 * endpoints, listeners, routes and secrets, state of the world or incremental as the bootstrap's
 * {@code api_type} says (the two differ only in their {@link AdsStream}). Every response is
 * translated and validated by the configuration file's rules, composed with the file's listeners
 * and clusters, applied through {@link ConfigSink} and then acknowledged (ACK); a response that
 * cannot be applied is refused (NACK, with an {@code error_detail} naming the resource and the
 * field) and the last good configuration keeps serving. A broken stream is opened again after an exponential backoff with
 * jitter, serving the last good configuration meanwhile.
 *
 * <p>All of its work (the stream's callbacks, translation, composition and the sink) runs on one
 * control thread, {@code tollgate-xds}, never on an event loop.
 */
public final class XdsClient implements AutoCloseable {

    /** Applies a configuration the way a reload does: validated whole, or rejected whole. */
    @FunctionalInterface
    public interface ConfigSink {

        /**
         * Applies {@code config}; called on the control thread. Returns what completes once the
         * hosts it health checks for the first time had their first verdicts.
         *
         * @throws ConfigException when it cannot be applied; the running configuration stays
         */
        CompletableFuture<Void> apply(GatewayConfig config);
    }

    private static final Logger log = LoggerFactory.getLogger(XdsClient.class);

    private final XdsConfig settings;
    private final Node node;
    private final ConfigSink sink;
    private final Runnable certificatesChanged;
    private final SecretFiles secretFiles = new SecretFiles();
    private final ResourceTranslation translation;
    private final ScheduledExecutorService control;
    private final ManagedChannel channel;
    private final Backoff reconnect;
    private final XdsMeters meters;
    private final Map<ResourceType, TypeState> types = new EnumMap<>(ResourceType.class);
    private final ResourceStatuses statuses = new ResourceStatuses();
    private final Set<String> givenUp = new HashSet<>();
    private GatewayConfig bootstrap;
    private ConfigComposer composer;
    private XdsResources resources = XdsResources.EMPTY;
    private GatewayConfig served;
    private AdsStream stream;
    private long streamId;
    private volatile boolean closed;
    private volatile boolean initialized;

    /** What the client knows of one resource type on the current stream. */
    private static final class TypeState {
        String acceptedVersion = "";
        String nonce = "";
        List<String> names = List.of();
        /** Whether a first response was accepted, or (wildcard types) its initial fetch timed out. */
        boolean received;
        List<Object> rejected;
        Backoff repeatedRejection;
    }

    private XdsClient(GatewayConfig bootstrap, ExtensionRegistry extensions, MeterRegistry registry, ConfigSink sink,
            Runnable certificatesChanged) {
        this.settings = bootstrap.xds().orElseThrow(() -> new IllegalArgumentException("bootstrap: no dynamic_resources"));
        this.bootstrap = bootstrap;
        this.served = bootstrap;
        this.composer = new ConfigComposer(bootstrap, secretFiles, extensions);
        this.node = node(settings.node());
        this.sink = sink;
        this.certificatesChanged = certificatesChanged;
        this.translation = new ResourceTranslation(extensions, secretFiles, settings.sdsFiles());
        ScheduledThreadPoolExecutor controlThread = new ScheduledThreadPoolExecutor(1, task -> {
            Thread thread = new Thread(task, "tollgate-xds");
            thread.setDaemon(true);
            return thread;
        });
        // closing runs what is queued (gRPC's last deliveries) but not retries and timers still waiting
        controlThread.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
        this.control = controlThread;
        this.channel = channel(settings, control);
        this.reconnect = new Backoff(settings.initialBackoff(), settings.maxBackoff());
        this.meters = new XdsMeters(registry);
        for (ResourceType type : ResourceType.values()) {
            TypeState state = new TypeState();
            state.repeatedRejection = new Backoff(settings.initialBackoff(), settings.maxBackoff());
            types.put(type, state);
        }
    }

    /**
     * Connects to the control plane of {@code bootstrap}'s {@code dynamic_resources}; the
     * configuration being served MUST be {@code bootstrap}. Returns at once: what arrives is
     * applied through {@code sink}; ACKs, NACKs and broken streams are counted in {@code registry}.
     * A new version of an SDS secret in use replaces its files without changing the configuration:
     * {@code certificatesChanged} then runs (on the control thread) so that TLS contexts reading
     * those files are rebuilt for new handshakes.
     */
    public static XdsClient start(GatewayConfig bootstrap, ExtensionRegistry extensions, MeterRegistry registry,
            ConfigSink sink, Runnable certificatesChanged) {
        XdsClient client = new XdsClient(bootstrap, extensions, registry, sink, certificatesChanged);
        client.control.execute(client::connect);
        for (ResourceType type : ResourceType.values()) {
            if (type.wildcard()) {
                client.control.schedule(() -> client.wildcardFetchTimedOut(type),
                        client.settings.initialFetchTimeout().toNanos(), TimeUnit.NANOSECONDS);
            }
        }
        return client;
    }

    /** Whether the first configuration from the control plane was applied: listeners and clusters, warm. */
    public boolean initialized() {
        return initialized;
    }

    /** Every resource received, with its version, last update and last rejection. */
    public List<XdsResourceStatus> resources() {
        return statuses.published();
    }

    /**
     * Replaces the file's part of the configuration (a reload of the file) and applies it with the
     * dynamic resources; waits for the control thread.
     *
     * @throws ConfigException when the result cannot be applied; nothing changes then
     */
    public void rebase(GatewayConfig file) {
        CompletableFuture<Void> done = CompletableFuture.runAsync(() -> {
            ConfigComposer next = composer.withBootstrap(file);
            ConfigComposer.Composition composition = next.compose(resources);
            CompletableFuture<Void> verdicts = sink.apply(composition.config());
            served = composition.config();
            bootstrap = file;
            composer = next;
            composer.applied(composition);
            awaitVerdicts(composition, verdicts);
        }, control);
        try {
            done.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ConfigException("<root>: interrupted while applying the file with the xDS resources", e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException runtime) {
                throw runtime;
            }
            throw new IllegalStateException(e.getCause());
        }
    }

    @Override
    public void close() {
        closed = true;
        channel.shutdownNow();
        try {
            // The channel terminates through callbacks on the control thread, so that thread stops after
            // it, and without dropping its queue: gRPC's queued deliveries close the messages a cancelled
            // stream still held, whose network buffers would leak if those tasks never ran.
            channel.awaitTermination(10, TimeUnit.SECONDS);
            control.shutdown();
            if (!control.awaitTermination(5, TimeUnit.SECONDS)) {
                control.shutdownNow();
            }
            secretFiles.close();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The channel to the control plane, encrypted when {@code tls} says so; callbacks run on {@code control}. */
    private static ManagedChannel channel(XdsConfig settings, ScheduledExecutorService control) {
        NettyChannelBuilder builder = NettyChannelBuilder.forAddress(settings.address(), settings.port()).executor(control)
                .maxInboundMessageSize(settings.maxMessageBytes());
        if (settings.tls().isEmpty()) {
            return builder.usePlaintext().build();
        }
        UpstreamTlsConfig tls = settings.tls().get();
        SslContextBuilder ssl = GrpcSslContexts.forClient();
        if (tls.caFile().isPresent()) {
            ssl.trustManager(tls.caFile().get().toFile());
        } else {
            ssl.trustManager(InsecureTrustManagerFactory.INSTANCE);
        }
        tls.clientCertificate().ifPresent(c -> ssl.keyManager(c.certChainFile().toFile(), c.privateKeyFile().toFile()));
        tls.sni().ifPresent(builder::overrideAuthority);
        try {
            return builder.sslContext(ssl.build()).build();
        } catch (SSLException e) {
            throw new ConfigException("dynamic_resources.ads_config.tls: cannot be used: " + e.getMessage(), e);
        }
    }

    private void connect() {
        if (closed) {
            return;
        }
        long id = ++streamId;
        stream = AdsStream.open(settings.apiType(), channel, node, new StreamEvents(id));
        log.info("xDS stream {} ({}) to {}:{} opened", id, settings.apiType(), settings.address(), settings.port());
        for (ResourceType type : ResourceType.values()) {
            TypeState state = types.get(type);
            state.nonce = "";
            if (type.wildcard() || !state.names.isEmpty()) {
                stream.subscribe(type, state.names, state.acceptedVersion, statuses.held(type, resources));
            }
        }
    }

    private void streamEnded(long id, Throwable cause) {
        if (id != streamId || closed) {
            return;
        }
        stream = null;
        meters.streamEnded();
        long delay = reconnect.nextDelayNanos();
        log.warn("xDS stream {} to {}:{} ended ({}); serving the last good configuration, reconnecting in {} ms", id,
                settings.address(), settings.port(), cause == null ? "closed by the server" : cause.getMessage(),
                TimeUnit.NANOSECONDS.toMillis(delay));
        control.schedule(this::connect, delay, TimeUnit.NANOSECONDS);
    }

    /**
     * Applies or refuses one response. The reconnection backoff starts over only once the response
     * was processed (ACKed, or NACKed cleanly): one that breaks the stream each time it arrives
     * (a failure past the point where it was applied, which gRPC turns into a cancelled stream)
     * meets a growing backoff instead of a reconnection at the initial backoff forever.
     */
    private void received(long id, XdsUpdate update) {
        if (id != streamId || closed) {
            return;
        }
        long receipt = System.nanoTime();
        ResourceType type = update.type();
        TypeState state = types.get(type);
        state.nonce = update.nonce();
        XdsResources candidate;
        ConfigComposer.Composition composition;
        List<String> names = new ArrayList<>();
        Set<String> gone = gone(update);
        boolean rotated;
        CompletableFuture<Void> verdicts = null;
        try {
            candidate = translation.apply(resources, update, bootstrap, names);
            Set<String> givenUpAfter = new HashSet<>(givenUp);
            givenUpAfter.addAll(gone);
            composer.givenUp(givenUpAfter);
            composition = composer.compose(candidate);
            rotated = secretFiles.publish(candidate.secrets());
            if (!composition.config().equals(served)) {
                verdicts = apply(type, composition);
            }
        } catch (XdsRejection e) {
            composer.givenUp(givenUp);
            secretFiles.publish(resources.secrets());
            reject(update, e);
            reconnect.reset();
            return;
        } catch (RuntimeException | Error e) {
            // A bug of ours, or an Error of what applying calls (a class or native library that
            // cannot load): refuse the response, keep serving, keep the stream. Let through, an
            // Error would end the stream, and the same response would end the next one.
            log.error("xDS {} version {} could not be applied", type.kind(), update.version(), e);
            composer.givenUp(givenUp);
            secretFiles.publish(resources.secrets());
            reject(update, new XdsRejection(type.kind() + ": cannot be applied: " + e));
            reconnect.reset();
            return;
        }
        resources = candidate;
        served = composition.config();
        givenUp.addAll(gone);
        composer.applied(composition);
        state.acceptedVersion = update.version();
        state.received = true;
        state.rejected = null;
        state.repeatedRejection.reset();
        statuses.accepted(update, resources.names(type), names);
        ready(composition);
        if (verdicts != null) {
            awaitVerdicts(composition, verdicts);
        }
        meters.ack(type, System.nanoTime() - receipt);
        stream.ack(update);
        subscribe(ResourceType.ROUTE, resources.rdsNames());
        subscribe(ResourceType.ENDPOINT, resources.edsNames());
        translation.retainEndpoints(resources.edsNames());
        subscribe(ResourceType.SECRET, resources.sdsNames());
        if (rotated) {
            certificatesChanged.run();
        }
        reconnect.reset();
    }

    /**
     * The resources a control plane removed that the gateway still asks for by name (RDS, EDS,
     * SDS): they do not exist, and stop holding warming as if their initial_fetch_timeout had
     * passed (keys {@code Kind/name}). A removed listener or cluster is simply gone.
     */
    private Set<String> gone(XdsUpdate update) {
        Set<String> gone = new HashSet<>();
        if (!update.type().wildcard()) {
            update.removed().stream().filter(types.get(update.type()).names::contains)
                    .forEach(name -> gone.add(ResourceStatuses.key(update.type(), name)));
        }
        return gone;
    }

    private CompletableFuture<Void> apply(ResourceType type, ConfigComposer.Composition composition) {
        try {
            return sink.apply(composition.config());
        } catch (ConfigException | IllegalArgumentException e) {
            throw new XdsRejection(type.kind() + ": the configuration it makes cannot be applied: " + e.getMessage());
        }
    }

    /**
     * Asks for {@code names} of {@code type} when they changed; resources no longer named are
     * forgotten. A name asked for the first time stops holding warming if it has not arrived
     * after its {@code initial_fetch_timeout}.
     */
    private void subscribe(ResourceType type, List<String> names) {
        TypeState state = types.get(type);
        if (state.names.equals(names)) {
            return;
        }
        for (String name : names) {
            Duration timeout = resources.initialFetchTimeout(type, name);
            if (!state.names.contains(name) && !timeout.isZero()) {
                control.schedule(() -> initialFetchTimedOut(type, name), timeout.toNanos(), TimeUnit.NANOSECONDS);
            }
        }
        givenUp.removeIf(key -> key.startsWith(type.kind() + "/") && !names.contains(key.substring(type.kind().length() + 1)));
        composer.givenUp(givenUp);
        statuses.forgetBut(type, names);
        state.names = names;
        if (stream != null) {
            stream.subscribe(type, names, state.acceptedVersion, statuses.held(type, resources));
        }
    }

    /** Stops waiting for {@code name} of {@code type} if it is still asked for and has not arrived. */
    private void initialFetchTimedOut(ResourceType type, String name) {
        if (closed || !types.get(type).names.contains(name) || resources.has(type, name)) {
            return;
        }
        log.warn("xDS {} '{}' did not arrive within its initial_fetch_timeout: it no longer holds warming", type.kind(),
                name);
        givenUp.add(ResourceStatuses.key(type, name));
        composer.givenUp(givenUp);
        recompose();
    }

    /** Stops holding readiness for the first response of wildcard {@code type} if none came. */
    private void wildcardFetchTimedOut(ResourceType type) {
        TypeState state = types.get(type);
        if (closed || state.received) {
            return;
        }
        log.warn("xDS: no {} arrived within {} ms (the initial_fetch_timeout): readiness no longer waits for them",
                type.kind(), settings.initialFetchTimeout().toMillis());
        state.received = true;
        recompose();
    }

    /** Serves the accepted resources again, after what may be served changed without a response. */
    private void recompose() {
        ConfigComposer.Composition composition = composer.compose(resources);
        CompletableFuture<Void> verdicts = null;
        if (!composition.config().equals(served)) {
            try {
                verdicts = sink.apply(composition.config());
            } catch (ConfigException | IllegalArgumentException e) {
                log.warn("xDS: the configuration cannot be applied, still serving the last good one: {}", e.getMessage());
                return;
            }
            served = composition.config();
        }
        composer.applied(composition);
        ready(composition);
        if (verdicts != null) {
            awaitVerdicts(composition, verdicts);
        }
    }

    /**
     * Once the hosts of the clusters served for the first time with health checks had their first
     * verdicts (or twice the longest check timeout passed), lets routes switch to them.
     */
    private void awaitVerdicts(ConfigComposer.Composition composition, CompletableFuture<Void> verdicts) {
        List<String> names = composition.awaitingVerdicts();
        if (names.isEmpty()) {
            return;
        }
        long limitNanos = 2 * names.stream().map(composition.clusters()::get)
                .flatMap(c -> c.healthCheck().stream()).mapToLong(h -> h.timeout().toNanos()).max().orElse(0)
                + TimeUnit.SECONDS.toNanos(1);
        verdicts.completeOnTimeout(null, limitNanos, TimeUnit.NANOSECONDS).whenCompleteAsync((done, failure) -> {
            if (!closed) {
                composer.firstVerdicts(names);
                recompose();
            }
        }, control);
    }

    private void reject(XdsUpdate update, XdsRejection rejection) {
        ResourceType type = update.type();
        TypeState state = types.get(type);
        String detail = rejection.getMessage();
        meters.nack(type);
        statuses.nacked(type, rejection.resource(), detail);
        log.warn("xDS {} version {} rejected (NACK), still serving version {}: {}", type.kind(),
                update.version(), state.acceptedVersion, detail);
        Status error = Status.newBuilder().setCode(Code.INVALID_ARGUMENT_VALUE).setMessage(detail).build();
        boolean repeated = update.fingerprint().equals(state.rejected);
        state.rejected = update.fingerprint();
        if (!repeated) {
            state.repeatedRejection.reset();
            stream.nack(update, state.acceptedVersion, error);
            return;
        }
        // A control plane that sends the refused version again at once would spin with us: answer it later.
        long id = streamId;
        String nonce = state.nonce;
        control.schedule(() -> {
            if (id == streamId && stream != null && nonce.equals(state.nonce)) {
                stream.nack(update, state.acceptedVersion, error);
            }
        }, state.repeatedRejection.nextDelayNanos(), TimeUnit.NANOSECONDS);
    }

    /** Marks the client initialized once clusters and listeners arrived and nothing holds warming. */
    private void ready(ConfigComposer.Composition composition) {
        if (!initialized && types.get(ResourceType.CLUSTER).received && types.get(ResourceType.LISTENER).received
                && composition.warming().isEmpty()) {
            initialized = true;
            log.info("first xDS configuration applied");
        }
    }

    private static Node node(XdsConfig.Node node) {
        Struct metadata = NodeMetadata.struct(node.metadata());
        return Node.newBuilder().setId(node.id()).setCluster(node.cluster())
                .setLocality(Locality.newBuilder().setRegion(node.locality().region()).setZone(node.locality().zone())
                        .setSubZone(node.locality().subZone()))
                .setMetadata(metadata).setUserAgentName("tollgate").build();
    }

    /** What one stream hands back, on the control thread (the channel's executor); ignored once it is not the current one. */
    private final class StreamEvents implements AdsStream.Events {
        private final long id;

        StreamEvents(long id) {
            this.id = id;
        }

        @Override
        public void received(XdsUpdate update) {
            XdsClient.this.received(id, update);
        }

        @Override
        public void ended(Throwable cause) {
            streamEnded(id, cause);
        }
    }
}
