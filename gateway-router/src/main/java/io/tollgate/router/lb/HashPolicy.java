package io.tollgate.router.lb;

import io.tollgate.core.config.HashPolicyConfig;
import io.tollgate.core.config.HashPolicyConfig.Source;
import io.tollgate.core.route.RouteRequest;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A cluster's or a route's {@code hash_policy} compiled for the hot path: the request's hash for
 * {@code ring_hash} and {@code maglev}. Sources are tried in order and every value found is
 * combined, up to the first terminal one that yields a value; a request with none of them gets a
 * random hash, so it lands on a random host. Immutable; hashing allocates nothing.
 */
public final class HashPolicy {

    private static final String COOKIE_HEADER = "cookie";

    private final Source[] sources;
    private final String[] names;
    private final boolean[] terminal;

    private HashPolicy(List<HashPolicyConfig> configs) {
        int count = configs.size();
        this.sources = new Source[count];
        this.names = new String[count];
        this.terminal = new boolean[count];
        for (int i = 0; i < count; i++) {
            sources[i] = configs.get(i).source();
            names[i] = configs.get(i).name();
            terminal[i] = configs.get(i).terminal();
        }
    }

    /** The policy of {@code configs}; with none, every request gets a random hash. */
    public static HashPolicy of(List<HashPolicyConfig> configs) {
        return new HashPolicy(List.copyOf(configs));
    }

    /** The request's hash; random when no source is present (or {@code request} is null). */
    public long hash(RouteRequest request) {
        long hash = 0;
        boolean found = false;
        for (int i = 0; i < sources.length && request != null; i++) {
            String value = switch (sources[i]) {
                case HEADER, RPC_HEADER -> request.header(names[i]);
                case SOURCE_IP -> request.clientAddress();
                case COOKIE -> request.header(COOKIE_HEADER);
            };
            if (value == null) {
                continue;
            }
            long part;
            if (sources[i] == Source.COOKIE) {
                int start = CookieValue.start(value, names[i]);
                if (start < 0) {
                    continue;
                }
                part = Hashing.chars(value, start, CookieValue.end(value, start));
            } else if (sources[i] == Source.RPC_HEADER) {
                String service = request.header(HashPolicyConfig.RPC_SERVICE_HEADER);
                part = service == null ? Hashing.chars(value) : Hashing.combine(Hashing.chars(service), Hashing.chars(value));
            } else {
                part = Hashing.chars(value);
            }
            hash = found ? Hashing.combine(hash, part) : part;
            found = true;
            if (terminal[i]) {
                break;
            }
        }
        return found ? hash : ThreadLocalRandom.current().nextLong();
    }
}
