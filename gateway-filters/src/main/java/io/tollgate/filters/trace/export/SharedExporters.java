package io.tollgate.filters.trace.export;

import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * One exporter per distinct setting, shared by every configuration that names it, so a reload
 * with the same settings keeps the exporter (its thread, its queued spans). Filters have no
 * release hook, so a configuration holds its exporter through a {@link Handle}: once no loaded
 * configuration references the handle and the collector cleared it, the next configuration that
 * asks for an exporter closes the unused one.
 *
 * @param <K> the settings exporters are keyed by
 * @param <E> the exporter
 */
public final class SharedExporters<K, E extends AutoCloseable> {

    private final Map<K, Entry<K, E>> entries = new HashMap<>();
    private final ReferenceQueue<Handle<E>> released = new ReferenceQueue<>();

    /** The handle of the exporter for {@code key}, made by {@code make} if there is none in use. */
    public synchronized Handle<E> acquire(K key, Function<K, E> make) {
        closeReleased();
        Entry<K, E> entry = entries.get(key);
        Handle<E> handle = entry == null ? null : entry.get();
        if (handle == null) {
            handle = new Handle<>(make.apply(key));
            entries.put(key, new Entry<>(key, handle, released));
        }
        return handle;
    }

    /** Closes the exporters no configuration holds any more; returns how many. */
    public synchronized int closeReleased() {
        int closed = 0;
        for (Object ref; (ref = released.poll()) != null; ) {
            @SuppressWarnings("unchecked")
            Entry<K, E> entry = (Entry<K, E>) ref;
            entries.remove(entry.key, entry);
            try {
                entry.exporter.close();
            } catch (Exception e) {
                throw new IllegalStateException("closing an unused span exporter", e);
            }
            closed++;
        }
        return closed;
    }

    /** What a configuration keeps to hold its exporter open. */
    public static final class Handle<E> {

        private final E exporter;

        Handle(E exporter) {
            this.exporter = exporter;
        }

        /** The shared exporter. */
        public E exporter() {
            return exporter;
        }
    }

    private static final class Entry<K, E> extends WeakReference<Handle<E>> {

        final K key;
        final E exporter;

        Entry(K key, Handle<E> handle, ReferenceQueue<Handle<E>> queue) {
            super(handle, queue);
            this.key = key;
            this.exporter = handle.exporter;
        }
    }
}
