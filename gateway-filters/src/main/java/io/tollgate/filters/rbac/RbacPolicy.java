package io.tollgate.filters.rbac;

/**
 * One named policy: it matches a request when one of its permissions and one of its principals
 * do, as in Envoy's RBAC.
 */
record RbacPolicy(String name, Rule[] permissions, Rule[] principals) {

    boolean matches(RbacRequest request) {
        return any(permissions, request) && any(principals, request);
    }

    private static boolean any(Rule[] rules, RbacRequest request) {
        for (Rule rule : rules) {
            if (rule.matches(request)) {
                return true;
            }
        }
        return false;
    }
}
