package io.tollgate.core.config;

/**
 * One filter of a chain as configured: its name, the registered kind of filter it is, and the
 * settings that kind's {@link io.tollgate.core.filter.StreamFilterFactory} read, an immutable object of the factory's own
 * type. The name is what routes' overrides are keyed by; it is the kind unless the configuration
 * names the filter otherwise (as Envoy's HTTP filters have a name of their own beside their type),
 * and filters of one kind may share it. In a route's {@code filters} block the entry may instead
 * disable the listener's filters of that name for the route.
 *
 * @param name the filter's name in its chain
 * @param kind the registered name of its factory
 * @param disabled whether this entry turns the filter off (on a listener: it runs only where a route gives it settings)
 * @param settings what the factory read, null until it did, or when disabled
 */
public record StreamFilterConfig(String name, String kind, boolean disabled, Object settings) {

    /** The entry of a {@code kind} filter named after its kind, before its factory read it. */
    public static StreamFilterConfig named(String kind) {
        return named(kind, kind);
    }

    /** The entry of a {@code kind} filter named {@code name}, before its factory read it. */
    public static StreamFilterConfig named(String name, String kind) {
        return new StreamFilterConfig(name, kind, false, null);
    }

    /** This entry turned off, without settings. */
    public StreamFilterConfig asDisabled() {
        return new StreamFilterConfig(name, kind, true, null);
    }

    /** This entry with {@code settings}. */
    public StreamFilterConfig withSettings(Object settings) {
        return new StreamFilterConfig(name, kind, disabled, settings);
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
