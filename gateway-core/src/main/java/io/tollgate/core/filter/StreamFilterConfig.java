package io.tollgate.core.filter;

/**
 * One filter of a chain as configured: the filter's registered name, and the settings its
 * {@link StreamFilterFactory} read, an immutable object of the factory's own type. In a route's
 * {@code filters} block the entry may instead disable the listener's filter of that name for the
 * route.
 *
 * @param name the registered name of the filter
 * @param disabled whether this entry turns the filter off (only in a route's overrides)
 * @param settings what the factory read, null until it did, or when disabled
 */
public record StreamFilterConfig(String name, boolean disabled, Object settings) {

    /** The entry before its factory read it: enabled, no settings. */
    public static StreamFilterConfig named(String name) {
        return new StreamFilterConfig(name, false, null);
    }

    /** This entry with {@code settings}. */
    public StreamFilterConfig withSettings(Object settings) {
        return new StreamFilterConfig(name, disabled, settings);
    }

    /**
     * The settings as the factory's type.
     *
     * @throws ClassCastException when they are of another type
     */
    public <T> T settings(Class<T> type) {
        return type.cast(settings);
    }
}
