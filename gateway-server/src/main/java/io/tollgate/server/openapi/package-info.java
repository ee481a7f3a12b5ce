/**
 * The OpenAPI 3.1 document of what HTTP clients can call through a route that makes RPC calls of
 * JSON requests ({@code GET {prefix}/openapi.json}): {@link io.tollgate.server.openapi.OpenApiDocument}
 * is built by every {@link io.tollgate.server.openapi.ApiOperations} source, one per kind of call.
 */
package io.tollgate.server.openapi;
