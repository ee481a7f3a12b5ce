package io.tollgate.server.listener;

import io.netty.channel.RecvByteBufAllocator;
import io.netty.channel.ServerChannelRecvByteBufAllocator;

/**
 * How many pending connections a listener accepts in one wake-up of its event loop: every one the
 * kernel holds, up to {@link #MAX_PER_WAKE_UP}, so that a burst of new connections is not served
 * one per loop turn behind the requests of those already accepted.
 *
 * <p>Netty 4.2's epoll server channel stops its accept loop as soon as the read handle says no
 * more data may be pending, and for an accept that handle compares the accepted file descriptor
 * with an "attempted" count of one: they never match, so exactly one connection is accepted per
 * wake-up whatever {@code maxMessagesPerRead} says. Not respecting that guess makes the loop run
 * until {@code accept} reports nothing pending or the cap is reached.
 */
final class AcceptBatch {

    /**
     * Upper bound of connections accepted in one wake-up, so that a flood of connections still
     * leaves the loop turns for the requests of connections already served.
     */
    static final int MAX_PER_WAKE_UP = 256;

    private AcceptBatch() {
    }

    /** A new allocator for one server channel: accepts until nothing is pending, at most {@link #MAX_PER_WAKE_UP}. */
    static RecvByteBufAllocator allocator() {
        return new ServerChannelRecvByteBufAllocator()
                .respectMaybeMoreData(false)
                .maxMessagesPerRead(MAX_PER_WAKE_UP);
    }
}
