package io.tollgate.filters.rbac;

import io.tollgate.core.config.CidrRange;
import io.tollgate.core.config.ConfigNode;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Reads the entries of a policy's {@code permissions} and {@code principals}. Each entry is a
 * mapping of one or more conditions that must all hold; the list matches when one entry does.
 *
 * <p>Permissions: {@code any: true}, {@code path}, {@code header}, {@code sni}, {@code service},
 * {@code method}. Principals: {@code any: true}, {@code source_ip} (a list of ranges, any of which
 * may hold), {@code header}, {@code authenticated} (the verified client certificate's identity).
 */
final class RuleParser {

    static final Set<String> PERMISSION_KEYS = Set.of("any", "path", "header", "sni", "service", "method");
    static final Set<String> PRINCIPAL_KEYS = Set.of("any", "source_ip", "header", "authenticated");

    private RuleParser() {
    }

    /** The rules of the non-empty list {@code key} of {@code policy}, each entry read with {@code keys}. */
    static Rule[] list(ConfigNode policy, String key, Set<String> keys) {
        List<Rule> rules = policy.list(key, entry -> entry(entry, keys));
        if (rules.isEmpty()) {
            throw policy.child(key).error("required: at least one entry (write [{ any: true }] to match every request)");
        }
        return rules.toArray(new Rule[0]);
    }

    private static Rule entry(ConfigNode n, Set<String> keys) {
        n.allowOnly(keys);
        List<Rule> all = new ArrayList<>();
        if (n.has("any")) {
            if (!n.bool("any", false)) {
                throw n.child("any").error("must be true when given");
            }
            all.add(r -> true);
        }
        n.optional("path").map(RuleParser::string).ifPresent(m -> all.add(r -> m.matches(r.request().path())));
        n.optional("sni").map(RuleParser::string).ifPresent(m -> all.add(r -> m.matches(r.sni())));
        n.optional("service").map(RuleParser::string).ifPresent(m -> all.add(r -> m.matches(r.service())));
        n.optional("method").map(RuleParser::string).ifPresent(m -> all.add(r -> m.matches(r.method())));
        n.optional("authenticated").map(RuleParser::string)
                .ifPresent(m -> all.add(r -> m.matches(r.peerIdentity())));
        n.optional("header").map(RuleParser::header).ifPresent(all::add);
        if (n.has("source_ip")) {
            all.add(sourceIp(n));
        }
        if (all.isEmpty()) {
            throw n.error("must give at least one of " + keys.stream().sorted().toList());
        }
        if (all.size() == 1) {
            return all.get(0);
        }
        Rule[] conditions = all.toArray(new Rule[0]);
        return r -> {
            for (Rule condition : conditions) {
                if (!condition.matches(r)) {
                    return false;
                }
            }
            return true;
        };
    }

    private static StringMatcher string(ConfigNode n) {
        n.allowOnly(StringMatcher.KEYS);
        return StringMatcher.parse(n, false);
    }

    private static Rule header(ConfigNode n) {
        Set<String> keys = new HashSet<>(StringMatcher.KEYS);
        keys.addAll(Set.of("name", "present", "invert"));
        n.allowOnly(keys);
        String name = n.string("name").toLowerCase(Locale.ROOT);
        StringMatcher matcher = StringMatcher.parse(n, true);
        boolean invert = n.bool("invert", false);
        return r -> matcher.matches(r.request().header(name)) != invert;
    }

    private static Rule sourceIp(ConfigNode entry) {
        List<CidrRange> ranges = entry.list("source_ip", e -> {
            try {
                return CidrRange.parse(e.asString().trim());
            } catch (IllegalArgumentException bad) {
                throw e.error(bad.getMessage());
            }
        });
        if (ranges.isEmpty()) {
            throw entry.child("source_ip").error("must list at least one address range");
        }
        CidrRange[] all = ranges.toArray(new CidrRange[0]);
        return r -> CidrRange.anyContains(all, r.clientAddress());
    }
}
