package io.tollgate.xds.translation;

import com.google.protobuf.Any;
import com.google.protobuf.ByteOutput;
import com.google.protobuf.ByteString;
import com.google.protobuf.CodedInputStream;
import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.UnsafeByteOperations;
import com.google.protobuf.WireFormat;
import io.envoyproxy.envoy.config.core.v3.HealthStatus;
import io.envoyproxy.envoy.config.core.v3.SocketAddress;
import io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment;
import io.envoyproxy.envoy.config.endpoint.v3.LbEndpoint;
import io.envoyproxy.envoy.config.endpoint.v3.LocalityLbEndpoints;
import io.tollgate.core.config.EndpointConfig;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Turns a {@code ClusterLoadAssignment} into the gateway's endpoints: address, port, weight and
 * the subset labels of the {@code envoy.lb} filter metadata. Endpoints the control plane marks
 * unhealthy, draining, timed out or degraded are left out, as Envoy leaves them out of load
 * balancing.
 *
 * <p>A push may carry tens of thousands of endpoints of which few changed, so an EDS response is
 * read incrementally: the assignment is walked in its encoded form, and each {@code LbEndpoint}
 * whose bytes are those of the last response for the same cluster takes the translation made then
 * (the same {@link EndpointConfig} object, which the cluster recognizes as unchanged); only the
 * others are decoded and checked. The walk reads the response's own array (see
 * {@link io.tollgate.xds.transport.AliasingMarshaller}) and compares an endpoint's bytes there with a copy kept of the
 * last ones, first at the same position: no object per endpoint, a vectorized comparison, a
 * cost in proportion to the response's bytes and the endpoints changed. Endpoints go straight
 * into {@link EndpointConfig} records, which check the file's ranges themselves; addresses must be
 * unique as in the file. One instance per client, used on its control thread.
 */
final class EndpointTranslator {

    private static final Set<HealthStatus> SERVING = Set.of(HealthStatus.UNKNOWN, HealthStatus.HEALTHY);
    private static final Set<String> ASSIGNMENT_FIELDS = Set.of("cluster_name", "endpoints");
    /**
     * A locality's {@code load_balancing_weight} (Istio sends the sum of its endpoints') counts in
     * Envoy only for clusters with {@code locality_weighted_lb_config}, which the gateway refuses.
     */
    private static final Set<String> LOCALITY_FIELDS = Set.of("locality", "lb_endpoints", "load_balancing_weight");
    private static final Set<String> LB_ENDPOINT_FIELDS = Set.of("endpoint", "load_balancing_weight", "metadata",
            "health_status");
    private static final Set<String> ENDPOINT_FIELDS = Set.of("address");
    private static final int ENDPOINTS_TAG = delimitedTag(ClusterLoadAssignment.ENDPOINTS_FIELD_NUMBER);
    private static final int LB_ENDPOINTS_TAG = delimitedTag(LocalityLbEndpoints.LB_ENDPOINTS_FIELD_NUMBER);

    /** One endpoint's translation: null {@code endpoint} when it is left out; {@code key} is its address:port. */
    private record Translated(EndpointConfig endpoint, String key) {
    }

    /** The endpoints of one EDS resource. */
    record Assignment(String clusterName, List<EndpointConfig> endpoints) {
    }

    /** A range of an array holding one encoded endpoint, equal to another by its bytes. */
    private static class Encoded {
        final byte[] array;
        final int from;
        final int to;
        private final int hash;

        Encoded(byte[] array, int from, int to) {
            this.array = array;
            this.from = from;
            this.to = to;
            int h = 1;
            for (int i = from; i < to; i++) {
                h = 31 * h + array[i];
            }
            this.hash = h;
        }

        boolean sameBytes(byte[] other, int otherFrom, int otherTo) {
            return Arrays.equals(array, from, to, other, otherFrom, otherTo);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Encoded e && e.hash == hash && sameBytes(e.array, e.from, e.to);
        }

        @Override
        public int hashCode() {
            return hash;
        }
    }

