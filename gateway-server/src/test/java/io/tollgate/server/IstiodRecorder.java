package io.tollgate.server;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Struct;
import com.google.protobuf.Value;
import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.envoyproxy.envoy.config.core.v3.Node;
import io.envoyproxy.envoy.config.listener.v3.Listener;
import io.envoyproxy.envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager;
import io.envoyproxy.envoy.service.discovery.v3.AggregatedDiscoveryServiceGrpc;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryRequest;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryResponse;
import io.grpc.ManagedChannel;
import io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.StreamObserver;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Records what a real istiod sends an ingress gateway node, as the ADS stream carries it: connects
 * to istiod's plaintext xDS port as {@code router~127.0.0.1~tollgate-1.istio-system~...} with
 * {@code LABELS: {istio: ingressgateway}}, asks for clusters and listeners, then the routes and
 * endpoints they name, acknowledges every response, and writes the last response of each type as
 * a binary {@code DiscoveryResponse} ({@code clusters.pb}, {@code listeners.pb}, {@code routes.pb},
 * {@code endpoints.pb}) into the directory given. Run by {@code bin/istio-record.sh}; what it wrote
 * is replayed by {@code IstiodRecordedTest}.
 */
public final class IstiodRecorder {

    static final String NODE_ID = "router~127.0.0.1~tollgate-1.istio-system~istio-system.svc.cluster.local";
    static final Map<String, String> FILES = Map.of(
            "type.googleapis.com/envoy.config.cluster.v3.Cluster", "clusters.pb",
            "type.googleapis.com/envoy.config.listener.v3.Listener", "listeners.pb",
            "type.googleapis.com/envoy.config.route.v3.RouteConfiguration", "routes.pb",
            "type.googleapis.com/envoy.config.endpoint.v3.ClusterLoadAssignment", "endpoints.pb");
    private static final String CLUSTER = "type.googleapis.com/envoy.config.cluster.v3.Cluster";
    private static final String LISTENER = "type.googleapis.com/envoy.config.listener.v3.Listener";
    private static final String ROUTE = "type.googleapis.com/envoy.config.route.v3.RouteConfiguration";
    private static final String ENDPOINT = "type.googleapis.com/envoy.config.endpoint.v3.ClusterLoadAssignment";

    private IstiodRecorder() {
    }

    /** {@code HOST:PORT OUT_DIR}: istiod's xDS address and where the responses go. */
    public static void main(String[] args) throws Exception {
        Path out = Files.createDirectories(Path.of(args[1]));
        ManagedChannel channel = NettyChannelBuilder.forTarget(args[0]).usePlaintext().build();
        BlockingQueue<Object> received = new LinkedBlockingQueue<>();
        StreamObserver<DiscoveryRequest> stream = AggregatedDiscoveryServiceGrpc.newStub(channel)
                .streamAggregatedResources(new StreamObserver<>() {
                    @Override
                    public void onNext(DiscoveryResponse response) {
                        received.add(response);
                    }

                    @Override
                    public void onError(Throwable t) {
                        received.add(t);
                    }

                    @Override
                    public void onCompleted() {
                        received.add(new IllegalStateException("istiod ended the stream"));
                    }
                });
        Node node = Node.newBuilder().setId(NODE_ID).setCluster("istio-ingressgateway.istio-system")
                .setMetadata(Struct.newBuilder()
                        .putFields("LABELS", Value.newBuilder().setStructValue(Struct.newBuilder()
                                .putFields("istio", text("ingressgateway"))).build())
                        .putFields("NAMESPACE", text("istio-system"))
                        .putFields("CLUSTER_ID", text("Kubernetes")))
                .build();
        stream.onNext(DiscoveryRequest.newBuilder().setNode(node).setTypeUrl(CLUSTER).build());
        stream.onNext(DiscoveryRequest.newBuilder().setTypeUrl(LISTENER).build());
        Map<String, DiscoveryResponse> last = new LinkedHashMap<>();
        Map<String, List<String>> asked = new LinkedHashMap<>();
        while (!complete(last, asked)) {
            Object next = received.poll(60, TimeUnit.SECONDS);
            if (next == null || next instanceof Throwable) {
                throw new IllegalStateException("istiod sent " + last.keySet() + ", then " + next, (Throwable) next);
            }
            DiscoveryResponse response = (DiscoveryResponse) next;
            last.put(response.getTypeUrl(), response);
            List<String> names = asked.getOrDefault(response.getTypeUrl(), List.of());
            stream.onNext(DiscoveryRequest.newBuilder().setTypeUrl(response.getTypeUrl())
                    .setVersionInfo(response.getVersionInfo()).setResponseNonce(response.getNonce())
                    .addAllResourceNames(names).build());
            if (response.getTypeUrl().equals(CLUSTER)) {
                ask(stream, asked, ENDPOINT, edsNames(response));
            } else if (response.getTypeUrl().equals(LISTENER)) {
                ask(stream, asked, ROUTE, rdsNames(response));
            }
        }
        for (DiscoveryResponse response : last.values()) {
            try (OutputStream file = Files.newOutputStream(out.resolve(FILES.get(response.getTypeUrl())))) {
                response.writeTo(file);
            }
        }
        stream.onCompleted();
        channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }

    private static boolean complete(Map<String, DiscoveryResponse> last, Map<String, List<String>> asked) {
        if (!last.containsKey(CLUSTER) || !last.containsKey(LISTENER)) {
            return false;
        }
        for (String type : asked.keySet()) {
            if (!asked.get(type).isEmpty() && !last.containsKey(type)) {
                return false;
            }
        }
        return true;
    }

    private static void ask(StreamObserver<DiscoveryRequest> stream, Map<String, List<String>> asked, String type,
            List<String> names) {
        if (!names.isEmpty() && !names.equals(asked.get(type))) {
            asked.put(type, names);
            stream.onNext(DiscoveryRequest.newBuilder().setTypeUrl(type).addAllResourceNames(names).build());
        }
    }

    private static List<String> edsNames(DiscoveryResponse response) throws InvalidProtocolBufferException {
        List<String> names = new ArrayList<>();
        for (var any : response.getResourcesList()) {
            Cluster cluster = any.unpack(Cluster.class);
            if (cluster.getType() == Cluster.DiscoveryType.EDS) {
                String service = cluster.getEdsClusterConfig().getServiceName();
                names.add(service.isEmpty() ? cluster.getName() : service);
            }
        }
        return names;
    }

    private static List<String> rdsNames(DiscoveryResponse response) throws InvalidProtocolBufferException {
        List<String> names = new ArrayList<>();
        for (var any : response.getResourcesList()) {
            for (var chain : any.unpack(Listener.class).getFilterChainsList()) {
                for (var filter : chain.getFiltersList()) {
                    if (filter.getTypedConfig().is(HttpConnectionManager.class)) {
                        HttpConnectionManager hcm = filter.getTypedConfig().unpack(HttpConnectionManager.class);
                        if (hcm.hasRds() && !names.contains(hcm.getRds().getRouteConfigName())) {
                            names.add(hcm.getRds().getRouteConfigName());
                        }
                    }
                }
            }
        }
        return names;
    }

    private static Value text(String value) {
        return Value.newBuilder().setStringValue(value).build();
    }
}
