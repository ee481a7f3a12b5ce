package io.tollgate.filters.rbac;

/**
 * One entry of a policy's {@code permissions} (what is asked: path, header, SNI, RPC service and
 * method) or {@code principals} (who asks: source address, header, certificate identity), compiled
 * from the configuration; see {@link RuleParser}.
 */
@FunctionalInterface
interface Rule {

    /** Whether the request satisfies this rule. */
    boolean matches(RbacRequest request);
}
