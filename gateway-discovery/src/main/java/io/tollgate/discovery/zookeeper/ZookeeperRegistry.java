package io.tollgate.discovery.zookeeper;

import io.tollgate.core.config.ProviderQueryConfig;
import io.tollgate.core.config.RegistryConfig;
import io.tollgate.discovery.ProviderLayout;
import io.tollgate.discovery.ProviderListener;
import io.tollgate.discovery.RegistryClient;
import io.tollgate.discovery.RegistryStatus;
import io.tollgate.discovery.Subscription;
import io.tollgate.discovery.dubbo.DubboLayout;
import io.tollgate.discovery.sofa.SofaLayout;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A ZooKeeper ensemble read through Apache Curator: one session, one {@link ProvidersWatch} per
 * subscribed service. Curator reconnects by itself, with its retry policy's backoff between
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
    private volatile ConnectionState state = ConnectionState.LOST;

    private ZookeeperRegistry(RegistryConfig config, Executor control) {
        this.config = config;
        this.control = control;
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
    }

    /**
     * Connects to {@code config}'s ensemble in the background and returns at once; listeners of
     * its subscriptions run on {@code control}.
     */
    public static ZookeeperRegistry start(RegistryConfig config, Executor control) {
        ZookeeperRegistry registry = new ZookeeperRegistry(config, control);
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
        return new ProvidersWatch(client, query, layout(query.kind()), control, listener, counters).start();
    }

    private static ProviderLayout layout(ProviderQueryConfig.Kind kind) {
        return switch (kind) {
            case DUBBO -> new DubboLayout();
            case SOFA -> new SofaLayout();
        };
    }

    @Override
    public RegistryStatus status() {
        long last = counters.lastEventMillis;
        return new RegistryStatus(config.name(), config.type(), config.ensemble(), state.isConnected(),
                state.name().toLowerCase(), counters.subscriptions.get(), counters.events.get(), counters.errors.get(),
                last == 0 ? Optional.empty() : Optional.of(Instant.ofEpochMilli(last)));
    }

    @Override
    public void close() {
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
