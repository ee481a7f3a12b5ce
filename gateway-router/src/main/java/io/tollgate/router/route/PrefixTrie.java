package io.tollgate.router.route;

import java.util.Arrays;

/**
 * A character trie from path prefixes to the routes that match on them, so that
 * the routes whose prefix a path starts with are found in one walk along the path, however many
 * routes there are. Built once when a route table is compiled, read-only afterwards.
 */
final class PrefixTrie {

    private static final int[] NONE = new int[0];

    private char[] keys = new char[0];
    private PrefixTrie[] children = new PrefixTrie[0];
    private int[] routes = NONE;
    private CandidateRoutes candidates = CandidateRoutes.EMPTY;

    /** Adds a route under {@code prefix}; MUST be called in ascending route order. */
    void add(String prefix, int route) {
        PrefixTrie node = this;
        for (int i = 0; i < prefix.length(); i++) {
            node = node.childOrCreate(prefix.charAt(i));
        }
        node.routes = Arrays.copyOf(node.routes, node.routes.length + 1);
        node.routes[node.routes.length - 1] = route;
    }

    /** The node one character further down, or null when no prefix continues with {@code c}. */
    PrefixTrie child(char c) {
        int at = Arrays.binarySearch(keys, c);
        return at < 0 ? null : children[at];
    }

    /** Indexes the routes of every node by their headers; MUST be called once, after the last {@link #add}. */
    void index(Route[] all) {
        candidates = CandidateRoutes.of(all, routes);
        for (PrefixTrie child : children) {
            child.index(all);
        }
    }

    /** The routes whose prefix ends at this node, in route order. */
    CandidateRoutes candidates() {
        return candidates;
    }

    private PrefixTrie childOrCreate(char c) {
        int at = Arrays.binarySearch(keys, c);
        if (at >= 0) {
            return children[at];
        }
        int insert = -at - 1;
        PrefixTrie child = new PrefixTrie();
        keys = insert(keys, insert, c);
        PrefixTrie[] grown = new PrefixTrie[children.length + 1];
        System.arraycopy(children, 0, grown, 0, insert);
        grown[insert] = child;
        System.arraycopy(children, insert, grown, insert + 1, children.length - insert);
        children = grown;
        return child;
    }

    private static char[] insert(char[] array, int at, char c) {
        char[] grown = new char[array.length + 1];
        System.arraycopy(array, 0, grown, 0, at);
        grown[at] = c;
        System.arraycopy(array, at, grown, at + 1, array.length - at);
        return grown;
    }
}
