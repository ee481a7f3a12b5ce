package io.tollgate.core.filter;

import io.micrometer.core.instrument.MeterRegistry;

/**
 * Where a filter is made for: its listener, the route whose override made it (null for the
 * listener's chain), and the registry its meters go in, tagged by listener (and route) so that
 * two chains' counts stay apart.
 *
 * @param listener the listener's name
 * @param route the route's name, or null for the listener's own chain
 * @param meters the process's meter registry
 */
public record FilterScope(String listener, String route, MeterRegistry meters) {
}
