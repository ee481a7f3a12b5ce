package io.tollgate.server.rpccall;

import io.tollgate.protocols.generic.MethodCandidate;
import io.tollgate.protocols.json.TypeCatalog;
import java.util.List;

/**
 * What a registry published of a service's types: its methods, and the fields of the classes they
 * take and return (Dubbo's service definition), so that a call's beans are written field by field
 * as their declared types (a {@code BigDecimal} field stays exact).
 *
 * @param methods the methods, empty when none were published
 * @param catalog the classes' fields and enums, {@link TypeCatalog#EMPTY} when none were published
 */
public record PublishedTypes(List<MethodCandidate> methods, TypeCatalog catalog) {

    /** Nothing published. */
    public static final PublishedTypes NONE = new PublishedTypes(List.of(), TypeCatalog.EMPTY);

    public PublishedTypes {
        methods = List.copyOf(methods);
    }
}
