package io.tollgate.xds.translation;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.Struct;
import com.google.protobuf.Value;
import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.envoyproxy.envoy.config.core.v3.Metadata;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * Subset load balancing from Envoy's terms: a cluster's {@code lb_subset_config}, and the labels
 * of endpoints and routes, which Envoy carries as the {@code envoy.lb} filter metadata.
 */
final class SubsetTranslator {

    /** The filter metadata key Envoy's subset load balancer reads labels from. */
    static final String LB_METADATA = "envoy.lb";
    /** The endpoint metadata a cluster's {@code transport_socket_matches} are matched against. */
    static final String TRANSPORT_SOCKET_MATCH = "envoy.transport_socket_match";

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final Set<String> METADATA_FIELDS = Set.of("filter_metadata");

    private SubsetTranslator() {
    }

    static ObjectNode subsetConfig(Cluster.LbSubsetConfig config, String at) {
        Fields.allowOnly(config, at, Set.of("fallback_policy", "default_subset", "subset_selectors"));
        ObjectNode tree = NODES.objectNode().put("fallback_policy", config.getFallbackPolicy().name());
        ObjectNode defaultSubset = tree.putObject("default_subset");
        labels(config.getDefaultSubset(), at + ".default_subset").forEach(defaultSubset::put);
        ArrayNode selectors = tree.putArray("subset_selectors");
        for (int i = 0; i < config.getSubsetSelectorsCount(); i++) {
            Cluster.LbSubsetConfig.LbSubsetSelector selector = config.getSubsetSelectors(i);
            Fields.allowOnly(selector, at + ".subset_selectors[" + i + "]",
                    Set.of("keys", "fallback_policy", "fallback_keys_subset"));
            ObjectNode s = selectors.addObject().put("fallback_policy", selector.getFallbackPolicy().name());
            selector.getKeysList().forEach(s.putArray("keys")::add);
            if (selector.getFallbackKeysSubsetCount() > 0) {
                selector.getFallbackKeysSubsetList().forEach(s.putArray("fallback_keys_subset")::add);
            }
        }
        return tree;
    }

    /** The labels of {@code metadata} as the file writes them, e.g. a route's {@code metadata_match}. */
    static ObjectNode lbMetadata(Metadata metadata, String at) {
        ObjectNode tree = NODES.objectNode();
        labels(metadata, at).forEach(tree::put);
        return tree;
    }

    /**
     * The labels of {@code metadata}: its {@code envoy.lb} entry, with its
     * {@code envoy.transport_socket_match} entry (which a cluster's {@code transport_socket_matches}
     * choose TLS by, as the TLS block's {@code match_labels}); any other filter's metadata is refused.
     */
    static Map<String, String> labels(Metadata metadata, String at) {
        Fields.allowOnly(metadata, at, METADATA_FIELDS);
        for (String filter : metadata.getFilterMetadataMap().keySet()) {
            if (filter.equals(IstioExtensions.ISTIO_METADATA)) {
                IstioExtensions.accepted("endpoint filter_metadata 'istio'", "carries the workload's name for Istio's"
                        + " telemetry");
            } else if (!filter.equals(LB_METADATA) && !filter.equals(TRANSPORT_SOCKET_MATCH)) {
                throw new XdsRejection(at + ".filter_metadata['" + filter + "']: not supported (supported: "
                        + LB_METADATA + ", " + TRANSPORT_SOCKET_MATCH + ", and " + IstioExtensions.ISTIO_METADATA
                        + " accepted as a no-op)");
            }
        }
        Map<String, String> labels = labels(metadata.getFilterMetadataOrDefault(LB_METADATA, Struct.getDefaultInstance()),
                at + ".filter_metadata['" + LB_METADATA + "']");
        String where = at + ".filter_metadata['" + TRANSPORT_SOCKET_MATCH + "']";
        labels(metadata.getFilterMetadataOrDefault(TRANSPORT_SOCKET_MATCH, Struct.getDefaultInstance()), where)
                .forEach((key, value) -> {
                    String lb = labels.putIfAbsent(key, value);
                    if (lb != null && !lb.equals(value)) {
                        throw new XdsRejection(where + "." + key + ": '" + value + "' where " + LB_METADATA + " says '"
                                + lb + "' (supported: the same value, both are the endpoint's labels)");
                    }
                });
        return labels;
    }

    /** A struct of labels as text: strings as they are, booleans and whole numbers written out. */
    static Map<String, String> labels(Struct struct, String at) {
        Map<String, String> labels = new HashMap<>();
        for (Map.Entry<String, Value> entry : struct.getFieldsMap().entrySet()) {
            Value value = entry.getValue();
            String text = switch (value.getKindCase()) {
                case STRING_VALUE -> value.getStringValue();
                case BOOL_VALUE -> Boolean.toString(value.getBoolValue());
                case NUMBER_VALUE -> {
                    double number = value.getNumberValue();
                    if (number != Math.rint(number) || Double.isInfinite(number)) {
                        throw new XdsRejection(at + "." + entry.getKey() + ": " + number + " (supported: text, booleans, whole numbers)");
                    }
                    yield Long.toString((long) number);
                }
                default -> throw new XdsRejection(at + "." + entry.getKey() + ": a " + value.getKindCase()
                        + " (supported: text, booleans, whole numbers)");
            };
            labels.put(entry.getKey(), text);
        }
        return labels;
    }
}
