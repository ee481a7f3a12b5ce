package io.tollgate.protocols.json;

/**
 * How a bean goes on the wire, which depends on who turns it into the provider's class.
 */
public enum ObjectForm {
    /**
     * As a map of its fields, untyped: Dubbo's generic call, whose provider makes the declared
     * classes of its method out of maps, names and numbers (Dubbo's {@code PojoUtils.realize}).
     */
    MAP,
    /**
     * As a hessian object of its declared class, enums as enum objects: SOFARPC, whose provider's
     * hessian reads each argument into its class directly.
     */
    TYPED
}
