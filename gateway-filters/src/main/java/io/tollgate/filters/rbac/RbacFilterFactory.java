package io.tollgate.filters.rbac;

import io.tollgate.core.config.ConfigNode;
import io.tollgate.core.config.StreamFilterConfig;
import io.tollgate.core.filter.FilterScope;
import io.tollgate.core.filter.StreamFilter;
import io.tollgate.core.filter.StreamFilterFactory;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The {@code rbac} stream filter: Envoy's role-based access control, allow or deny policies on
 * what a request asks for and who asks, for every protocol. Reads {@code action},
 * {@code policies} and {@code shadow}; see docs/filters.md.
 */
public final class RbacFilterFactory implements StreamFilterFactory {

    @Override
    public String name() {
        return "rbac";
    }

    @Override
    public Set<String> keys() {
        return Set.of("action", "policies", "shadow");
    }

    @Override
    public StreamFilterConfig parse(ConfigNode node, StreamFilterConfig base) {
        String given = node.string("action", "ALLOW");
        String action = given.toUpperCase(Locale.ROOT);
        if (!action.equals("ALLOW") && !action.equals("DENY")) {
            throw node.child("action").error("'" + given + "' (expected: ALLOW or DENY)");
        }
        List<RbacPolicy> policies = node.list("policies", p -> {
            p.allowOnly(Set.of("name", "permissions", "principals"));
            return new RbacPolicy(p.string("name"), RuleParser.list(p, "permissions", RuleParser.PERMISSION_KEYS),
                    RuleParser.list(p, "principals", RuleParser.PRINCIPAL_KEYS));
        });
        List<String> names = policies.stream().map(RbacPolicy::name).toList();
        for (int i = 0; i < names.size(); i++) {
            if (names.indexOf(names.get(i)) != i) {
                throw node.child("policies").element(i).child("name")
                        .error("duplicate policy name '" + names.get(i) + "'");
            }
        }
        return base.withSettings(new RbacSettings(RbacSettings.Action.valueOf(action), policies,
                node.bool("shadow", false)));
    }

    @Override
    public StreamFilter create(StreamFilterConfig config, FilterScope scope) {
        return new RbacFilter(config.settings(RbacSettings.class), scope);
    }
}
