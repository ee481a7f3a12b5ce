package io.tollgate.server.rpc;

import com.alipay.sofa.rpc.common.RpcConstants;
import com.alipay.sofa.rpc.config.ConsumerConfig;
import com.alipay.sofa.rpc.config.ProviderConfig;
import com.alipay.sofa.rpc.config.RegistryConfig;
import com.alipay.sofa.rpc.config.ServerConfig;
import com.alipay.sofa.rpc.registry.RegistryFactory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A real SOFARPC 5.x provider of {@link EchoService} on a free loopback port (registered in a
 * ZooKeeper or Nacos registry when one is given, else in none), and the consumers a test refers to it or
 * to the gateway in front of it (bolt, direct URL, no registry), all let go of by {@link #close()}.
 */
public final class SofaRpc implements AutoCloseable {

    private final ProviderConfig<EchoService> provider;
    private final int port;
    private final List<ConsumerConfig<?>> consumers = new ArrayList<>();

    /** Exports {@code service} on a free port. */
    public SofaRpc(EchoService service) {
        this(service, (RegistryConfig) null, "");
    }

    /**
     * Exports {@code service} on a free port with SOFARPC's {@code uniqueId} {@code uniqueId} (empty
     * for none), registered in the ZooKeeper at {@code zookeeper} ({@code host:port}) unless null.
     */
    public SofaRpc(EchoService service, String zookeeper, String uniqueId) {
        this(service, zookeeper == null ? null : new RegistryConfig().setProtocol("zookeeper").setAddress(zookeeper),
                uniqueId);
    }

    /**
     * Exports {@code service} on a free port with SOFARPC's {@code uniqueId} {@code uniqueId} (empty
     * for none), registered in {@code registry} (SOFARPC's own registry settings) unless null.
     */
    public SofaRpc(EchoService service, RegistryConfig registry, String uniqueId) {
        this(service, registry, uniqueId, Map.of());
    }

    /**
     * As {@link #SofaRpc(EchoService, RegistryConfig, String)}, with {@code parameters} added to the
     * provider's registration (SOFARPC's {@code warmupTime} and {@code warmupWeight}, for one).
     */
    public SofaRpc(EchoService service, RegistryConfig registry, String uniqueId, Map<String, String> parameters) {
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        ServerConfig server = new ServerConfig().setProtocol("bolt").setHost("127.0.0.1").setBoundHost("127.0.0.1")
                .setVirtualHost("127.0.0.1").setPort(port).setDaemon(true);
        provider = new ProviderConfig<EchoService>().setInterfaceId(EchoService.class.getName()).setRef(service)
                .setServer(server).setRegister(registry != null).setRepeatedExportLimit(8);
        if (!uniqueId.isEmpty()) {
            provider.setUniqueId(uniqueId);
        }
        if (registry != null) {
            provider.setRegistry(registry);
        }
        if (!parameters.isEmpty()) {
            provider.setParameters(new HashMap<>(parameters));
        }
        provider.export();
    }

    /** The provider's port. */
    public int port() {
        return port;
    }

    /** A synchronous consumer of {@code bolt://127.0.0.1:port} with a 5 s timeout. */
    public EchoService refer(int port) {
        return refer(port, "");
    }

    /** A synchronous consumer of {@code bolt://127.0.0.1:port} with a 5 s timeout and SOFARPC's {@code uniqueId}. */
    public EchoService refer(int port, String uniqueId) {
        ConsumerConfig<EchoService> config = new ConsumerConfig<EchoService>()
                .setInterfaceId(EchoService.class.getName())
                .setProtocol("bolt")
                .setDirectUrl("bolt://127.0.0.1:" + port)
                .setRegister(false)
                .setInvokeType(RpcConstants.INVOKER_TYPE_SYNC)
                .setTimeout(5000)
                .setRepeatedReferLimit(8);
        if (!uniqueId.isEmpty()) {
            config.setUniqueId(uniqueId);
        }
        consumers.add(config);
        return config.refer();
    }

    @Override
    public void close() {
        consumers.forEach(ConsumerConfig::unRefer);
        provider.unExport();
        if (provider.getRegistry() != null) {
            provider.getRegistry().forEach(registry -> RegistryFactory.getRegistry(registry).destroy());
        }
        provider.getServer().get(0).destroy();
    }
}
