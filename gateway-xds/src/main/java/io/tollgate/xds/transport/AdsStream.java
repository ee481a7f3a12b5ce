package io.tollgate.xds.transport;

import com.google.rpc.Status;
import io.envoyproxy.envoy.config.core.v3.Node;
import io.grpc.ManagedChannel;
import io.tollgate.core.config.XdsConfig;
import io.tollgate.xds.translation.ResourceType;
import java.util.List;
import java.util.Map;

/**
 * One ADS stream to the control plane in one of the protocol's two variants: what is asked for,
 * acknowledged and refused, in that variant's messages. All that is the same for both (translation,
 * warming, composition, backoff) stays in {@link XdsClient}; calls come from its control thread.
 */
interface AdsStream {

    /** What the stream hands back to the client, on the channel's executor (the control thread). */
    interface Events {

        /** A response, as an update to apply and then {@link #ack} or {@link #nack}. */
        void received(XdsUpdate update);

        /** The stream failed ({@code cause}) or the control plane closed it ({@code cause} null). */
        void ended(Throwable cause);
    }

    /** Opens a stream of the variant {@code api} names on {@code channel}, introducing the gateway as {@code node}. */
    static AdsStream open(XdsConfig.ApiType api, ManagedChannel channel, Node node, Events events) {
        return switch (api) {
            case GRPC -> new StateOfTheWorldStream(channel, node, events);
            case DELTA_GRPC -> new IncrementalStream(channel, node, events);
        };
    }

    /**
     * Asks for resources {@code names} of {@code type} (every one of a wildcard type, which has no
     * names); the first call for a type on a stream asks again for all it asked before, telling
     * the control plane what the gateway holds: {@code acceptedVersion}, the version of the type it
     * last accepted, and {@code held}, the version of each resource of the type it holds.
     */
    void subscribe(ResourceType type, List<String> names, String acceptedVersion, Map<String, String> held);

    /** Acknowledges {@code update}, applied. */
    void ack(XdsUpdate update);

    /** Refuses {@code update} with {@code error}; {@code acceptedVersion} of its type still serves. */
    void nack(XdsUpdate update, String acceptedVersion, Status error);
}
