package io.tollgate.server.rpc;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import org.apache.dubbo.config.ReferenceConfig;
import org.apache.dubbo.config.RegistryConfig;
import org.apache.dubbo.rpc.RpcContext;

/**
 * A real Apache Dubbo 3.3 consumer of {@link DubboEchoService} that calls one address directly,
 * {@code dubbo://127.0.0.1:port} (or {@code tri://} with {@code protocol("tri")}: Triple, HTTP/2 with
 * prior knowledge) of a provider or of the gateway in front of it, with hessian2 and no
 * registry, or, made with {@link #through}, whatever providers a registry lists, with the
 * serialization negotiated from their registrations; in a Dubbo runtime of its own. It never retries a failed call (Dubbo retries twice by
 * default), so what a test counts is what the gateway did.
 *
 * <pre>{@code
 * try (DubboConsumer consumer = DubboConsumer.to(port).timeout(Duration.ofMillis(500)).connect()) {
 *     consumer.service().echo("hi");
 * }
 * }</pre>
 */
public final class DubboConsumer implements AutoCloseable {

    private final DubboRuntime runtime;
    private final DubboEchoService service;
    private final boolean async;

    private DubboConsumer(Builder builder) {
        this.async = builder.async;
        this.runtime = new DubboRuntime("consumer");
        try {
            ReferenceConfig<DubboEchoService> config = new ReferenceConfig<>(runtime.application().getDefaultModule());
            config.setInterface(DubboEchoService.class);
            if (builder.registry == null) {
                config.setUrl(builder.protocol + "://127.0.0.1:" + builder.port);
                config.setParameters(Map.of("serialization", "hessian2"));
            } else {
                // finds its providers' addresses and URL parameters in the registry, at interface level,
                // and negotiates the serialization from them as Dubbo does by default
                runtime.application().modelEnvironment().updateAppConfigMap(
                        Map.of("dubbo.application.service-discovery.migration", "FORCE_INTERFACE"));
                RegistryConfig registry = new RegistryConfig(runtime.application());
                registry.setAddress(builder.registry);
                registry.setGroup(builder.registryGroup);
                registry.setUseAsConfigCenter(false);
                registry.setUseAsMetadataCenter(false);
                config.setRegistry(registry);
            }
            config.setTimeout((int) builder.timeout.toMillis());
            config.setRetries(0);
            config.setGroup(builder.group);
            config.setVersion(builder.version);
            config.setAsync(builder.async);
            runtime.bootstrap().reference(config).start();
            this.service = config.get();
        } catch (RuntimeException e) {
            runtime.close();
            throw e;
        }
    }

    /** Starts describing a consumer of {@code dubbo://127.0.0.1:port}. */
    public static Builder to(int port) {
        return new Builder(port);
    }

    /**
     * Starts describing a consumer that finds its providers in the registry at {@code address}
     * ({@code zookeeper://host:port}) under root node {@code /group} (Dubbo's registry group), with
     * Dubbo's default serialization negotiation.
     */
    public static Builder through(String address, String group) {
        Builder builder = new Builder(0);
        builder.registry = address;
        builder.registryGroup = group;
        return builder;
    }

    /**
     * The proxy. On an {@link Builder#async() async} consumer its methods return at once, and
     * with {@code null}, apart from {@link DubboEchoService#echoAsync}: use {@link #async} there.
     */
    public DubboEchoService service() {
        return service;
    }

    /**
     * On an async consumer, makes the call {@code call} makes on the proxy and returns its
     * answer's future, e.g. {@code consumer.async(s -> s.slow("x", 5000))}.
     */
    public <T> CompletableFuture<T> async(Function<DubboEchoService, T> call) {
        if (!async) {
            throw new IllegalStateException("not an async consumer: build it with async()");
        }
        call.apply(service);
        return RpcContext.getServiceContext().getCompletableFuture();
    }

    /** Disconnects and stops the consumer's Dubbo runtime. */
    @Override
    public void close() {
        runtime.close();
    }

    /** What {@link #connect} sets up: the port, and optionally protocol, timeout, group, version, async. */
    public static final class Builder extends DubboServiceBuilder<Builder> {
        private final int port;
        private Duration timeout = Duration.ofSeconds(5);
        private boolean async;
        private String registry;
        private String registryGroup;

        private Builder(int port) {
            this.port = port;
        }


        /** How long a call may take before the consumer gives up on it; 5 s unless set. */
        public Builder timeout(Duration timeout) {
            this.timeout = timeout;
            return this;
        }



        /** Makes every call asynchronous: see {@link DubboConsumer#async}. */
        public Builder async() {
            this.async = true;
            return this;
        }

        /** Connects to the port; fails if nothing answers there. */
        public DubboConsumer connect() {
            return new DubboConsumer(this);
        }
    }
}
