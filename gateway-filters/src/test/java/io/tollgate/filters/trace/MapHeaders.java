package io.tollgate.filters.trace;

import io.tollgate.core.filter.FilterHeaders;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Writable headers over a map whose names ignore case, as HTTP headers are. */
final class MapHeaders implements FilterHeaders {

    final Map<String, String> values = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);

    MapHeaders(String... namesAndValues) {
        for (int i = 0; i < namesAndValues.length; i += 2) {
            values.put(namesAndValues[i], namesAndValues[i + 1]);
        }
    }

    @Override
    public String get(String name) {
        return values.get(name);
    }

    @Override
    public List<String> getAll(String name) {
        String value = get(name);
        return value == null ? List.of() : List.of(value);
    }

    @Override
    public boolean writable() {
        return true;
    }

    @Override
    public void set(String name, String value) {
        values.put(name, value);
    }

    @Override
    public void add(String name, String value) {
        values.putIfAbsent(name, value);
    }

    @Override
    public void remove(String name) {
        values.remove(name);
    }
}
