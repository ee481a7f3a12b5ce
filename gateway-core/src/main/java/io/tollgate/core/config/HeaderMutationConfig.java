package io.tollgate.core.config;

import java.util.List;

/** Headers removed from and added to a message, removal first. */
public record HeaderMutationConfig(List<HeaderValueConfig> add, List<String> remove) {

    /** Changes nothing. */
    public static final HeaderMutationConfig NONE = new HeaderMutationConfig(List.of(), List.of());

    public HeaderMutationConfig {
        add = List.copyOf(add);
        remove = List.copyOf(remove);
    }

    /** Returns whether this mutation changes nothing. */
    public boolean isEmpty() {
        return add.isEmpty() && remove.isEmpty();
    }
}
