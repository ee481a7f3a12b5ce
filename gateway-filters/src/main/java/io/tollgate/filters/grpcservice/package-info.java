/**
 * What the filters that ask a policy service over gRPC share ({@code ext_authz}, {@code rate_limit}):
 * the service's settings, one grpc-java channel per target for the whole process, and unary calls
 * whose answer comes back on the request's own event loop.
 */
package io.tollgate.filters.grpcservice;
