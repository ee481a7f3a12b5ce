package io.tollgate.filters.trace;

/**
 * SOFATracer's rpc ids: a dotted path where {@code 0} is a trace's root and {@code 0.1} its first
 * child. The gateway's span keeps the caller's id; the upstream's span is its first child.
 */
final class SofaRpcIds {

    private static final String ROOT = "0";

    private SofaRpcIds() {
    }

    /** The first child of {@code rpcId}, of the root when it is null, empty or not a dotted number path. */
    static String child(String rpcId) {
        return (isRpcId(rpcId) ? rpcId : ROOT) + ".1";
    }

    private static boolean isRpcId(String value) {
        if (value == null || value.isEmpty() || value.length() > 256) {
            return false;
        }
        boolean digitBefore = false;
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c >= '0' && c <= '9') {
                digitBefore = true;
            } else if (c == '.' && digitBefore) {
                digitBefore = false;
            } else {
                return false;
            }
        }
        return digitBefore;
    }
}
