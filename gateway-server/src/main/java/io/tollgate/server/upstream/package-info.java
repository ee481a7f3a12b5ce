/**
 * What every protocol's upstream pools share: the pool of one event loop to one host
 * ({@link io.tollgate.server.upstream.HostPool}, {@link io.tollgate.server.upstream.AbstractHostPool}),
 * what it learns of its host's death ({@link io.tollgate.server.upstream.HostDownMark}), and which
 * hosts a reload still serves. The HTTP pools are in {@code upstream.http}, the RPC pools in
 * {@code server/rpc}.
 */
package io.tollgate.server.upstream;
