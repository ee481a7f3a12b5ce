package io.tollgate.router.cluster;

import io.tollgate.core.config.SubsetLbConfig;
import io.tollgate.core.route.RouteRequest;
import io.tollgate.router.host.Host;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import org.roaringbitmap.IntIterator;
import org.roaringbitmap.RoaringBitmap;
import org.roaringbitmap.RoaringBitmapWriter;

/**
 * The inverted index behind subset load balancing, for one {@link HostSet} version: one bitmap
 * of host indices per label (key, value), and every subset a selector defines as the AND of its
 * labels' bitmaps with the healthy hosts, reached through a {@link SubsetTrie}. Whether a subset
 * exists and which hosts it offers are answered by the same bitmap: a subset exists exactly
 * when it has a healthy host. Immutable; {@link #update} builds the next version at a cost
 * proportional to the hosts that changed.
 */
public final class SubsetIndex {

    private final SubsetPolicy policy;
    /** By key number: the bitmap of host indices carrying each value of that key. */
    private final Map<String, RoaringBitmap>[] labels;
    private final SubsetTrie.Node root;
    private final HostCandidates defaultSubset;

    private SubsetIndex(SubsetPolicy policy, Map<String, RoaringBitmap>[] labels, SubsetTrie.Node root,
            HostCandidates defaultSubset) {
        this.policy = policy;
        this.labels = labels;
        this.root = root;
        this.defaultSubset = defaultSubset;
    }

    /** Indexes every host of {@code hosts} under {@code config}. */
    public static SubsetIndex build(HostSet hosts, SubsetLbConfig config) {
        return build(hosts, new SubsetPolicy(config));
    }

    static SubsetIndex build(HostSet hosts, SubsetPolicy policy) {
        Map<String, RoaringBitmap>[] labels = labelBitmaps(hosts, policy);
        SubsetTrie.Editor editor = new SubsetTrie.Editor(SubsetTrie.empty(policy.keyCount()), policy.keyCount());
        Intersections intersections = new Intersections();
        for (int s = 0; s < policy.selectorCount(); s++) {
            int[] keys = policy.selectorKeys(s);
            addSubsets(hosts, labels, editor, intersections, keys, 0, new String[keys.length], hosts.healthyIndices());
        }
        return new SubsetIndex(policy, labels, editor.finish(), defaultSubset(hosts, policy, labels, null));
    }

    /**
     * One bitmap per label, appended in ascending host index. Hosts with equal labels usually
     * share one label map (the cluster interns them), so each distinct map is resolved to its
     * bitmap writers once and every other host costs one identity lookup.
     */
    @SuppressWarnings("unchecked")
    private static Map<String, RoaringBitmap>[] labelBitmaps(HostSet hosts, SubsetPolicy policy) {
        int keyCount = policy.keyCount();
        List<Map<String, RoaringBitmapWriter<RoaringBitmap>>> writers = new ArrayList<>(keyCount);
        for (int k = 0; k < keyCount; k++) {
            writers.add(new HashMap<>());
        }
        Map<Map<String, String>, RoaringBitmapWriter<RoaringBitmap>[]> byLabelMap = new IdentityHashMap<>();
        Host[] slots = hosts.slots();
        Map<String, String> lastLabels = null;
        RoaringBitmapWriter<RoaringBitmap>[] row = null;
        for (IntIterator it = hosts.occupied().getIntIterator(); it.hasNext(); ) {
            int slot = it.next();
            Map<String, String> hostLabels = slots[slot].labels();
            if (hostLabels != lastLabels) {
                row = byLabelMap.computeIfAbsent(hostLabels, l -> writersOf(l, policy, writers));
                lastLabels = hostLabels;
            }
            for (RoaringBitmapWriter<RoaringBitmap> writer : row) {
                if (writer != null) {
                    writer.add(slot);
                }
            }
        }
        Map<String, RoaringBitmap>[] labels = new Map[keyCount];
        for (int k = 0; k < keyCount; k++) {
            labels[k] = new HashMap<>(writers.get(k).size() * 2);
            for (Map.Entry<String, RoaringBitmapWriter<RoaringBitmap>> entry : writers.get(k).entrySet()) {
                labels[k].put(entry.getKey(), entry.getValue().get());
            }
        }
        return labels;
    }

    /** The writer of each key's value in {@code hostLabels}, null where the key is missing. */
    @SuppressWarnings("unchecked")
    private static RoaringBitmapWriter<RoaringBitmap>[] writersOf(Map<String, String> hostLabels, SubsetPolicy policy,
            List<Map<String, RoaringBitmapWriter<RoaringBitmap>>> writers) {
        RoaringBitmapWriter<RoaringBitmap>[] row = new RoaringBitmapWriter[policy.keyCount()];
        for (int k = 0; k < row.length; k++) {
            String value = hostLabels.get(policy.key(k));
            if (value != null) {
                row[k] = writers.get(k).computeIfAbsent(value, v -> RoaringBitmapWriter.writer().constantMemory().get());
            }
        }
        return row;
    }

