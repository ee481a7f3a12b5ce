package io.tollgate.filters.rbac;

import java.util.List;

/**
 * What an {@code rbac} entry configures, compiled: whether matching a policy allows or denies, the
 * policies in order, and whether refusals are only counted ({@code shadow}).
 *
 * @param action what a matching policy means
 * @param policies the policies, in the order given
 * @param shadow whether requests the rules refuse are counted and let through
 */
record RbacSettings(Action action, List<RbacPolicy> policies, boolean shadow) {

    /** What matching a policy means for a request, as Envoy's RBAC action. */
    enum Action {
        /** Requests matching a policy are let through; all others are refused. */
        ALLOW,
        /** Requests matching a policy are refused; all others are let through. */
        DENY
    }
}
