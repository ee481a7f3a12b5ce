package io.tollgate.server.openapi;

import io.tollgate.router.route.Route;

/**
 * A source of the operations a route's OpenAPI document lists: the calls of one kind the route can
 * make (Dubbo and SOFARPC generic calls from registry definitions and configuration; gRPC calls from
 * reflected descriptors). {@link OpenApiDocuments} asks every source for every document, so a new
 * kind of JSON call describes its methods by adding a source, without changing the others.
 */
public interface ApiOperations {

    /**
     * Adds to {@code document} the operations {@code route} can call, with the schemas they use;
     * adds nothing when the route makes no call of this source's kind. Runs on an event loop: reads
     * only published, immutable state.
     */
    void describe(Route route, OpenApiDocument document);
}
