package io.tollgate.server.rpc;

import io.netty.channel.Channel;

/**
 * A channel the RPC engine writes to without flushing while a read batch lasts; {@link RpcLoop}
 * flushes it once when the batch ends, so that many frames leave in one syscall.
 */
final class BatchedChannel {

    private final Channel channel;
    private boolean queued;

    BatchedChannel(Channel channel) {
        this.channel = channel;
    }

    Channel channel() {
        return channel;
    }

    /** Marks the channel as written to; true when it was not yet waiting for the batch's flush. */
    boolean queue() {
        if (queued) {
            return false;
        }
        queued = true;
        return true;
    }

    void flush() {
        queued = false;
        channel.flush();
    }
}
