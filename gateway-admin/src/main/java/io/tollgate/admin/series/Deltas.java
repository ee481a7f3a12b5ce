package io.tollgate.admin.series;

import java.util.HashMap;
import java.util.Map;

/**
 * How much each of a set of cumulative totals grew since the previous round: a counter read once
 * a second becomes a rate. A key not seen in a round is forgotten, so a removed route or cluster
 * leaves nothing behind; a total that went back (its meter was removed and made again) counts
 * from zero.
 */
final class Deltas {

    private Map<String, Double> previous;
    private Map<String, Double> current = new HashMap<>();

    /** Adds to {@code key}'s total of this round (a key may sum several meters). */
    void add(String key, double total) {
        current.merge(key, total, Double::sum);
    }

    /**
     * Ends a round: returns each key's growth since the previous round (a key new since then grew
     * by its whole total; in the first round nothing is known and every growth is 0), and
     * remembers this round's totals for the next.
     */
    Map<String, Double> endRound() {
        Map<String, Double> grown = new HashMap<>();
        for (Map.Entry<String, Double> e : current.entrySet()) {
            double now = e.getValue();
            double before = previous == null ? now : previous.getOrDefault(e.getKey(), 0.0);
            grown.put(e.getKey(), now >= before ? now - before : now);
        }
        previous = current;
        current = new HashMap<>();
        return grown;
    }
}
