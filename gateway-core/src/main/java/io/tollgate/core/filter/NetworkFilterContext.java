package io.tollgate.core.filter;

import io.micrometer.core.instrument.MeterRegistry;

/**
 * What a {@link NetworkFilterFactory} is given when it prepares its filter for one listener.
 *
 * @param listener the listener's name, for the filter's meters and logs
 * @param meters where the filter registers its meters ({@code tollgate.*} names)
 */
public record NetworkFilterContext(String listener, MeterRegistry meters) {
}