    /**
     * One encoded endpoint (a copy of its own: a response's array would stay alive as long as the
     * endpoint), its translation, and where it was in the response of generation {@code generation}.
     */
    private static final class Entry extends Encoded {
        final EndpointConfig endpoint;
        final String key;
        long generation;
        int locality;
        int index;

        Entry(byte[] bytes, Translated translated) {
            super(bytes, 0, bytes.length);
            this.endpoint = translated.endpoint();
            this.key = translated.key();
        }
    }

    /** The endpoints of one cluster's last response, in order, by their encoded bytes and by their address:port. */
    private static final class Known {
        final Map<Encoded, Entry> byBytes = new HashMap<>();
        final Map<String, Entry> byKey = new HashMap<>();
        List<Entry> inOrder = List.of();
        long generation;
    }

    /** By cluster name. */
    private final Map<String, Known> known = new HashMap<>();
    /** Where the endpoints of the locality being read are in its response, reused from one to the next. */
    private final Ranges lbEndpoints = new Ranges();

    /** The endpoints of one resource of an EDS response, {@code resource} being checked to be a {@code ClusterLoadAssignment}. */
    Assignment translate(Any resource) {
        ResourceType.ENDPOINT.check(resource);
        Region value = Region.of(resource.getValue());
        byte[] array = value.array();
        Ranges localities = new Ranges();
        ClusterLoadAssignment shell;
        try {
            shell = ClusterLoadAssignment.parseFrom(split(value, ENDPOINTS_TAG, localities));
        } catch (IOException e) {
            throw new XdsRejection("ClusterLoadAssignment: cannot be decoded: " + e.getMessage());
        }
        String name = shell.getClusterName();
        String at = "ClusterLoadAssignment '" + name + "'";
        try {
            Fields.allowOnly(shell, at, ASSIGNMENT_FIELDS);
            Known cluster = known.computeIfAbsent(name, n -> new Known());
            long generation = ++cluster.generation;
            List<Entry> before = cluster.inOrder;
            List<EndpointConfig> endpoints = new ArrayList<>(before.size() + 16);
            List<Entry> added = new ArrayList<>();
            // the entries of the last response not found at their position: those of them not found elsewhere are gone
            List<Entry> displaced = new ArrayList<>();
            List<Entry> inOrder = new ArrayList<>(before.size() + 16);
            for (int l = 0; l < localities.size(); l++) {
                lbEndpoints.clear();
                LocalityLbEndpoints locality = LocalityLbEndpoints.parseFrom(split(new Region(array, localities.from(l),
                        localities.to(l)), LB_ENDPOINTS_TAG, lbEndpoints));
                Fields.allowOnly(locality, at + ".endpoints[" + l + "]", LOCALITY_FIELDS);
                for (int e = 0; e < lbEndpoints.size(); e++) {
                    int from = lbEndpoints.from(e);
                    int to = lbEndpoints.to(e);
                    // Most pushes list the endpoints in the same order: the one at this position last time first.
                    int position = inOrder.size();
                    Entry there = position < before.size() ? before.get(position) : null;
                    Entry entry = there;
                    if (there == null || !there.sameBytes(array, from, to)) {
                        if (there != null) {
                            displaced.add(there);
                        }
                        entry = cluster.byBytes.get(new Encoded(array, from, to));
                    }
                    if (entry == null || entry.generation == generation) {
                        // new, or the same bytes twice in this response: checked, and its address:port compared below
                        entry = new Entry(Arrays.copyOfRange(array, from, to),
                                endpoint(LbEndpoint.parser().parseFrom(array, from, to - from), path(at, l, e)));
                        added.add(entry);
                    }
                    entry.generation = generation;
                    entry.locality = l;
                    entry.index = e;
                    inOrder.add(entry);
                    if (entry.endpoint != null) {
                        endpoints.add(entry.endpoint);
                    }
                }
            }
            displaced.addAll(before.subList(Math.min(inOrder.size(), before.size()), before.size()));
            checkUnique(cluster, added, generation, at);
            for (Entry entry : displaced) {
                if (entry.generation != generation) {
                    // entries equal by their bytes may be different ones (the same bytes twice): removed only if mapped
                    if (cluster.byBytes.get(entry) == entry) {
                        cluster.byBytes.remove(entry);
                    }
                    if (entry.endpoint != null && cluster.byKey.get(entry.key) == entry) {
                        cluster.byKey.remove(entry.key);
                    }
                }
            }
            for (Entry entry : added) {
                cluster.byBytes.putIfAbsent(entry, entry);
                if (entry.endpoint != null) {
                    cluster.byKey.put(entry.key, entry);
                }
            }
            cluster.inOrder = inOrder;
            return new Assignment(name, endpoints);
        } catch (IOException e) {
            throw new XdsRejection(at + ": cannot be decoded: " + e.getMessage()).of(name);
        } catch (XdsRejection e) {
            throw e.of(name);
        }
    }

