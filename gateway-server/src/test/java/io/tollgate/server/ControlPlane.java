package io.tollgate.server;

import com.google.protobuf.Internal;
import com.google.protobuf.Message;
import io.envoyproxy.controlplane.cache.ConfigWatcher;
import io.envoyproxy.controlplane.cache.DeltaResponse;
import io.envoyproxy.controlplane.cache.DeltaWatch;
import io.envoyproxy.controlplane.cache.DeltaXdsRequest;
import io.envoyproxy.controlplane.cache.Response;
import io.envoyproxy.controlplane.cache.Watch;
import io.envoyproxy.controlplane.cache.XdsRequest;
import io.envoyproxy.controlplane.cache.v3.SimpleCache;
import io.envoyproxy.controlplane.cache.v3.Snapshot;
import io.envoyproxy.controlplane.server.DiscoveryServerCallbacks;
import io.envoyproxy.controlplane.server.V3DiscoveryServer;
import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment;
import io.envoyproxy.envoy.config.listener.v3.Listener;
import io.envoyproxy.envoy.config.route.v3.RouteConfiguration;
import io.envoyproxy.envoy.extensions.transport_sockets.tls.v3.Secret;
import io.envoyproxy.envoy.service.discovery.v3.DeltaDiscoveryRequest;
import io.envoyproxy.envoy.service.discovery.v3.DeltaDiscoveryResponse;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryRequest;
import io.grpc.Server;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.netty.shaded.io.netty.handler.ssl.SslContext;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * A real xDS control plane in the test's process: java-control-plane's ADS server and snapshot
 * cache on a gRPC server on 127.0.0.1, state of the world and incremental, recording every request
 * the gateway sends (its subscriptions, ACKs and NACKs) and every incremental response. It can
 * stop and start again on the same port, keeping its snapshot.
 */
final class ControlPlane implements AutoCloseable {

    static final String GROUP = "tollgate";

    private final SimpleCache<String> cache = new SimpleCache<>(node -> GROUP);
    /**
     * Held while a snapshot is set and while a request is recorded and its watch created, so that
     * neither overlaps a push. SimpleCache 1.0.49 drops a state-of-the-world watch that a request
     * creates while the snapshot's responses go out, when a name it asks for is not in the
     * snapshot, and then never answers it (recording alone under the lock left the watch's
     * creation racing a push that started just after).
     */
    private final Object pushing = new Object();
    /** The cache, its watches created one at a time with pushes. */
    private final ConfigWatcher watches = new ConfigWatcher() {
        @Override
        public Watch createWatch(boolean ads, XdsRequest request, Set<String> knownResourceNames,
                Consumer<Response> responseConsumer, boolean hasClusterChanged, boolean allowDefaultEmptyEdsUpdate) {
            synchronized (pushing) {
                return cache.createWatch(ads, request, knownResourceNames, responseConsumer, hasClusterChanged,
                        allowDefaultEmptyEdsUpdate);
            }
        }

        @Override
        public DeltaWatch createDeltaWatch(DeltaXdsRequest request, String requesterVersion,
                Map<String, String> resourceVersions, Set<String> pendingResources, boolean isWildcard,
                Consumer<DeltaResponse> responseConsumer, boolean hasClusterChanged) {
            synchronized (pushing) {
                return cache.createDeltaWatch(request, requesterVersion, resourceVersions, pendingResources, isWildcard,
                        responseConsumer, hasClusterChanged);
            }
        }
    };
    private final ConcurrentLinkedQueue<DiscoveryRequest> requests = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<DeltaDiscoveryRequest> deltaRequests = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<DeltaDiscoveryResponse> deltaResponses = new ConcurrentLinkedQueue<>();
    private final V3DiscoveryServer discovery = new V3DiscoveryServer(new DiscoveryServerCallbacks() {
        @Override
        public void onV3StreamRequest(long streamId, DiscoveryRequest request) {
            synchronized (pushing) {
                requests.add(request);
            }
        }

        @Override
        public void onV3StreamDeltaRequest(long streamId, DeltaDiscoveryRequest request) {
            deltaRequests.add(request);
        }

        @Override
        public void onV3StreamDeltaResponse(long streamId, DeltaDiscoveryRequest request,
                DeltaDiscoveryResponse response) {
            deltaResponses.add(response);
        }
    }, watches);
    private final SslContext tls;
    private int port;
    private Server server;

