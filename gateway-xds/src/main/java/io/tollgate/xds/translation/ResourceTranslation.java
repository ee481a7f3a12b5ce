package io.tollgate.xds.translation;

import com.google.protobuf.Any;
import com.google.protobuf.Message;
import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.envoyproxy.envoy.config.listener.v3.Listener;
import io.envoyproxy.envoy.config.route.v3.RouteConfiguration;
import io.envoyproxy.envoy.extensions.transport_sockets.tls.v3.Secret;
import io.tollgate.core.config.GatewayConfig;
import io.tollgate.core.config.XdsConfig;
import io.tollgate.core.extension.ExtensionRegistry;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Applies one response to the resources held: each resource it carries translated by its type's
 * translator (the file's rules), added or replacing the one of the same name, and those it removes
 * removed. A resource that cannot be translated, a name sent twice or a name of the configuration
 * file's own listeners and clusters rejects the whole response with an {@link XdsRejection} naming
 * the resource. Runs on the xDS control thread only.
 */
public final class ResourceTranslation {

    private final ClusterTranslator clusters;
    private final ListenerTranslator listeners;
    private final EndpointTranslator endpoints = new EndpointTranslator();
    private final SecretFiles secretFiles;

    /**
     * Translates with the extensions of {@code extensions}; SDS secrets are checked against and
     * written to {@code secretFiles}; {@code sdsFiles} are the secrets read from files, by name.
     */
    public ResourceTranslation(ExtensionRegistry extensions, SecretFiles secretFiles,
            Map<String, XdsConfig.FileSecret> sdsFiles) {
        this.clusters = new ClusterTranslator(extensions, sdsFiles);
        this.listeners = new ListenerTranslator(extensions);
        this.secretFiles = secretFiles;
    }

    /**
     * The resources {@code held} with those of {@code response} added or replacing those of the
     * same name, and those it removes removed; the names it carries are added to {@code names}.
     * {@code file} is the configuration file's part, whose names xDS cannot replace.
     *
     * @throws XdsRejection when the response cannot be applied
     */
    public XdsResources apply(XdsResources held, XdsResponse response, GatewayConfig file, List<String> names) {
        ResourceType type = response.type();
        XdsResources next = switch (type) {
            case CLUSTER -> held.withClusters(all(response, held.clusters(), unique(response, names, m -> {
                Cluster cluster = (Cluster) m;
                notStatic(type, cluster.getName(), file.clusters().stream().anyMatch(c -> c.name().equals(cluster.getName())));
                return clusters.translate(cluster);
            })));
            case LISTENER -> held.withListeners(all(response, held.listeners(), unique(response, names, m -> {
                Listener listener = (Listener) m;
                notStatic(type, listener.getName(),
                        file.listeners().stream().anyMatch(l -> l.name().equals(listener.getName())));
                return listeners.translate(listener);
            })));
            case ROUTE -> held.withRoutes(unique(response, names,
                    m -> RouteTranslator.translate((RouteConfiguration) m)));
            case ENDPOINT -> held.withEndpoints(uniqueNamed(response, names, resource -> {
                EndpointTranslator.Assignment assignment = endpoints.translate(resource);
                return Map.entry(assignment.clusterName(), assignment.endpoints());
            }));
            case SECRET -> held.withSecrets(unique(response, names,
                    m -> SecretTranslator.translate((Secret) m, secretFiles)));
        };
        return next.without(type, response.removed());
    }

    /** Forgets what the endpoint translator keeps of the EDS resources no longer asked for. */
    public void retainEndpoints(List<String> edsNames) {
        endpoints.retain(edsNames);
    }

    /** Every resource of a wildcard type after {@code response}: those it carries, with those held unless it carries all. */
    private static <T> Map<String, T> all(XdsResponse response, Map<String, T> held, Map<String, T> received) {
        if (response.complete()) {
            return received;
        }
        Map<String, T> all = new HashMap<>(held);
        all.putAll(received);
        return all;
    }

    private static void notStatic(ResourceType type, String name, boolean isStatic) {
        if (isStatic) {
            throw new XdsRejection(type.kind() + " '" + name + "': the name of a " + type.kind().toLowerCase()
                    + " of the configuration file, which xDS cannot replace");
        }
    }

    /** The resources of {@code response} translated, by name; a name given twice is a rejection. */
    private static <T> Map<String, T> unique(XdsResponse response, List<String> names, Function<Message, T> translator) {
        return uniqueNamed(response, names, resource -> {
            Message message = response.type().unpack(resource);
            String name = name(message);
            try {
                return Map.entry(name, translator.apply(message));
            } catch (XdsRejection e) {
                throw e.of(name);
            }
        });
    }

    /** The resources of {@code response} as {@code translator} names and translates them; a name given twice is a rejection. */
    private static <T> Map<String, T> uniqueNamed(XdsResponse response, List<String> names,
            Function<Any, Map.Entry<String, T>> translator) {
        Map<String, T> byName = new HashMap<>();
        for (Any resource : response.resources()) {
            Map.Entry<String, T> named = translator.apply(resource);
            names.add(named.getKey());
            if (byName.put(named.getKey(), named.getValue()) != null) {
                throw new XdsRejection(response.type().kind() + " '" + named.getKey() + "': sent twice in one response")
                        .of(named.getKey());
            }
        }
        return byName;
    }

    private static String name(Message message) {
        if (message instanceof Cluster c) {
            return c.getName();
        }
        if (message instanceof Listener l) {
            return l.getName();
        }
        if (message instanceof RouteConfiguration r) {
            return r.getName();
        }
        return ((Secret) message).getName();
    }
}