    /** Adds a subset for every combination of values of {@code keys[depth..]} that has a healthy host. */
    private static void addSubsets(HostSet hosts, Map<String, RoaringBitmap>[] labels, SubsetTrie.Editor editor,
            Intersections intersections, int[] keys, int depth, String[] path, RoaringBitmap sofar) {
        for (Map.Entry<String, RoaringBitmap> label : labels[keys[depth]].entrySet()) {
            RoaringBitmap members = intersections.and(sofar, label.getValue());
            if (members.isEmpty()) {
                continue;
            }
            path[depth] = label.getKey();
            if (depth + 1 < keys.length) {
                addSubsets(hosts, labels, editor, intersections, keys, depth + 1, path, members);
            } else {
                editor.put(keys, path.clone(), intersections.candidates(hosts, members));
            }
        }
    }

    /** The default subset's candidates, reusing the ranks of {@code previous} (or null) when its hosts are the same. */
    private static HostCandidates defaultSubset(HostSet hosts, SubsetPolicy policy, Map<String, RoaringBitmap>[] labels,
            HostCandidates previous) {
        if (!policy.usesDefaultSubset()) {
            return null;
        }
        return HostCandidates.of(hosts.slots(), hosts.loads(), new Intersections().and(hosts.healthyIndices(), labels,
                policy.defaultKeys(), policy.defaultValues()), hosts.uniformWeights(), previous);
    }

    /**
     * The index of {@code next}, which differs from this index's host set by {@code changes}:
     * copies only the label bitmaps and trie paths those hosts touch. MUST be given every change.
     */
    SubsetIndex update(HostSet next, List<SlotChange> changes) {
        int keyCount = policy.keyCount();
        Map<String, RoaringBitmap>[] nextLabels = labels.clone();
        Set<Object> copied = Collections.newSetFromMap(new IdentityHashMap<>());
        TouchedSubsets touched = new TouchedSubsets(policy);
        Map<Map<String, String>, String[]> valuesByLabels = new IdentityHashMap<>();
        Set<Transition> seen = new HashSet<>();
        for (SlotChange change : changes) {
            String[] before = values(change.before(), valuesByLabels);
            String[] after = values(change.after(), valuesByLabels);
            boolean membersOnly = change.before() != null && change.after() != null
                    && change.before() != change.after() && change.before().weight() == change.after().weight();
            if (seen.add(new Transition(labelsOf(change.before()), labelsOf(change.after()), membersOnly))) {
                touch(touched, before, after, membersOnly);
            }
            for (int k = 0; k < keyCount; k++) {
                String was = before == null ? null : before[k];
                String is = after == null ? null : after[k];
                if (was != null && !was.equals(is)) {
                    RoaringBitmap bitmap = editableLabel(nextLabels, copied, k, was);
                    bitmap.remove(change.slot());
                    if (bitmap.isEmpty()) {
                        nextLabels[k].remove(was);
                    }
                }
                if (is != null && !is.equals(was)) {
                    editableLabel(nextLabels, copied, k, is).add(change.slot());
                }
            }
        }
        SubsetTrie.Editor editor = new SubsetTrie.Editor(root, keyCount);
        Intersections intersections = new Intersections();
        for (int i = 0; i < touched.capacity(); i++) {
            String[] hostValues = touched.values(i);
            if (hostValues == null) {
                continue;
            }
            int[] keys = policy.selectorKeys(touched.selector(i));
            String[] path = new String[keys.length];
            for (int j = 0; j < keys.length; j++) {
                path[j] = hostValues[keys[j]];
            }
            RoaringBitmap members = intersections.and(next.healthyIndices(), nextLabels, keys, path);
            editor.put(keys, path, intersections.candidates(next, members));
        }
        return new SubsetIndex(policy, nextLabels, editor.finish(), defaultSubset(next, policy, nextLabels, defaultSubset));
    }

    /**
     * One kind of change in an update: a host's labels before and after (null for no host), and
     * whether only its subset memberships change (a relabel keeping weight and health). Hosts
     * making the same change touch the same subsets, so each kind is looked at once.
     */
    private record Transition(Map<String, String> before, Map<String, String> after, boolean membersOnly) {
    }

    private static Map<String, String> labelsOf(Host host) {
        return host == null ? null : host.labels();
    }

    /** A host's label values by key number, or null for no host; hosts sharing a label map share the answer. */
    private String[] values(Host host, Map<Map<String, String>, String[]> valuesByLabels) {
        if (host == null) {
            return null;
        }
        String[] values = valuesByLabels.get(host.labels());
        if (values == null) {
            values = new String[policy.keyCount()];
            for (int k = 0; k < values.length; k++) {
                values[k] = host.labels().get(policy.key(k));
            }
            valuesByLabels.put(host.labels(), values);
        }
        return values;
    }