    /** A plaintext control plane. */
    ControlPlane() throws IOException {
        this(null);
    }

    /** A control plane serving TLS with {@code tls}, or plaintext when null. */
    ControlPlane(SslContext tls) throws IOException {
        this.tls = tls;
        start();
    }

    int port() {
        return port;
    }

    /** A gateway's bootstrap taking everything from this control plane, reconnecting quickly. */
    String bootstrap() {
        return bootstrap("GRPC");
    }

    /** The same over the ADS protocol {@code apiType} names ({@code GRPC} or {@code DELTA_GRPC}). */
    String bootstrap(String apiType) {
        return """
                admin: { address: 127.0.0.1, port: 0 }
                node: { id: tollgate-test, cluster: ingress }
                dynamic_resources:
                  ads_config: { address: 127.0.0.1, port: %d, initial_backoff: 50ms, max_backoff: 200ms, api_type: %s }
                """.formatted(port, apiType);
    }

    /** Serves (again, after {@link #stop}) on the same port. */
    void start() throws IOException {
        NettyServerBuilder builder = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", port))
                .addService(discovery.getAggregatedDiscoveryServiceImpl());
        if (tls != null) {
            builder.sslContext(tls);
        }
        server = builder.build().start();
        port = server.getPort();
    }

    /** Stops serving, cutting the gateway's stream. */
    void stop() throws InterruptedException {
        server.shutdownNow();
        server.awaitTermination(5, TimeUnit.SECONDS);
    }

    void push(String version, List<Cluster> clusters, List<ClusterLoadAssignment> endpoints, List<Listener> listeners,
            List<RouteConfiguration> routes) {
        push(version, clusters, endpoints, listeners, routes, List.of());
    }

    void push(String version, List<Cluster> clusters, List<ClusterLoadAssignment> endpoints, List<Listener> listeners,
            List<RouteConfiguration> routes, List<Secret> secrets) {
        synchronized (pushing) {
            cache.setSnapshot(GROUP, Snapshot.create(clusters, endpoints, listeners, routes, secrets, version));
        }
    }

    /** Every state-of-the-world request received so far, in order. */
    List<DiscoveryRequest> requests() {
        return List.copyOf(requests);
    }

    /** Every incremental request received so far, in order. */
    List<DeltaDiscoveryRequest> deltaRequests() {
        return List.copyOf(deltaRequests);
    }

    /** Every incremental response sent so far, in order. */
    List<DeltaDiscoveryResponse> deltaResponses() {
        return List.copyOf(deltaResponses);
    }

    /** The NACKs received so far, in order. */
    List<DiscoveryRequest> nacks() {
        return requests.stream().filter(DiscoveryRequest::hasErrorDetail).toList();
    }

    /** The state-of-the-world ACKs of responses of the type {@code typeUrl} received so far, in order. */
    List<DiscoveryRequest> acks(String typeUrl) {
        return requests.stream().filter(r -> r.getTypeUrl().equals(typeUrl) && !r.getResponseNonce().isEmpty()
                && !r.hasErrorDetail()).toList();
    }

    /** Whether a response of resources of {@code type} was acknowledged. */
    boolean acked(Class<? extends Message> type) {
        return !acks("type.googleapis.com/" + Internal.getDefaultInstance(type).getDescriptorForType().getFullName())
                .isEmpty();
    }

    /** The incremental NACKs received so far, in order. */
    List<DeltaDiscoveryRequest> deltaNacks() {
        return deltaRequests.stream().filter(DeltaDiscoveryRequest::hasErrorDetail).toList();
    }

    /** The incremental ACKs of responses of the type {@code typeUrl} received so far, in order. */
    List<DeltaDiscoveryRequest> deltaAcks(String typeUrl) {
        return deltaRequests.stream().filter(r -> r.getTypeUrl().equals(typeUrl) && !r.getResponseNonce().isEmpty()
                && !r.hasErrorDetail()).toList();
    }

    @Override
    public void close() throws InterruptedException {
        stop();
    }
}
