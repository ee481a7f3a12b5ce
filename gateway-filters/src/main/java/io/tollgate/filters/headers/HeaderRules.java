package io.tollgate.filters.headers;

import io.tollgate.core.config.HeaderMutationConfig;
import io.tollgate.core.config.HeaderValueConfig;
import io.tollgate.core.filter.FilterHeaders;
import io.tollgate.core.filter.StreamFilterContext;
import java.util.List;
import java.util.function.Function;

/**
 * The changes to one side's headers, compiled: names removed, then values set or appended.
 *
 * @param remove the names removed first
 * @param add the headers set (or appended) then, in order
 */
record HeaderRules(List<String> remove, List<Rule> add) {

    /** Changes nothing. */
    static final HeaderRules NONE = new HeaderRules(List.of(), List.of());

    /** One header to set or append, its value compiled. */
    record Rule(String name, HeaderTemplate value, boolean append) {
    }

    HeaderRules {
        remove = List.copyOf(remove);
        add = List.copyOf(add);
    }

    /** {@code mutation}'s changes with each value compiled by {@code compiler}. */
    static HeaderRules of(HeaderMutationConfig mutation, Function<String, HeaderTemplate> compiler) {
        if (mutation.isEmpty()) {
            return NONE;
        }
        return new HeaderRules(mutation.remove(), mutation.add().stream()
                .map((HeaderValueConfig h) -> new Rule(h.name(), compiler.apply(h.value()), h.append()))
                .toList());
    }

    boolean isEmpty() {
        return remove.isEmpty() && add.isEmpty();
    }

    /** Applies the changes to {@code headers}, which MUST be writable, with values for {@code context}'s request. */
    void apply(FilterHeaders headers, StreamFilterContext context) {
        for (int i = 0; i < remove.size(); i++) {
            headers.remove(remove.get(i));
        }
        for (int i = 0; i < add.size(); i++) {
            Rule rule = add.get(i);
            String value = rule.value().render(context);
            if (rule.append()) {
                headers.add(rule.name(), value);
            } else {
                headers.set(rule.name(), value);
            }
        }
    }
}