    /**
     * Refuses an address:port given twice. The endpoints carried over from the last response were
     * unique then, so only those added can repeat one: each is compared with the others added and
     * with the carried-over endpoint of its address:port, if that one is still in this response.
     */
    private static void checkUnique(Known cluster, List<Entry> added, long generation, String at) {
        Map<String, Entry> addedByKey = new HashMap<>();
        for (Entry entry : added) {
            String key = entry.key;
            if (entry.endpoint == null) {
                continue;
            }
            Entry other = addedByKey.putIfAbsent(key, entry);
            if (other == null) {
                Entry carried = cluster.byKey.get(key);
                other = carried != null && carried.generation == generation && carried != entry ? carried : null;
            }
            if (other != null) {
                boolean otherFirst = other.locality < entry.locality
                        || (other.locality == entry.locality && other.index < entry.index);
                Entry first = otherFirst ? other : entry;
                Entry second = otherFirst ? entry : other;
                throw new XdsRejection(path(at, second.locality, second.index) + ": address:port '" + key
                        + "' is already used by " + path(at, first.locality, first.index)
                        + " (expected each address:port once)");
            }
        }
    }

    private static String path(String at, int locality, int index) {
        return at + ".endpoints[" + locality + "].lb_endpoints[" + index + "]";
    }

    /** Forgets the endpoints of the clusters other than {@code names}. */
    void retain(List<String> names) {
        known.keySet().retainAll(names);
    }

    /** The endpoints of {@code assignment} (a STATIC cluster's), which {@code at} names in errors. */
    static List<EndpointConfig> endpoints(ClusterLoadAssignment assignment, String at) {
        Fields.allowOnly(assignment, at, ASSIGNMENT_FIELDS);
        List<EndpointConfig> endpoints = new ArrayList<>();
        Map<String, String> seen = new HashMap<>();
        for (int l = 0; l < assignment.getEndpointsCount(); l++) {
            LocalityLbEndpoints locality = assignment.getEndpoints(l);
            String where = at + ".endpoints[" + l + "]";
            Fields.allowOnly(locality, where, LOCALITY_FIELDS);
            for (int e = 0; e < locality.getLbEndpointsCount(); e++) {
                String here = where + ".lb_endpoints[" + e + "]";
                add(endpoint(locality.getLbEndpoints(e), here), here, endpoints, seen);
            }
        }
        return endpoints;
    }

    private static Translated endpoint(LbEndpoint endpoint, String here) {
        Fields.allowOnly(endpoint, here, LB_ENDPOINT_FIELDS);
        if (!SERVING.contains(endpoint.getHealthStatus())) {
            return new Translated(null, null);
        }
        Fields.allowOnly(endpoint.getEndpoint(), here + ".endpoint", ENDPOINT_FIELDS);
        SocketAddress socket = ListenerTranslator.socketAddress(endpoint.getEndpoint().getAddress(),
                here + ".endpoint.address");
        Map<String, String> labels = endpoint.hasMetadata()
                ? SubsetTranslator.labels(endpoint.getMetadata(), here + ".metadata") : Map.of();
        int weight = endpoint.hasLoadBalancingWeight() ? endpoint.getLoadBalancingWeight().getValue() : 1;
        try {
            return new Translated(new EndpointConfig(socket.getAddress(), socket.getPortValue(), weight, labels),
                    socket.getAddress() + ":" + socket.getPortValue());
        } catch (IllegalArgumentException ex) {
            throw new XdsRejection(here + ": " + ex.getMessage());
        }
    }

