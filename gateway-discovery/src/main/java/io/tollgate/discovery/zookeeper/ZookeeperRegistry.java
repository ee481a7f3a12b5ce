package io.tollgate.discovery.zookeeper;

import io.tollgate.core.config.ProviderQueryConfig;
import io.tollgate.core.config.RegistryConfig;
import io.tollgate.discovery.ProviderListener;
import io.tollgate.discovery.RegistryClient;
import io.tollgate.discovery.RegistryStatus;
import io.tollgate.discovery.Subscription;
import io.tollgate.discovery.WarmupRamp;
import io.tollgate.discovery.dubbo.DubboLayout;
import io.tollgate.discovery.dubbo.MetadataFetcher;
import io.tollgate.discovery.sofa.SofaLayout;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A ZooKeeper ensemble read through Apache Curator: one session, one {@link ProvidersWatch} per
 * subscribed SOFARPC service, one {@link DubboSubscription} per Dubbo service (interface and
 * application level; the applications' instances are watched once however many services map to
 * them, and their MetadataService is called by one {@link MetadataFetcher} with the registry's
 * {@code connection_timeout} as each call's timeout). Curator reconnects by itself, with its retry policy's backoff between
 * attempts, and its caches read the nodes again once connected; meanwhile subscribers keep what
 * they were told.
 */
public final class ZookeeperRegistry implements RegistryClient {

    private static final Logger log = LoggerFactory.getLogger(ZookeeperRegistry.class);
    /** First wait between retries of an operation; doubles up to {@link #MAX_RETRY_WAIT_MILLIS}. */
    private static final int BASE_RETRY_WAIT_MILLIS = 500;
    private static final int MAX_RETRY_WAIT_MILLIS = 30_000;
    private static final int MAX_RETRIES = 29;

    private final RegistryConfig config;
    private final CuratorFramework client;
    private final Executor control;
    private final Counters counters = new Counters();
    /** The client's own thread: MetadataService calls and warmup ticks, never on the control thread. */
    private final ScheduledExecutorService timers;
    private final MetadataFetcher metadata;
    private final ApplicationWatches applications;
    private final LongSupplier clock;
    private volatile ConnectionState state = ConnectionState.LOST;

    private ZookeeperRegistry(RegistryConfig config, Executor control, LongSupplier clock) {
        this.config = config;
        this.control = control;
        this.clock = clock;
        CuratorFrameworkFactory.Builder builder = CuratorFrameworkFactory.builder()
                .connectString(config.ensemble())
                .sessionTimeoutMs(Math.toIntExact(config.sessionTimeout().toMillis()))
                .connectionTimeoutMs(Math.toIntExact(config.connectionTimeout().toMillis()))
                .retryPolicy(new ExponentialBackoffRetry(BASE_RETRY_WAIT_MILLIS, MAX_RETRIES, MAX_RETRY_WAIT_MILLIS));
        if (!config.root().equals("/")) {
            builder.namespace(config.root().substring(1));
        }
        config.auth().ifPresent(auth -> builder.authorization("digest",
                (auth.username() + ":" + auth.password()).getBytes(StandardCharsets.UTF_8)));
        this.client = builder.build();
        this.timers = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread thread = new Thread(r, "tollgate-registry-" + config.name());
            thread.setDaemon(true);
            return thread;
        });
        this.metadata = new MetadataFetcher(timers, config.connectionTimeout());
        this.applications = new ApplicationWatches(client, control, metadata, counters);
    }

    /**
     * Connects to {@code config}'s ensemble in the background and returns at once; listeners of
     * its subscriptions run on {@code control}.
     */
    public static ZookeeperRegistry start(RegistryConfig config, Executor control) {
        return start(config, control, System::currentTimeMillis);
    }

    /** As {@link #start(RegistryConfig, Executor)}, Dubbo's warmups computed with {@code clock} (ms since the epoch). */
    static ZookeeperRegistry start(RegistryConfig config, Executor control, LongSupplier clock) {
        ZookeeperRegistry registry = new ZookeeperRegistry(config, control, clock);
        registry.client.getConnectionStateListenable().addListener((c, next) -> registry.stateChanged(next));
        registry.client.start();
        return registry;
    }

    private void stateChanged(ConnectionState next) {
        state = next;
        if (next.isConnected()) {
            log.info("registry {}: {} to ZooKeeper {}", config.name(), next.name().toLowerCase(), config.ensemble());
        } else {
            log.warn("registry {}: {} from ZooKeeper {}; serving the providers last known", config.name(),
                    next.name().toLowerCase(), config.ensemble());
        }
    }

    @Override
    public Subscription subscribe(ProviderQueryConfig query, ProviderListener listener) {
        counters.subscriptions.incrementAndGet();
        return switch (query.kind()) {
            case DUBBO -> new DubboSubscription(client, query, new DubboLayout(clock), control, timers, listener,
                    counters, applications).start();
            case SOFA -> new ProvidersWatch(client, query, new SofaLayout(clock), control, listener, counters)
                    .ramping(timer(timers)).start();
        };
    }

    /** {@code timers} as a warmup's timer; a step asked for once the registry is closed is dropped. */
    static WarmupRamp.Timer timer(ScheduledExecutorService timers) {
        return (task, delayMillis) -> {
            try {
                timers.schedule(task, delayMillis, TimeUnit.MILLISECONDS);
            } catch (RejectedExecutionException e) {
                // the registry client is closing
            }
        };
    }

    @Override
    public RegistryStatus status() {
        long last = counters.lastEventMillis;
        return new RegistryStatus(config.name(), config.type(), config.ensemble(), state.isConnected(),
                state.name().toLowerCase(), counters.subscriptions.get(), counters.events.get(), counters.errors.get(),
                last == 0 ? Optional.empty() : Optional.of(Instant.ofEpochMilli(last)), metadata.calls(),
                metadata.failures(), Optional.empty());
    }

    @Override
    public void close() {
        timers.shutdownNow();
        client.close();
    }

    /** What the watches of one registry count, for {@link #status()}. */
    static final class Counters {
        private final AtomicInteger subscriptions = new AtomicInteger();
        private final AtomicLong events = new AtomicLong();
        private final AtomicLong errors = new AtomicLong();
        private volatile long lastEventMillis;

        void event() {
            events.incrementAndGet();
            lastEventMillis = System.currentTimeMillis();
        }

        void error() {
            errors.incrementAndGet();
        }

        void unsubscribed() {
            subscriptions.decrementAndGet();
        }
    }
}