    /**
     * Marks the subsets a change alters: when {@code membersOnly}, those of the selectors whose
     * values differ before and after (the subset left and the one joined); otherwise every subset
     * the host belongs to before and after (its health, weight or presence changed).
     */
    private void touch(TouchedSubsets touched, String[] before, String[] after, boolean membersOnly) {
        for (int s = 0; s < policy.selectorCount(); s++) {
            boolean inBefore = before != null && covers(s, before);
            boolean inAfter = after != null && covers(s, after);
            if (membersOnly && inBefore == inAfter && (!inBefore || samePath(s, before, after))) {
                continue;
            }
            if (inBefore) {
                touched.add(s, before);
            }
            if (inAfter) {
                touched.add(s, after);
            }
        }
    }

    /** Whether a host with {@code hostValues} has every key of selector {@code s}. */
    private boolean covers(int s, String[] hostValues) {
        for (int key : policy.selectorKeys(s)) {
            if (hostValues[key] == null) {
                return false;
            }
        }
        return true;
    }

    private boolean samePath(int s, String[] a, String[] b) {
        for (int key : policy.selectorKeys(s)) {
            if (!a[key].equals(b[key])) {
                return false;
            }
        }
        return true;
    }

    private static RoaringBitmap editableLabel(Map<String, RoaringBitmap>[] labels, Set<Object> copied, int key,
            String value) {
        if (!copied.contains(labels[key])) {
            labels[key] = new HashMap<>(labels[key]);
            copied.add(labels[key]);
        }
        RoaringBitmap bitmap = labels[key].get(value);
        if (bitmap == null || !copied.contains(bitmap)) {
            bitmap = bitmap == null ? new RoaringBitmap() : bitmap.clone();
            copied.add(bitmap);
            labels[key].put(value, bitmap);
        }
        return bitmap;
    }

    /** Gives {@code action} every subset's healthy hosts and the default subset's, if any. */
    void forEachSubset(Consumer<HostCandidates> action) {
        root.forEachSubset(action);
        if (defaultSubset != null) {
            action.accept(defaultSubset);
        }
    }

    /**
     * The hosts for a request: the subset its metadata names, else the fallback chain of that
     * subset's selector, else the cluster's fallback policy; null when none has a healthy host.
     * A metadata value comes from the request header {@code prefix + key} when headers are read,
     * else from {@code metadataMatch}. Allocates nothing; counts the outcome in {@code stats}.
     */
    HostCandidates resolve(HostSet hosts, RouteRequest request, Map<String, String> metadataMatch, SubsetStats stats) {
        SubsetTrie.Node node = root;
        long mask = 0;
        int fromRoute = 0;
        for (int k = 0; k < policy.keyCount(); k++) {
            String routeValue = metadataMatch.get(policy.key(k));
            if (routeValue != null) {
                fromRoute++;
            }
            String value = value(k, request, routeValue);
            if (value == null) {
                continue;
            }
            mask |= 1L << k;
            node = node == null ? null : node.child(k, value);
        }
        int selector = fromRoute == metadataMatch.size() ? policy.selector(mask) : -1;
        if (selector >= 0 && node != null && node.subset() != null) {
            return stats.exact(node.subset());
        }
        while (selector >= 0) {
            switch (policy.selectorFallback(selector)) {
                case KEYS_SUBSET -> {
                    long fallbackMask = policy.fallbackMask(selector);
                    HostCandidates subset = find(fallbackMask, request, metadataMatch);
                    if (subset != null) {
                        return stats.keysSubset(subset);
                    }
                    selector = policy.selector(fallbackMask);
                }
                case NOT_DEFINED -> selector = -1;
                case NO_FALLBACK -> {
                    return stats.none();
                }
                case ANY_ENDPOINT -> {
                    return stats.policy(hosts.healthyCandidates());
                }
                case DEFAULT_SUBSET -> {
                    return stats.policy(defaultSubset);
                }
            }
        }
        return switch (policy.fallbackPolicy()) {
            case NO_FALLBACK -> stats.none();
            case ANY_ENDPOINT -> stats.policy(hosts.healthyCandidates());
            case DEFAULT_SUBSET -> stats.policy(defaultSubset);
        };
    }

    /** The subset of the keys in {@code mask} with the request's values for them, or null. */
    private HostCandidates find(long mask, RouteRequest request, Map<String, String> metadataMatch) {
        SubsetTrie.Node node = root;
        for (int k = 0; k < policy.keyCount() && node != null; k++) {
            if ((mask & (1L << k)) != 0) {
                node = node.child(k, value(k, request, metadataMatch.get(policy.key(k))));
            }
        }
        return node == null ? null : node.subset();
    }

    private String value(int key, RouteRequest request, String routeValue) {
        String header = policy.headerName(key);
        String value = header == null ? null : request.header(header);
        return value != null ? value : routeValue;
    }
}
