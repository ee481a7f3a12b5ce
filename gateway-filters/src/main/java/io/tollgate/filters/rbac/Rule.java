package io.tollgate.filters.rbac;

import io.tollgate.core.filter.StreamFilterContext;

/**
 * One entry of a policy's {@code permissions} (what is asked: path, header, SNI, RPC service and
 * method) or {@code principals} (who asks: source address, header, certificate identity), compiled
 * from the configuration; see {@link RuleParser}.
 */
@FunctionalInterface
interface Rule {

    /** Whether the request satisfies this rule. */
    boolean matches(StreamFilterContext context);
}
