/**
 * The HTTP upstream: per event loop and host, the HTTP/1.1 and HTTP/2 pools
 * ({@link io.tollgate.server.upstream.http.UpstreamPool}, made by
 * {@link io.tollgate.server.upstream.http.UpstreamPools}) from which an HTTP exchange acquires a
 * connection or a stream, and those connections. The RPC protocols' multiplexed pools live with
 * their engine in {@code server/rpc}; what both kinds share is in {@code server/upstream}.
 */
package io.tollgate.server.upstream.http;
