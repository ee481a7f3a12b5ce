package io.tollgate.xds.transport;

import com.google.rpc.Status;
import io.envoyproxy.envoy.config.core.v3.Node;
import io.envoyproxy.envoy.service.discovery.v3.AggregatedDiscoveryServiceGrpc;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryRequest;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryResponse;
import io.grpc.CallOptions;
import io.grpc.ManagedChannel;
import io.grpc.MethodDescriptor;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.StreamObserver;
import io.tollgate.xds.translation.ResourceType;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The state-of-the-world ADS stream ({@code StreamAggregatedResources}, Envoy's {@code GRPC}):
 * every request of a type names all it asks for, with the type's last accepted
 * {@code version_info} and the last {@code response_nonce}; every response of a wildcard type
 * carries all its resources.
 */
final class StateOfTheWorldStream implements AdsStream {

    private static final MethodDescriptor<DiscoveryRequest, DiscoveryResponse> METHOD = AliasingMarshaller.responsesOf(
            AggregatedDiscoveryServiceGrpc.getStreamAggregatedResourcesMethod(), DiscoveryResponse.getDefaultInstance());

    private final Node node;
    private final StreamObserver<DiscoveryRequest> requests;
    private final Map<ResourceType, String> nonces = new EnumMap<>(ResourceType.class);
    private final Map<ResourceType, List<String>> names = new EnumMap<>(ResourceType.class);

    StateOfTheWorldStream(ManagedChannel channel, Node node, Events events) {
        this.node = node;
        this.requests = ClientCalls.asyncBidiStreamingCall(channel.newCall(METHOD, CallOptions.DEFAULT),
                new UpdateObserver<>(DiscoveryResponse::getTypeUrl, this::update, events));
    }

    private XdsUpdate update(ResourceType type, DiscoveryResponse response) {
        nonces.put(type, response.getNonce());
        return new XdsUpdate(type, response.getVersionInfo(), response.getNonce(), response.getResourcesList(), Map.of(),
                List.of(), type.wildcard());
    }

    @Override
    public void subscribe(ResourceType type, List<String> subscribed, String acceptedVersion, Map<String, String> held) {
        names.put(type, subscribed);
        send(type, acceptedVersion, nonces.getOrDefault(type, ""), Optional.empty());
    }

    @Override
    public void ack(XdsUpdate update) {
        send(update.type(), update.version(), update.nonce(), Optional.empty());
    }

    @Override
    public void nack(XdsUpdate update, String acceptedVersion, Status error) {
        send(update.type(), acceptedVersion, update.nonce(), Optional.of(error));
    }

    private void send(ResourceType type, String version, String nonce, Optional<Status> error) {
        DiscoveryRequest.Builder request = DiscoveryRequest.newBuilder().setNode(node).setTypeUrl(type.typeUrl())
                .setVersionInfo(version).setResponseNonce(nonce).addAllResourceNames(names.getOrDefault(type, List.of()));
        error.ifPresent(request::setErrorDetail);
        requests.onNext(request.build());
    }
}
