package io.tollgate.xds;

import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Message;
import java.util.Set;
import java.util.TreeSet;

/**
 * Refuses a message that sets a field the gateway does not implement: a setting the control
 * plane asked for is applied or rejected, never dropped without a word.
 */
final class Fields {

    private Fields() {
    }

    /**
     * Fails when {@code message} sets a field outside {@code supported}, or carries fields unknown
     * to this version of the API; {@code at} names the message in the error.
     */
    static void allowOnly(Message message, String at, Set<String> supported) {
        for (FieldDescriptor field : message.getAllFields().keySet()) {
            if (!supported.contains(field.getName())) {
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
