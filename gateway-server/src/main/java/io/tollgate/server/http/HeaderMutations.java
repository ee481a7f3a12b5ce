package io.tollgate.server.http;

import io.netty.handler.codec.http.HttpHeaders;
import io.tollgate.core.config.HeaderMutationConfig;
import io.tollgate.core.config.HeaderValueConfig;

/** Applies a route's header mutation to a message: removals first, then additions. */
final class HeaderMutations {

    private HeaderMutations() {
    }

    static void apply(HeaderMutationConfig mutation, HttpHeaders headers) {
        if (mutation.isEmpty()) {
            return;
        }
        for (String name : mutation.remove()) {
            headers.remove(name);
        }
        for (HeaderValueConfig header : mutation.add()) {
            if (header.append()) {
                headers.add(header.name(), header.value());
            } else {
                headers.set(header.name(), header.value());
            }
        }
    }
}
