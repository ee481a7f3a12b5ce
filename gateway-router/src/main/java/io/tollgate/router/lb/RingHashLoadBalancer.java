package io.tollgate.router.lb;

import io.tollgate.router.host.Host;

/**
 * Consistent hashing on a ring ({@code ring_hash}): requests with the same hash go to the same
 * host, and a host joining or leaving moves only about its share of the keys. Lookup is a binary
 * search, O(log of the ring size), with no allocation; the ring is built once per candidates.
 */
final class RingHashLoadBalancer extends HashLoadBalancer<HashRing> {

    private final int minimumRingSize;
    private final int maximumRingSize;

    RingHashLoadBalancer(HashPolicy hashPolicy, int minimumRingSize, int maximumRingSize) {
        super(hashPolicy);
        this.minimumRingSize = minimumRingSize;
        this.maximumRingSize = maximumRingSize;
    }

    @Override
    HashRing build(Candidates candidates) {
        return HashRing.build(candidates, minimumRingSize, maximumRingSize);
    }

    @Override
    Host lookup(HashRing ring, Candidates candidates, long hash) {
        return ring.host(candidates, hash);
    }
}
