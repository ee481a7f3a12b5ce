package io.tollgate.router.originaldst;

import io.tollgate.core.metrics.OriginalDstCounts;
import java.util.concurrent.atomic.LongAdder;

/** The live counts of one {@link OriginalDstHosts}, added to by every event loop. */
final class DestinationCounts implements OriginalDstCounts {

    final LongAdder notRedirected = new LongAdder();
    final LongAdder badHeader = new LongAdder();
    final LongAdder overflow = new LongAdder();
    final LongAdder hostsMade = new LongAdder();
    final LongAdder hostsDropped = new LongAdder();

    @Override
    public long notRedirected() {
        return notRedirected.sum();
    }

    @Override
    public long badHeader() {
        return badHeader.sum();
    }

    @Override
    public long overflow() {
        return overflow.sum();
    }

    @Override
    public long hostsMade() {
        return hostsMade.sum();
    }

    @Override
    public long hostsDropped() {
        return hostsDropped.sum();
    }
}
