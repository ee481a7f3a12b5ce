package io.tollgate.xds.transport;

import com.google.protobuf.Any;
import com.google.rpc.Status;
import io.envoyproxy.envoy.config.core.v3.Node;
import io.envoyproxy.envoy.service.discovery.v3.AggregatedDiscoveryServiceGrpc;
import io.envoyproxy.envoy.service.discovery.v3.DeltaDiscoveryRequest;
import io.envoyproxy.envoy.service.discovery.v3.DeltaDiscoveryResponse;
import io.envoyproxy.envoy.service.discovery.v3.Resource;
import io.grpc.CallOptions;
import io.grpc.ManagedChannel;
import io.grpc.MethodDescriptor;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.StreamObserver;
import io.tollgate.xds.translation.ResourceType;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The incremental ADS stream ({@code DeltaAggregatedResources}, Envoy's {@code DELTA_GRPC}):
 * requests subscribe to and unsubscribe from names as they change; responses carry the resources
 * added or changed, each with its own version, and the names removed. The first request of a type
 * on a stream subscribes again to all the type's names (none for a wildcard type, as Envoy's first
 * request does) and lists in {@code initial_resource_versions} what the gateway holds, so that a
 * control plane need not send it again. An ACK or NACK carries only the response's nonce (and the
 * NACK its {@code error_detail}).
 */
final class IncrementalStream implements AdsStream {

    private static final MethodDescriptor<DeltaDiscoveryRequest, DeltaDiscoveryResponse> METHOD =
            AliasingMarshaller.responsesOf(AggregatedDiscoveryServiceGrpc.getDeltaAggregatedResourcesMethod(),
                    DeltaDiscoveryResponse.getDefaultInstance());

    private final Node node;
    private final StreamObserver<DeltaDiscoveryRequest> requests;
    private final Map<ResourceType, Set<String>> subscribed = new EnumMap<>(ResourceType.class);

    IncrementalStream(ManagedChannel channel, Node node, Events events) {
        this.node = node;
        this.requests = ClientCalls.asyncBidiStreamingCall(channel.newCall(METHOD, CallOptions.DEFAULT),
                new UpdateObserver<>(DeltaDiscoveryResponse::getTypeUrl, IncrementalStream::update, events));
    }

    private static XdsUpdate update(ResourceType type, DeltaDiscoveryResponse response) {
        List<Any> resources = new ArrayList<>();
        Map<String, String> versions = new HashMap<>();
        for (Resource resource : response.getResourcesList()) {
            resources.add(resource.getResource());
            versions.put(resource.getName(), resource.getVersion());
        }
        return new XdsUpdate(type, response.getSystemVersionInfo(), response.getNonce(), resources, versions,
                response.getRemovedResourcesList(), false);
    }

    @Override
    public void subscribe(ResourceType type, List<String> names, String acceptedVersion, Map<String, String> held) {
        Set<String> before = subscribed.get(type);
        DeltaDiscoveryRequest.Builder request = request(type);
        if (before == null) {
            if (names.isEmpty() && !type.wildcard()) {
                return; // an empty first request would subscribe to every resource of the type
            }
            request.addAllResourceNamesSubscribe(names).putAllInitialResourceVersions(held);
        } else {
            List<String> added = names.stream().filter(n -> !before.contains(n)).toList();
            List<String> removed = before.stream().filter(n -> !names.contains(n)).sorted().toList();
            if (added.isEmpty() && removed.isEmpty()) {
                return;
            }
            request.addAllResourceNamesSubscribe(added).addAllResourceNamesUnsubscribe(removed);
        }
        subscribed.put(type, Set.copyOf(names));
        requests.onNext(request.build());
    }

    @Override
    public void ack(XdsUpdate update) {
        ResourceType type = update.type();
        requests.onNext(request(type).setResponseNonce(update.nonce()).build());
        // A name removed while still asked for stays subscribed to; asking again makes a control plane
        // that forgets it on removal (java-control-plane 1.0.49) send the resource when it returns.
        Set<String> names = subscribed.getOrDefault(type, Set.of());
        List<String> again = update.removed().stream().filter(names::contains).toList();
        if (!type.wildcard() && !again.isEmpty()) {
            requests.onNext(request(type).addAllResourceNamesSubscribe(again).build());
        }
    }

    @Override
    public void nack(XdsUpdate update, String acceptedVersion, Status error) {
        requests.onNext(request(update.type()).setResponseNonce(update.nonce()).setErrorDetail(error).build());
    }

    /** A request of {@code type}; the node goes with every one, as Envoy sends it by default. */
    private DeltaDiscoveryRequest.Builder request(ResourceType type) {
        return DeltaDiscoveryRequest.newBuilder().setNode(node).setTypeUrl(type.typeUrl());
    }
}
