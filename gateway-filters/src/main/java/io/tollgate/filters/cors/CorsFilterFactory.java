package io.tollgate.filters.cors;

import com.google.re2j.Pattern;
import com.google.re2j.PatternSyntaxException;
import io.tollgate.core.config.ConfigNode;
import io.tollgate.core.config.StreamFilterConfig;
import io.tollgate.core.filter.FilterScope;
import io.tollgate.core.filter.StreamFilter;
import io.tollgate.core.filter.StreamFilterFactory;
import java.util.List;
import java.util.Set;

/**
 * Makes the {@code cors} filter: reads {@code allow_origin} (a list of {@code exact},
 * {@code prefix}, {@code suffix} or {@code regex}; required, not empty), {@code allow_methods},
 * {@code allow_headers}, {@code expose_headers} (each a comma-separated string as the header
 * carries it), {@code max_age} (seconds) and {@code allow_credentials} (default false).
 */
public final class CorsFilterFactory implements StreamFilterFactory {

    @Override
    public String name() {
        return "cors";
    }

    @Override
    public Set<String> keys() {
        return Set.of("allow_origin", "allow_methods", "allow_headers", "expose_headers", "max_age",
                "allow_credentials");
    }

    @Override
    public StreamFilterConfig parse(ConfigNode node, StreamFilterConfig base) {
        List<OriginMatcher> origins = node.list("allow_origin", CorsFilterFactory::origin);
        if (origins.isEmpty()) {
            throw node.child("allow_origin").error("must name at least one origin");
        }
        String maxAge = node.has("max_age")
                ? Long.toString(node.child("max_age").asLong(0, Integer.MAX_VALUE)) : null;
        return base.withSettings(new CorsPolicy(origins, node.string("allow_methods", null),
                node.string("allow_headers", null), node.string("expose_headers", null), maxAge,
                node.bool("allow_credentials", false)));
    }

    private static OriginMatcher origin(ConfigNode n) {
        n.allowOnly(Set.of("exact", "prefix", "suffix", "regex"));
        if (n.keys().size() != 1) {
            throw n.error("needs exactly one of exact, prefix, suffix, regex (got " + n.keys() + ")");
        }
        if (n.has("exact")) {
            return new OriginMatcher.Exact(n.string("exact"));
        }
        if (n.has("prefix")) {
            return new OriginMatcher.Prefix(n.string("prefix"));
        }
        if (n.has("suffix")) {
            return new OriginMatcher.Suffix(n.string("suffix"));
        }
        try {
            return new OriginMatcher.Regex(Pattern.compile(n.string("regex")));
        } catch (PatternSyntaxException e) {
            throw n.child("regex").error("not a regular expression: " + e.getDescription());
        }
    }

    @Override
    public StreamFilter create(StreamFilterConfig config, FilterScope scope) {
        return new CorsFilter(config.settings(CorsPolicy.class), scope);
    }
}
