package io.tollgate.server.openapi;

import io.tollgate.router.route.Route;
import java.util.List;

/**
 * Builds a route's OpenAPI document from every source of operations, when a client asks for it
 * ({@code GET {prefix}/openapi.json}): built anew for each request from the registries' and
 * configuration's current state, so it is never stale.
 */
public final class OpenApiDocuments {

    /** The path, after a route's prefix, the document is served at. */
    public static final String PATH = "/openapi.json";

    private final List<ApiOperations> sources;

    public OpenApiDocuments(List<ApiOperations> sources) {
        this.sources = List.copyOf(sources);
    }

    /** Whether a request for {@code path} (without query) of a route whose prefix is {@code prefix} asks for its document. */
    public static boolean isDocumentPath(String prefix, String path) {
        return path.length() == prefix.length() + PATH.length() && path.startsWith(prefix)
                && path.endsWith(PATH);
    }

    /** The document of {@code route}, whose calls are made under {@code prefix}, as JSON text. */
    public String json(Route route, String prefix) {
        OpenApiDocument document = new OpenApiDocument("Tollgate calls under " + (prefix.isEmpty() ? "/" : prefix));
        for (ApiOperations source : sources) {
            source.describe(route, document);
        }
        return document.toJson();
    }
}
