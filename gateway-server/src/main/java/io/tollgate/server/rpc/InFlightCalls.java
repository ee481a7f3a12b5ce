package io.tollgate.server.rpc;

/**
 * The two-way calls of one downstream connection that have not ended yet, so that the
 * connection's close can end each of them at once. A list threaded through the calls themselves:
 * adding and removing one allocates nothing. Confined to the connection's event loop.
 */
final class InFlightCalls {

    private RpcCall head;

    void add(RpcCall call) {
        call.next = head;
        call.previous = null;
        if (head != null) {
            head.previous = call;
        }
        head = call;
    }

    /** Removes a call that ended; nothing happens when it is no longer in the list. */
    void remove(RpcCall call) {
        if (call.previous == null && head != call) {
            return;
        }
        if (call.previous == null) {
            head = call.next;
        } else {
            call.previous.next = call.next;
        }
        if (call.next != null) {
            call.next.previous = call.previous;
        }
        call.previous = null;
        call.next = null;
    }

    boolean isEmpty() {
        return head == null;
    }

    /** Removes and returns the first call, or null when none is left. */
    RpcCall poll() {
        RpcCall call = head;
        if (call != null) {
            remove(call);
        }
        return call;
    }
}
