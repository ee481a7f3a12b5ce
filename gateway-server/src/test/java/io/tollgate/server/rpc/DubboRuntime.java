package io.tollgate.server.rpc;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.dubbo.config.ApplicationConfig;
import org.apache.dubbo.config.bootstrap.DubboBootstrap;
import org.apache.dubbo.remoting.RemotingServer;
import org.apache.dubbo.remoting.exchange.PortUnificationExchanger;
import org.apache.dubbo.rpc.model.ApplicationModel;
import org.apache.dubbo.rpc.model.FrameworkModel;

/**
 * One Dubbo 3.3 runtime of its own: a fresh {@link FrameworkModel} (its own protocol instances,
 * servers, client connections and executors) with one application and its own
 * {@link DubboBootstrap}, so that several providers and consumers live in one JVM and each one
 * goes away whole with {@link #close}. The JVM-wide {@code DubboBootstrap.getInstance()} and the
 * default models are never touched.
 *
 * <p>Kept to loopback and to itself: no registry or metadata report unless its user adds one, no QoS
 * server (it would bind 22222), no file cache under {@code ~/.dubbo}.
 */
public final class DubboRuntime implements AutoCloseable {

    static {
        // FACTS.md: when Dubbo dials 127.x it dials its "local host" instead, the first address of
        // a non-loopback interface; with every interface ignored that local host is 127.0.0.1.
        // Set before Dubbo first looks: an address it finds once, it keeps for the JVM.
        System.setProperty("dubbo.network.interface.ignored", ".*");
    }

    private final FrameworkModel framework = new FrameworkModel();
    private final ApplicationModel application = framework.newApplication();
    private final DubboBootstrap bootstrap = DubboBootstrap.getInstance(application);

    /**
     * Starts the models of an application named {@code name}. Every config of the runtime must be
     * made with {@link #application()}: one made without falls back to the JVM's default model.
     */
    public DubboRuntime(String name) {
        this(name, null);
    }

    /**
     * Starts the models of an application named {@code name} that registers as {@code registerMode}
     * says ({@code interface}, {@code instance}, {@code all}; Dubbo's default, {@code all}, when null).
     */
    public DubboRuntime(String name, String registerMode) {
        this(name, registerMode, null);
    }

    /**
     * Starts the models of an application named {@code name} that registers as {@code registerMode}
     * says and keeps its MetadataInfo as {@code metadataType} says ({@code local}, Dubbo's default
     * when null, served by its own MetadataService; {@code remote}, written to the metadata report).
     */
    DubboRuntime(String name, String registerMode, String metadataType) {
        // Dubbo's shutdown wait, 10 s by default, bounds how long a closing server waits for its
        // peers to hang up, a closing client for its calls in flight, and a consumer whose
        // connection dropped before it fails the calls in flight on it: 1 s keeps tests short.
        application.modelEnvironment().updateAppConfigMap(Map.of("dubbo.service.shutdown.wait", "1000"));
        ApplicationConfig config = new ApplicationConfig(application, name);
        config.setQosEnable(false);
        config.setEnableFileCache(false);
        if (registerMode != null) {
            config.setRegisterMode(registerMode);
        }
        if (metadataType != null) {
            config.setMetadataType(metadataType);
        }
        bootstrap.application(config);
    }

    public ApplicationModel application() {
        return application;
    }

    public DubboBootstrap bootstrap() {
        return bootstrap;
    }

    FrameworkModel framework() {
        return framework;
    }

    /**
     * This runtime's Triple servers. Dubbo keeps them in one map for the whole JVM,
     * {@link PortUnificationExchanger}'s, by address, whatever runtime bound them.
     */
    List<RemotingServer> tripleServers() {
        return PortUnificationExchanger.getServers().values().stream().filter(this::owns).toList();
    }

    /** Unexports, disconnects and stops every thread of this runtime, and no other runtime's. */
    @Override
    public void close() {
        // Destroying a runtime's tri (or dubbo) protocol closes every server in Dubbo's JVM-wide
        // Triple map: closing a consumer would take every Triple provider of the JVM down with it.
        // The other runtimes' servers are set aside meanwhile.
        Map<String, RemotingServer> servers = PortUnificationExchanger.getServers();
        Map<String, RemotingServer> others = new HashMap<>();
        servers.forEach((address, server) -> {
            if (!owns(server)) {
                others.put(address, server);
            }
        });
        others.forEach(servers::remove);
        try {
            framework.destroy();
        } finally {
            servers.putAll(others);
        }
    }

    private boolean owns(RemotingServer server) {
        return server.getUrl().getOrDefaultFrameworkModel() == framework;
    }
}
