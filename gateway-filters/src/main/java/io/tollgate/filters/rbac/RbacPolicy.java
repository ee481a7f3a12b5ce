package io.tollgate.filters.rbac;

import io.tollgate.core.filter.StreamFilterContext;

/**
 * One named policy: it matches a request when one of its permissions and one of its principals
 * do, as in Envoy's RBAC.
 */
record RbacPolicy(String name, Rule[] permissions, Rule[] principals) {

    boolean matches(StreamFilterContext request) {
        return any(permissions, request) && any(principals, request);
    }

    private static boolean any(Rule[] rules, StreamFilterContext request) {
        for (Rule rule : rules) {
            if (rule.matches(request)) {
                return true;
            }
        }
        return false;
    }
}
