package io.tollgate.router.lb;

import io.tollgate.router.host.Host;

/**
 * Maglev consistent hashing ({@code maglev}): like {@code ring_hash}, requests with the same
 * hash go to the same host and a change of hosts moves few keys, with an O(1) lookup in a table
 * of a fixed prime size, rebuilt from the available hosts of each version.
 */
final class MaglevLoadBalancer extends HashLoadBalancer<MaglevTable> {

    private final int tableSize;

    MaglevLoadBalancer(HashPolicy hashPolicy, int tableSize) {
        super(hashPolicy);
        this.tableSize = tableSize;
    }

    @Override
    MaglevTable build(Candidates candidates) {
        return MaglevTable.build(candidates, tableSize);
    }

    @Override
    Host lookup(MaglevTable table, Candidates candidates, long hash) {
        return table.host(candidates, hash);
    }
}
