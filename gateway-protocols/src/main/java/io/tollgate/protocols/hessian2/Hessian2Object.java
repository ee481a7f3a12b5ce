package io.tollgate.protocols.hessian2;

import static java.util.Objects.requireNonNull;

import java.util.Map;

/**
 * An object read from hessian2 without its class: the type name its writer gave and its fields in
 * the order written. The map is filled while the object is read, because a field may refer back to
 * the object itself (a {@code Throwable}'s {@code cause}).
 *
 * @param type the class name the writer wrote, e.g. {@code com.example.User}
 * @param fields the fields by name, in the order written
 */
public record Hessian2Object(String type, Map<String, Object> fields) {

    public Hessian2Object {
        requireNonNull(type, "type");
        requireNonNull(fields, "fields");
    }

    /** The field {@code name}, or null. */
    public Object field(String name) {
        return fields.get(name);
    }

    // Identity, not content: objects may be cyclic, and two reads are two objects.
    @Override
    public boolean equals(Object other) {
        return this == other;
    }

    @Override
    public int hashCode() {
        return System.identityHashCode(this);
    }

    @Override
    public String toString() {
        return "Hessian2Object[" + type + ", " + fields.keySet() + "]";
    }
}
