package io.tollgate.router.cluster;

import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The subsets of a cluster by path: from the root, one step per metadata key in ascending key
 * number, each step keyed by the key's value (Envoy's subset map). A request's metadata walks it
 * without allocating. Published nodes are immutable; an {@link Editor} copies only the nodes on
 * the paths it changes.
 */
final class SubsetTrie {

    private SubsetTrie() {
    }

    /** A node; {@code subset} is set where a path spells a selector's whole key set. */
    static final class Node {

        /** Children by key number, then by value; null where no path continues with that key. */
        private final Map<String, Node>[] children;
        private HostCandidates subset;

        @SuppressWarnings("unchecked")
        private Node(int keyCount) {
            this.children = new Map[keyCount];
        }

        private Node(Node other) {
            this.children = other.children.clone();
            this.subset = other.subset;
        }

        /** The node one step down for key {@code key} with {@code value}, or null. */
        Node child(int key, String value) {
            Map<String, Node> byValue = children[key];
            return byValue == null ? null : byValue.get(value);
        }

        /** The healthy hosts of the subset ending here, or null. */
        HostCandidates subset() {
            return subset;
        }

        /** Gives {@code action} the subset of every node from here down. */
        void forEachSubset(Consumer<HostCandidates> action) {
            if (subset != null) {
                action.accept(subset);
            }
            for (Map<String, Node> byValue : children) {
                if (byValue != null) {
                    byValue.values().forEach(child -> child.forEachSubset(action));
                }
            }
        }

        private boolean isEmpty() {
            if (subset != null) {
                return false;
            }
            for (Map<String, Node> byValue : children) {
                if (byValue != null) {
                    return false;
                }
            }
            return true;
        }
    }

    /** An empty trie for {@code keyCount} keys. */
    static Node empty(int keyCount) {
        return new Node(keyCount);
    }

    /** Changes a trie by copying the nodes it touches; the nodes it was given stay as they were. */
    static final class Editor {

        private final int keyCount;
        private final Set<Object> fresh = Collections.newSetFromMap(new IdentityHashMap<>());
        private Node root;

        Editor(Node root, int keyCount) {
            this.root = root;
            this.keyCount = keyCount;
        }

        /** Sets (or with null, removes) the subset at path {@code keys} = {@code values}. */
        void put(int[] keys, String[] values, HostCandidates subset) {
            Node changed = put(root, 0, keys, values, subset);
            root = changed == null ? freshNode(null) : changed;
        }

        /** The edited trie; the editor MUST NOT be used afterwards. */
        Node finish() {
            return root;
        }

        private Node put(Node node, int depth, int[] keys, String[] values, HostCandidates subset) {
            if (node == null && subset == null) {
                return null;
            }
            Node editable = node != null && fresh.contains(node) ? node : freshNode(node);
            if (depth == keys.length) {
                editable.subset = subset;
            } else {
                int key = keys[depth];
                Map<String, Node> byValue = editable.children[key];
                if (byValue == null || !fresh.contains(byValue)) {
                    byValue = byValue == null ? new HashMap<>(4) : new HashMap<>(byValue);
                    fresh.add(byValue);
                    editable.children[key] = byValue;
                }
                Node child = put(byValue.get(values[depth]), depth + 1, keys, values, subset);
                if (child == null) {
                    byValue.remove(values[depth]);
                } else {
                    byValue.put(values[depth], child);
                }
                if (byValue.isEmpty()) {
                    editable.children[key] = null;
                }
            }
            return editable.isEmpty() ? null : editable;
        }

        private Node freshNode(Node copyOf) {
            Node node = copyOf == null ? new Node(keyCount) : new Node(copyOf);
            fresh.add(node);
            return node;
        }
    }
}
