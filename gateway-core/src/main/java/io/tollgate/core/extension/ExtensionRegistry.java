package io.tollgate.core.extension;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Every {@link ExtensionFactory} of the process, keyed by kind (the factory's
 * {@link ExtensionFactory#configType() configuration type}) and by name within the kind, so that
 * configuration selects an extension by name and nothing keeps a copy of the names. Immutable and
 * built once, before the first configuration is loaded: a name registered twice in one kind fails
 * the build with both classes named. The same name may stand in two kinds ({@code bolt} is a
 * protocol and a health check). Lookups happen when a configuration is loaded or compiled, never
 * per request.
 */
public final class ExtensionRegistry {

    private static volatile ExtensionRegistry defaults;

    /** Per kind, the factories by name, sorted so that messages listing them are stable. */
    private final Map<Class<?>, SortedMap<String, ExtensionFactory<?>>> kinds;

    private ExtensionRegistry(Map<Class<?>, SortedMap<String, ExtensionFactory<?>>> kinds) {
        this.kinds = kinds;
    }

    /**
     * The registry of the factories listed in {@code META-INF/services} on the class path of this
     * class's loader, built on first use and kept for the life of the process. What
     * {@code ConfigLoader} uses unless given another, and what the modules running the extensions
     * look names up in.
     *
     * @throws ExtensionRegistryException when a name is registered twice in one kind, or a listed
     *     factory cannot be loaded; the next call tries again
     */
    public static ExtensionRegistry defaults() {
        ExtensionRegistry registry = defaults;
        if (registry != null) {
            return registry;
        }
        synchronized (ExtensionRegistry.class) {
            if (defaults == null) {
                defaults = load(ExtensionRegistry.class.getClassLoader());
            }
            return defaults;
        }
    }

    /**
     * A registry of the factories {@link ServiceLoader} finds through {@code loader}.
     *
     * @throws ExtensionRegistryException when a name is registered twice in one kind, or a listed
     *     factory cannot be loaded
     */
    public static ExtensionRegistry load(ClassLoader loader) {
        List<ExtensionFactory<?>> factories = new ArrayList<>();
        try {
            for (ExtensionFactory<?> factory : ServiceLoader.load(ExtensionFactory.class, loader)) {
                factories.add(factory);
            }
        } catch (ServiceConfigurationError e) {
            throw new ExtensionRegistryException("cannot load the extension factories: " + e.getMessage(), e);
        }
        return of(factories);
    }

    /**
     * A registry of exactly {@code factories}, for tests and embedders.
     *
     * @throws ExtensionRegistryException when a name is registered twice in one kind
     */
    public static ExtensionRegistry of(Collection<? extends ExtensionFactory<?>> factories) {
        Map<Class<?>, SortedMap<String, ExtensionFactory<?>>> kinds = new HashMap<>();
        for (ExtensionFactory<?> factory : factories) {
            Class<?> type = requireNonNull(factory.configType(), () -> factory.getClass().getName() + ".configType()");
            String name = requireNonNull(factory.name(), () -> factory.getClass().getName() + ".name()");
            if (name.isEmpty()) {
                throw new ExtensionRegistryException(factory.getClass().getName() + ": name '' (expected a non-empty name)");
            }
            requireNonNull(factory.keys(), () -> factory.getClass().getName() + ".keys()");
            ExtensionFactory<?> earlier = kinds.computeIfAbsent(type, t -> new TreeMap<>()).putIfAbsent(name, factory);
            if (earlier != null) {
                throw new ExtensionRegistryException(type.getSimpleName() + " extension '" + name
                        + "' is registered twice: by " + earlier.getClass().getName() + " and by "
                        + factory.getClass().getName() + " (expected each name once per kind)");
            }
        }
        Map<Class<?>, SortedMap<String, ExtensionFactory<?>>> frozen = new HashMap<>();
        kinds.forEach((type, byName) -> frozen.put(type, Collections.unmodifiableSortedMap(byName)));
        return new ExtensionRegistry(Map.copyOf(frozen));
    }

    /** The names registered in the kind {@code configType}, sorted; empty when it has none. */
    public SortedSet<String> names(Class<?> configType) {
        return Collections.unmodifiableSortedSet(new TreeSet<>(kind(configType).keySet()));
    }

    /** The factory of the kind {@code configType} registered as {@code name}, if any. */
    public <C> Optional<ExtensionFactory<C>> find(Class<C> configType, String name) {
        @SuppressWarnings("unchecked") // of() files every factory under its own configType()
        ExtensionFactory<C> factory = (ExtensionFactory<C>) kind(configType).get(name);
        return Optional.ofNullable(factory);
    }

    /**
     * {@link #find(Class, String)} as the kind's own factory interface {@code as}, the one that
     * makes the runtime object.
     *
     * @throws ExtensionRegistryException when the factory registered as {@code name} is not an {@code as}
     */
    public <C, F extends ExtensionFactory<C>> Optional<F> find(Class<C> configType, String name, Class<F> as) {
        return find(configType, name).map(factory -> {
            if (!as.isInstance(factory)) {
                throw new ExtensionRegistryException(factory.getClass().getName() + " is registered as "
                        + configType.getSimpleName() + " extension '" + name + "' but is not a " + as.getName());
            }
            return as.cast(factory);
        });
    }

    /** Every key some extension of the kind {@code configType} reads ({@link ExtensionFactory#keys()}), sorted. */
    public SortedSet<String> keys(Class<?> configType) {
        SortedSet<String> keys = new TreeSet<>();
        kind(configType).values().forEach(factory -> keys.addAll(factory.keys()));
        return Collections.unmodifiableSortedSet(keys);
    }

    private SortedMap<String, ExtensionFactory<?>> kind(Class<?> configType) {
        return kinds.getOrDefault(requireNonNull(configType, "configType"), Collections.emptySortedMap());
    }

    /** The names by kind, e.g. {@code ExtensionRegistry{HealthCheckConfig=[bolt, http, tcp], ...}}. */
    @Override
    public String toString() {
        Map<String, SortedSet<String>> byKind = new TreeMap<>();
        kinds.keySet().forEach(type -> byKind.put(type.getSimpleName(), names(type)));
        return "ExtensionRegistry" + byKind;
    }
}
