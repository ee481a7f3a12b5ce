package io.tollgate.filters.headers;

import io.tollgate.core.config.ConfigNode;
import io.tollgate.core.config.HeaderMutationConfig;
import io.tollgate.core.config.HeaderValueConfig;
import io.tollgate.core.config.StreamFilterConfig;
import io.tollgate.core.config.read.ConfigLoader;
import io.tollgate.core.filter.FilterScope;
import io.tollgate.core.filter.StreamFilter;
import io.tollgate.core.filter.StreamFilterFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Makes the {@code headers} filter: reads {@code request_headers} and {@code response_headers},
 * each {@code add} (name, value, append) and {@code remove} (names), in the form of a route's keys
 * of the same names, with {@code %VARIABLE%}s in values ({@link HeaderVariable}), compiled here.
 * A route's own {@code request_headers} and {@code response_headers} are this filter's per-route
 * form ({@link #routeForm}), their values taken literally as they always were.
 */
public final class HeadersFilterFactory implements StreamFilterFactory {

    /** The filter's registered name. */
    public static final String NAME = "headers";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Set<String> keys() {
        return Set.of("request_headers", "response_headers");
    }

    @Override
    public StreamFilterConfig parse(ConfigNode node, StreamFilterConfig base) {
        return base.withSettings(new HeadersSettings(rules(node, "request_headers"), rules(node, "response_headers")));
    }

    private static HeaderRules rules(ConfigNode node, String key) {
        if (!node.has(key)) {
            return HeaderRules.NONE;
        }
        ConfigNode side = node.child(key);
        HeaderMutationConfig mutation = ConfigLoader.headerMutation(side);
        List<HeaderRules.Rule> add = new ArrayList<>();
        for (int i = 0; i < mutation.add().size(); i++) {
            HeaderValueConfig header = mutation.add().get(i);
            try {
                add.add(new HeaderRules.Rule(header.name(), HeaderTemplate.compile(header.value()), header.append()));
            } catch (IllegalArgumentException e) {
                throw side.child("add").element(i).child("value").error(e.getMessage());
            }
        }
        return new HeaderRules(mutation.remove(), add);
    }

    /**
     * The filter of a route's {@code request_headers} and {@code response_headers}, which runs last
     * in the route's chain, as the route's own changes always came after everything else.
     */
    public static StreamFilter routeForm(HeaderMutationConfig request, HeaderMutationConfig response) {
        return new HeadersFilter(new HeadersSettings(HeaderRules.of(request, HeaderTemplate::literal),
                HeaderRules.of(response, HeaderTemplate::literal)));
    }

    @Override
    public StreamFilter create(StreamFilterConfig config, FilterScope scope) {
        return new HeadersFilter(config.settings(HeadersSettings.class));
    }
}
