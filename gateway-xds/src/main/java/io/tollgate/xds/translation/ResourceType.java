package io.tollgate.xds.translation;

import com.google.protobuf.Any;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment;
import io.envoyproxy.envoy.config.listener.v3.Listener;
import io.envoyproxy.envoy.config.route.v3.RouteConfiguration;
import io.envoyproxy.envoy.extensions.transport_sockets.tls.v3.Secret;

/**
 * The xDS resource types the gateway subscribes to, in the order Envoy asks for them on a new
 * stream (clusters before their endpoints, listeners before their routes, secrets last).
 */
public enum ResourceType {
    CLUSTER("Cluster", "type.googleapis.com/envoy.config.cluster.v3.Cluster", Cluster.class, true),
    ENDPOINT("ClusterLoadAssignment", "type.googleapis.com/envoy.config.endpoint.v3.ClusterLoadAssignment",
            ClusterLoadAssignment.class, false),
    LISTENER("Listener", "type.googleapis.com/envoy.config.listener.v3.Listener", Listener.class, true),
    ROUTE("RouteConfiguration", "type.googleapis.com/envoy.config.route.v3.RouteConfiguration",
            RouteConfiguration.class, false),
    SECRET("Secret", "type.googleapis.com/envoy.extensions.transport_sockets.tls.v3.Secret", Secret.class, false);

    private final String kind;
    private final String typeUrl;
    private final Class<? extends Message> messageType;
    private final boolean wildcard;

    ResourceType(String kind, String typeUrl, Class<? extends Message> messageType, boolean wildcard) {
        this.kind = kind;
        this.typeUrl = typeUrl;
        this.messageType = messageType;
        this.wildcard = wildcard;
    }

    /** The message's name, as error details and {@code /config_dump} show it. */
    public String kind() {
        return kind;
    }

    /** The type URL requests and responses carry. */
    public String typeUrl() {
        return typeUrl;
    }

    /** Whether the type is subscribed to as a whole (every resource) rather than by name. */
    public boolean wildcard() {
        return wildcard;
    }

    /** The type whose {@link #typeUrl()} is {@code url}, or null. */
    public static ResourceType of(String url) {
        for (ResourceType type : values()) {
            if (type.typeUrl.equals(url)) {
                return type;
            }
        }
        return null;
    }

    /** Refuses a resource of another type in a response of this one. */
    public void check(Any resource) {
        if (!resource.getTypeUrl().equals(typeUrl)) {
            throw new XdsRejection(kind + ": a resource of type " + resource.getTypeUrl() + " in a " + kind
                    + " response");
        }
    }

    /** Unpacks one resource of a response; a resource of another type is a rejection. */
    public Message unpack(Any resource) {
        check(resource);
        try {
            return resource.unpack(messageType);
        } catch (InvalidProtocolBufferException e) {
            throw new XdsRejection(kind + ": cannot be decoded: " + e.getMessage());
        }
    }
}
