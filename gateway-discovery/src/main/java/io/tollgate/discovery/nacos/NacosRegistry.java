package io.tollgate.discovery.nacos;

import com.alibaba.nacos.api.PropertyKeyConst;
import com.alibaba.nacos.api.exception.NacosException;
import com.alibaba.nacos.api.naming.NamingFactory;
import com.alibaba.nacos.api.naming.NamingService;
import io.tollgate.core.config.NacosSettings;
import io.tollgate.core.config.ProviderQueryConfig;
import io.tollgate.core.config.RegistryConfig;
import io.tollgate.discovery.ProviderLayout;
import io.tollgate.discovery.ProviderListener;
import io.tollgate.discovery.RegistryClient;
import io.tollgate.discovery.RegistryStatus;
import io.tollgate.discovery.Subscription;
import io.tollgate.discovery.dubbo.DubboLayout;
import io.tollgate.discovery.sofa.SofaLayout;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Nacos cluster read through the official nacos-client: one {@link NamingService} (a gRPC
 * connection the client keeps, reconnects and resubscribes by itself), one {@link NacosWatch} per
 * subscribed service. Every call into the client, which may wait on the servers for up to the
 * request timeout, runs on this registry's own worker thread, never on the control thread or an
 * event loop; what the watches read goes to the control executor. While the servers are
 * unreachable the subscribers keep the providers they were told of last.
 */
public final class NacosRegistry implements RegistryClient {

    private static final Logger log = LoggerFactory.getLogger(NacosRegistry.class);
    /** First wait before a failed subscription is tried again; doubles up to {@link #MAX_RETRY}. */
    private static final Duration FIRST_RETRY = Duration.ofMillis(500);
    private static final Duration MAX_RETRY = Duration.ofSeconds(30);
    /** How often the client's connection state is looked at, to log its changes. */
    private static final Duration STATE_CHECK = Duration.ofSeconds(1);
    private static final String UP = "UP";

    private final RegistryConfig config;
    private final NacosSettings settings;
    private final Executor control;
    /** Dubbo's and SOFARPC's warmups are computed with it (ms since the epoch). */
    private final LongSupplier clock;
    private final ScheduledExecutorService worker;
    private final AtomicInteger subscriptions = new AtomicInteger();
    private final AtomicLong events = new AtomicLong();
    private final AtomicLong errors = new AtomicLong();
    private volatile long lastEventMillis;
    private volatile String lastError;
    /** Made on the worker thread at the first use; null until then. */
    private volatile NamingService naming;
    /** Whether the client was connected at the last state check; worker thread only. */
    private boolean wasUp;

