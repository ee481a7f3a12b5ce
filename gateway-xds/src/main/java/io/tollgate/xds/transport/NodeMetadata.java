package io.tollgate.xds.transport;

import com.google.protobuf.ListValue;
import com.google.protobuf.NullValue;
import com.google.protobuf.Struct;
import com.google.protobuf.Value;
import java.util.List;
import java.util.Map;

/**
 * The node's metadata as the protobuf {@code Struct} Envoy sends: control planes select by
 * structured values (Istio by its {@code LABELS} mapping, and reads {@code NAMESPACE},
 * {@code CLUSTER_ID}, {@code ISTIO_VERSION} ... beside it), so mappings, lists, numbers and
 * booleans keep their shape.
 */
final class NodeMetadata {

    private NodeMetadata() {
    }

    /** {@code metadata}'s values, as the configuration reader gives them, in a {@code Struct}. */
    static Struct struct(Map<String, ?> metadata) {
        Struct.Builder struct = Struct.newBuilder();
        metadata.forEach((key, value) -> struct.putFields(key, value(value)));
        return struct.build();
    }

    private static Value value(Object value) {
        Value.Builder v = Value.newBuilder();
        if (value == null) {
            return v.setNullValue(NullValue.NULL_VALUE).build();
        }
        if (value instanceof Map<?, ?> map) {
            Struct.Builder struct = Struct.newBuilder();
            map.forEach((key, inner) -> struct.putFields(String.valueOf(key), value(inner)));
            return v.setStructValue(struct).build();
        }
        if (value instanceof List<?> list) {
            ListValue.Builder values = ListValue.newBuilder();
            list.forEach(inner -> values.addValues(value(inner)));
            return v.setListValue(values).build();
        }
        if (value instanceof Number number) {
            return v.setNumberValue(number.doubleValue()).build();
        }
        if (value instanceof Boolean bool) {
            return v.setBoolValue(bool).build();
        }
        return v.setStringValue(value.toString()).build();
    }
}