    /** Adds a served endpoint to {@code endpoints}, refusing an address:port given twice. */
    private static void add(Translated translated, String here, List<EndpointConfig> endpoints, Map<String, String> seen) {
        if (translated.endpoint() == null) {
            return;
        }
        String first = seen.putIfAbsent(translated.key(), here);
        if (first != null) {
            throw new XdsRejection(here + ": address:port '" + translated.key() + "' is already used by " + first
                    + " (expected each address:port once)");
        }
        endpoints.add(translated.endpoint());
    }

    /**
     * {@code message} without its fields of tag {@code tag} (a repeated message field), which are
     * added to {@code taken} in order, still encoded: as ranges of {@code message}'s array, not
     * copies (a push's endpoints would be copied twice, about 9 MiB of garbage for 50,000 of them).
     */
    private static byte[] split(Region message, int tag, Ranges taken) throws IOException {
        CodedInputStream in = CodedInputStream.newInstance(message.array(), message.from(), message.to() - message.from());
        ByteArrayOutputStream rest = new ByteArrayOutputStream();
        CodedOutputStream out = CodedOutputStream.newInstance(rest);
        for (int read = in.readTag(); read != 0; read = in.readTag()) {
            if (read == tag) {
                int length = in.readRawVarint32();
                int from = message.from() + in.getTotalBytesRead();
                in.skipRawBytes(length);
                taken.add(from, from + length);
            } else if (!in.skipField(read, out)) {
                break;
            }
        }
        out.flush();
        return rest.toByteArray();
    }

    /** Ranges of one array, {@code from} (inclusive) to {@code to} (exclusive), without an object for each. */
    private static final class Ranges {
        private int[] bounds = new int[32];
        private int size;

        void add(int from, int to) {
            if (2 * size + 2 > bounds.length) {
                bounds = Arrays.copyOf(bounds, bounds.length * 2);
            }
            bounds[2 * size] = from;
            bounds[2 * size + 1] = to;
            size++;
        }

        int size() {
            return size;
        }

        int from(int i) {
            return bounds[2 * i];
        }

        int to(int i) {
            return bounds[2 * i + 1];
        }

        void clear() {
            size = 0;
        }
    }

    /** Bytes {@code from} (inclusive) to {@code to} (exclusive) of {@code array}, which nobody changes. */
    private record Region(byte[] array, int from, int to) {

        /** The bytes of {@code bytes}: its own array when it has one (as parsed with aliasing), else a copy. */
        static Region of(ByteString bytes) {
            ArrayOf found = new ArrayOf();
            try {
                UnsafeByteOperations.unsafeWriteTo(bytes, found);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return found.region() != null ? found.region() : new Region(bytes.toByteArray(), 0, bytes.size());
        }
    }

    /** Where a {@link ByteString} keeps its bytes: {@link #region} when they are one range of one array. */
    private static final class ArrayOf extends ByteOutput {
        private Region region;
        private boolean pieces;

        @Override
        public void writeLazy(byte[] value, int offset, int length) {
            pieces |= region != null;
            region = new Region(value, offset, offset + length);
        }

        @Override
        public void write(byte value) {
            pieces = true;
        }

        @Override
        public void write(byte[] value, int offset, int length) {
            pieces = true;
        }

        @Override
        public void write(ByteBuffer value) {
            pieces = true;
        }

        @Override
        public void writeLazy(ByteBuffer value) {
            pieces = true;
        }

        /** The one range written, or null. */
        Region region() {
            return pieces ? null : region;
        }
    }

    private static int delimitedTag(int fieldNumber) {
        return fieldNumber << 3 | WireFormat.WIRETYPE_LENGTH_DELIMITED;
    }
}