    private NacosRegistry(RegistryConfig config, Executor control, LongSupplier clock) {
        this.config = config;
        this.clock = clock;
        this.settings = config.nacos().orElseThrow(() -> new IllegalArgumentException(
                "registry " + config.name() + " has no Nacos settings"));
        this.control = control;
        this.worker = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread thread = new Thread(r, "tollgate-nacos-" + config.name());
            thread.setDaemon(true);
            return thread;
        });
    }

    /**
     * Connects to {@code config}'s servers in the background and returns at once; listeners of
     * its subscriptions run on {@code control}.
     */
    public static NacosRegistry start(RegistryConfig config, Executor control) {
        return start(config, control, System::currentTimeMillis);
    }

    /** As {@link #start(RegistryConfig, Executor)}, warmups computed with {@code clock} (ms since the epoch). */
    static NacosRegistry start(RegistryConfig config, Executor control, LongSupplier clock) {
        NacosRegistry registry = new NacosRegistry(config, control, clock);
        registry.worker.execute(registry::connect);
        long period = STATE_CHECK.toMillis();
        registry.worker.scheduleWithFixedDelay(registry::checkState, period, period, TimeUnit.MILLISECONDS);
        return registry;
    }

    private void connect() {
        try {
            naming();
        } catch (NacosException e) {
            failed("connecting to " + config.ensemble(), e);
        }
    }

    /** The client, made at the first call; worker thread only. */
    NamingService naming() throws NacosException {
        NamingService current = naming;
        if (current == null) {
            current = NamingFactory.createNamingService(properties());
            naming = current;
        }
        return current;
    }

    /** nacos-client's settings for this registry. */
    Properties properties() {
        Properties properties = new Properties();
        properties.setProperty(PropertyKeyConst.SERVER_ADDR, config.ensemble());
        if (!settings.namespace().isEmpty()) {
            properties.setProperty(PropertyKeyConst.NAMESPACE, settings.namespace());
        }
        config.auth().ifPresent(auth -> {
            properties.setProperty(PropertyKeyConst.USERNAME, auth.username());
            properties.setProperty(PropertyKeyConst.PASSWORD, auth.password());
        });
        String requestMillis = Long.toString(settings.requestTimeout().toMillis());
        // the naming requests' own bound, and the gRPC client's for any request
        properties.setProperty("namingRequestTimeout", requestMillis);
        properties.setProperty("nacos.remote.client.grpc.timeout", requestMillis);
        properties.setProperty("nacos.remote.client.grpc.server.check.timeout",
                Long.toString(config.connectionTimeout().toMillis()));
        return properties;
    }

    private void checkState() {
        NamingService current = naming;
        boolean up = current != null && UP.equals(current.getServerStatus());
        if (up != wasUp) {
            wasUp = up;
            if (up) {
                log.info("registry {}: connected to Nacos {}", config.name(), config.ensemble());
            } else {
                log.warn("registry {}: disconnected from Nacos {}; serving the providers last known", config.name(),
                        config.ensemble());
            }
        }
    }

    @Override
    public Subscription subscribe(ProviderQueryConfig query, ProviderListener listener) {
        subscriptions.incrementAndGet();
        return new NacosWatch(this, query, layout(query.kind()), control, listener).start();
    }

    private ProviderLayout layout(ProviderQueryConfig.Kind kind) {
        return switch (kind) {
            case DUBBO -> new DubboLayout(clock);
            case SOFA -> new SofaLayout(clock);
        };
    }

    /** The group every service is read in. */
    String group() {
        return settings.group();
    }

    /** Runs {@code task} on the worker thread after {@code delay}; nothing once closed. */
    void later(Runnable task, Duration delay) {
        try {
            worker.schedule(task, delay.toMillis(), TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
            log.debug("registry {} closed: {} not run", config.name(), task);
        }
    }

    /** How long to wait before the {@code failures}-th try again in a row. */
    static Duration retryAfter(int failures) {
        Duration wait = FIRST_RETRY.multipliedBy(1L << Math.min(failures - 1, 16));
        return wait.compareTo(MAX_RETRY) > 0 ? MAX_RETRY : wait;
    }

    void event() {
        events.incrementAndGet();
        lastEventMillis = System.currentTimeMillis();
    }

    /** Counts an error and keeps it as the last one. */
    void failed(String what, Exception e) {
        errors.incrementAndGet();
        String message = what + ": " + (e instanceof NacosException nacos && nacos.getErrMsg() != null
                ? nacos.getErrMsg() : e.toString());
        lastError = message;
        log.warn("registry {}: {}", config.name(), message);
    }

    void unsubscribed() {
        subscriptions.decrementAndGet();
    }

    @Override
    public RegistryStatus status() {
        NamingService current = naming;
        String state = current == null ? "connecting" : current.getServerStatus().toLowerCase();
        long last = lastEventMillis;
        return new RegistryStatus(config.name(), config.type(), config.ensemble(), "up".equals(state), state,
                subscriptions.get(), events.get(), errors.get(),
                last == 0 ? Optional.empty() : Optional.of(Instant.ofEpochMilli(last)), 0, 0,
                Optional.ofNullable(lastError));
    }

    @Override
    public void close() {
        worker.shutdownNow();
        try {
            worker.awaitTermination(settings.requestTimeout().toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        NamingService current = naming;
        if (current != null) {
            try {
                current.shutDown();
            } catch (NacosException e) {
                log.debug("registry {}: closing the Nacos client: {}", config.name(), e.getErrMsg());
            }
        }
    }

    /** Runs {@code task} on the worker thread; nothing once closed. */
    void onWorker(Runnable task) {
        try {
            worker.execute(task);
        } catch (RejectedExecutionException e) {
            log.debug("registry {} closed: {} not run", config.name(), task);
        }
    }

    /** The worker thread, for the client's listeners to be called on. */
    Executor worker() {
        return worker;
    }
}
