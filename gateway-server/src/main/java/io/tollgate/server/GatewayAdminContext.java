package io.tollgate.server;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.tollgate.admin.AdminContext;
import io.tollgate.admin.DiscoveredService;
import io.tollgate.admin.ListenerInfo;
import io.tollgate.admin.ServedConfig;
import io.tollgate.admin.ServerControl;
import io.tollgate.admin.ServerInfo;
import io.tollgate.core.accesslog.AccessLogTap;
import io.tollgate.core.config.ListenerConfig;
import io.tollgate.core.config.XdsResourceStatus;
import io.tollgate.discovery.RegistryStatus;
import io.tollgate.router.cluster.ClusterManager;
import io.tollgate.server.discovery.DiscoveredClusters;
import io.tollgate.server.drain.DrainTrigger;
import io.tollgate.server.listener.Listener;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * What the admin API sees of a {@link Gateway} and the controls it has of its lifecycle: every
 * answer is read from the gateway's published state when the admin loop asks, never pushed by
 * the event loops.
 */
final class GatewayAdminContext implements AdminContext {

    private final Gateway gateway;
    private final PrometheusMeterRegistry registry;
    private final Supplier<List<XdsResourceStatus>> xdsResources;
    private final DiscoveredClusters discovery;
    private final ServerControl lifecycle = new Lifecycle();

    /** @param xdsResources the xDS resources' states, empty without a control plane */
    GatewayAdminContext(Gateway gateway, PrometheusMeterRegistry registry,
            Supplier<List<XdsResourceStatus>> xdsResources, DiscoveredClusters discovery) {
        this.gateway = gateway;
        this.registry = registry;
        this.xdsResources = xdsResources;
        this.discovery = discovery;
    }

    @Override
    public ServedConfig served() {
        return gateway.snapshot();
    }

    @Override
    public long reload() {
        return gateway.reload();
    }

    @Override
    public ClusterManager clusters() {
        return gateway.snapshot().clusters();
    }

    @Override
    public List<ListenerInfo> listeners() {
        List<ListenerInfo> infos = new ArrayList<>();
        for (Listener listener : gateway.listeners()) {
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
        return gateway.drains().ready();
    }

    @Override
    public ServerControl server() {
        return lifecycle;
    }

    @Override
    public List<XdsResourceStatus> xdsResources() {
        return xdsResources.get();
    }

    @Override
    public AccessLogTap accessLogTap() {
        return gateway.metrics().accessLogTap();
    }

    @Override
    public List<RegistryStatus> registries() {
        return discovery.statuses();
    }

    @Override
    public List<DiscoveredService> discoveredServices() {
        return discovery.services();
    }

    /** The admin API's controls of the gateway's lifecycle. */
    private final class Lifecycle implements ServerControl {
        @Override
        public ServerInfo info() {
            Instant now = Instant.now();
            Launch launch = gateway.launch();
            Path configFile = launch.configFile();
            return new ServerInfo(Gateway.version(), gateway.drains().state().name(),
                    Duration.between(gateway.started(), now), Duration.between(launch.firstEpochStarted(), now),
                    launch.restartEpoch(), configFile == null ? null : configFile.toString(),
                    gateway.snapshot().config().drain().timeout(), launch.commandLine());
        }

        @Override
        public void failHealthChecks(boolean fail) {
            gateway.drains().failHealthChecks(fail);
        }

        @Override
        public void drainListeners(boolean graceful) {
            gateway.drain(DrainTrigger.DRAIN_LISTENERS, !graceful);
        }

        @Override
        public void quit() {
            gateway.drainAndClose(DrainTrigger.QUITQUITQUIT);
        }
    }
}
