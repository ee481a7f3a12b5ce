package io.tollgate.server.rpc;

import io.tollgate.server.testing.FreePort;
import org.apache.dubbo.config.ProtocolConfig;
import org.apache.dubbo.config.RegistryConfig;
import org.apache.dubbo.config.ServiceConfig;
import org.apache.dubbo.remoting.Channel;
import org.apache.dubbo.remoting.RemotingServer;
import org.apache.dubbo.remoting.exchange.PortUnificationExchanger;
import org.apache.dubbo.rpc.ProtocolServer;
import org.apache.dubbo.rpc.protocol.dubbo.DubboProtocol;

/**
 * A real Apache Dubbo 3.3 provider of {@link DubboEchoService} (dubbo protocol, or Triple with
 * {@code protocol("tri")}; hessian2, no registry unless {@code registry(..)}) in the test JVM, in a Dubbo runtime of its own, so that a test runs several and
 * closes each. Dubbo listens on every interface of the chosen port: it binds the wildcard address
 * whenever the configured host is a loopback one.
 *
 * <pre>{@code
 * try (DubboProvider provider = DubboProvider.named("a").group("blue").version("1.0").start()) {
 *     int port = provider.port();
 * }
 * }</pre>
 */
public final class DubboProvider implements AutoCloseable {

    private final DubboRuntime runtime;
    private final DubboEchoServiceImpl service;
    private final int port;
    private boolean stopped;

    private DubboProvider(Builder builder) {
        this.service = new DubboEchoServiceImpl(builder.name);
        // Chosen here: Dubbo takes port 0 for its default 20880, and a random port (-1) it picks
        // once per protocol name and then hands to every provider of the JVM.
        this.port = builder.port != 0 ? builder.port : FreePort.pick();
        this.runtime = new DubboRuntime(builder.application != null ? builder.application : "provider-" + builder.name,
                builder.registerMode, builder.metadataType);
        try {
            ProtocolConfig protocol = new ProtocolConfig(runtime.application(), builder.protocol, port);
            protocol.setHost("127.0.0.1");
            if (builder.preferSerialization == null) {
                protocol.setSerialization("hessian2");
            } else if (!builder.preferSerialization.isEmpty()) {
                protocol.setPreferSerialization(builder.preferSerialization);
            }
            // Dubbo's default 200 threads with no queue refuse a burst of 1000 calls as "thread pool
            // exhausted"; threads are made only as calls need them.
            protocol.setThreads(2000);
            ServiceConfig<DubboEchoService> config = new ServiceConfig<>(runtime.application().getDefaultModule());
            config.setInterface(DubboEchoService.class);
            config.setRef(service);
            config.setGroup(builder.group);
            config.setVersion(builder.version);
            config.setWarmup(builder.warmupMillis);
            if (builder.registry != null) {
                RegistryConfig registry = new RegistryConfig(runtime.application());
                registry.setAddress(builder.registry);
                registry.setUseAsConfigCenter(false);
                runtime.bootstrap().registry(registry);
            }
            runtime.bootstrap().protocol(protocol).service(config).start();
        } catch (RuntimeException e) {
            runtime.close();
            throw e;
        }
    }

    /** Starts describing a provider whose {@link DubboEchoService#tagged} answers start with {@code name}. */
    public static Builder named(String name) {
        return new Builder(name);
    }

    /** The port the provider listens on. */
    public int port() {
        return port;
    }

    /** The service object, to read its name and how many calls reached it. */
    public DubboEchoServiceImpl service() {
        return service;
    }

    /**
     * Closes the listening socket and every connection at once, with no read-only notice and no
     * wait for calls in flight: consumers see their connection drop as when the process dies.
     * The runtime stays until {@link #close}.
     */
    public void kill() {
        for (ProtocolServer server : DubboProtocol.getDubboProtocol(runtime.framework()).getServers()) {
            // Connections first: closing the server interrupts the provider's threads before it
            // closes them, and a call cut short would still get its answer out.
            server.getRemotingServer().getChannels().forEach(Channel::close);
            server.close();
        }
        for (RemotingServer server : runtime.tripleServers()) {
            server.getChannels().forEach(Channel::close);
            server.close();
            // Out of Dubbo's JVM-wide map too, or a provider started later on this port would
            // find this closed server there and never listen.
            PortUnificationExchanger.getServers().values().remove(server);
        }
    }

    /**
     * Stops the provider as a Dubbo application shuts down: unregisters it from its registry, then
     * lets the calls in flight finish before closing (Dubbo's graceful shutdown).
     */
    public void shutDownGracefully() {
        stopped = true;
        runtime.close();
    }

    /** Kills the provider if it still runs, then stops its Dubbo runtime. */
    @Override
    public void close() {
        if (!stopped) {
            stopped = true;
            kill();
            runtime.close();
        }
    }


    /** What {@link #start} sets up: a name, and optionally a protocol, a port, a group and a version. */
    public static final class Builder extends DubboServiceBuilder<Builder> {
        private final String name;
        private int port;
        private String registry;
        private String registerMode;
        private String application;
        private String metadataType;
        private Integer warmupMillis;
        private String preferSerialization;

        private Builder(String name) {
            this.name = name;
        }


        /** Listens on {@code port}; without it, on a free port. */
        public Builder port(int port) {
            this.port = port;
            return this;
        }



        /**
         * Registers the provider in the registry at {@code address} (e.g. {@code zookeeper://127.0.0.1:2181}),
         * which doubles as its metadata report.
         */
        public Builder registry(String address) {
            this.registry = address;
            return this;
        }

        /** Registers as Dubbo's {@code register-mode} says: {@code interface}, {@code instance} or {@code all}. */
        public Builder registerMode(String mode) {
            this.registerMode = mode;
            return this;
        }

        /** Names the Dubbo application (what application-level registration is keyed by). */
        public Builder application(String name) {
            this.application = name;
            return this;
        }

        /**
         * Keeps the application's MetadataInfo as Dubbo's {@code metadata-type} says: {@code local}
         * (the default: served by the provider's own MetadataService) or {@code remote} (written to
         * the registry, which doubles as metadata report).
         */
        public Builder metadataType(String type) {
            this.metadataType = type;
            return this;
        }

        /**
         * Registers the provider with Dubbo's {@code warmup} (ms over which consumers ramp its weight
         * up from its start; Dubbo's 10 minutes unless set).
         */
        public Builder warmup(int millis) {
            this.warmupMillis = millis;
            return this;
        }

        /**
         * Leaves the serialization to Dubbo and registers {@code prefer.serialization} as given
         * ({@code ""}: Dubbo's default, {@code hessian2,fastjson2} in 3.3), for consumers to
         * negotiate from; without it the provider is set to hessian2.
         */
        public Builder preferSerialization(String serializations) {
            this.preferSerialization = serializations;
            return this;
        }

        /** Starts the provider; it answers once this returns. */
        public DubboProvider start() {
            return new DubboProvider(this);
        }
    }
}
