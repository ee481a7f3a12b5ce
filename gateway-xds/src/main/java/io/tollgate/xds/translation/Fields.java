package io.tollgate.xds.translation;

import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Message;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Refuses a message that sets a field the gateway does not implement: a setting the control
 * plane asked for is applied or rejected, never dropped without a word.
 */
final class Fields {

    /**
     * The fields outside a supported set, per message type and set: computed once, so that a check
     * of one of 50,000 endpoints looks at the few fields it must not have, not at all of them.
     */
    private static final Map<Descriptor, Map<Set<String>, List<FieldDescriptor>>> UNSUPPORTED = new ConcurrentHashMap<>();

    private Fields() {
    }

    /**
     * Fails when {@code message} sets a field outside {@code supported}, or carries fields unknown
     * to this version of the API; {@code at} names the message in the error.
     */
    static void allowOnly(Message message, String at, Set<String> supported) {
        List<FieldDescriptor> unsupported = UNSUPPORTED.computeIfAbsent(message.getDescriptorForType(),
                d -> new ConcurrentHashMap<>()).computeIfAbsent(supported, s -> message.getDescriptorForType()
                        .getFields().stream().filter(f -> !s.contains(f.getName())).toList());
        for (FieldDescriptor field : unsupported) {
            boolean set = field.isRepeated() ? message.getRepeatedFieldCount(field) > 0 : message.hasField(field);
            if (set) {
                throw new XdsRejection(at + "." + field.getName() + ": not supported (supported: "
                        + new TreeSet<>(supported) + ")");
            }
        }
        if (!message.getUnknownFields().asMap().isEmpty()) {
            throw new XdsRejection(at + ": fields unknown to this gateway, numbers "
                    + message.getUnknownFields().asMap().keySet());
        }
    }

    /** A protobuf duration as the configuration file writes one, in whole milliseconds (at least 1 when not zero). */
    static String duration(com.google.protobuf.Duration duration) {
        long millis = duration.getSeconds() * 1000 + duration.getNanos() / 1_000_000;
        if (millis == 0 && duration.getNanos() > 0) {
            millis = 1;
        }
        return millis + "ms";
    }
}
