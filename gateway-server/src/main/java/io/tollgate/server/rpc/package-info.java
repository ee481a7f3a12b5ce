/**
 * The one RPC engine: it proxies every multiplexed request/response protocol (Bolt, Dubbo, a
 * plug-in) through that protocol's {@link io.tollgate.protocols.rpc.RpcCodec}, and knows nothing of
 * any protocol's bytes.
 *
 * <p>A request's path, all on the event loop that accepted the connection:
 * <ol>
 *   <li>{@code RpcDownstreamHandler} receives an {@code RpcFrame} (a retained slice; only the
 *       routing view is ever parsed), answers heartbeats itself, and routes the rest through
 *       {@code RpcRouteView} (service as authority, {@code /service/method} as path, headers or
 *       attachments as headers);</li>
 *   <li>a two-way request becomes an {@code RpcCall}, an {@link io.tollgate.server.exchange.Exchange}
 *       with a timeout (the shorter of the frame's and the route's) on the loop's deadlines, which
 *       makes one {@code RpcAttempt} after another: each takes a request from the circuit breakers
 *       of the route's priority (past {@code max_requests}: overflow, answered at once) and gets a
 *       connection from the {@code RpcHostPool} of its host, kept per event loop by
 *       {@code RpcLoop};</li>
 *   <li>the {@code RpcUpstreamConnection} writes a 64-bit request id of its own into the frame's
 *       bytes (through the frame), sends the frame as it arrived and keeps the attempt by that id;</li>
 *   <li>the response finds its attempt by id; unless the route's retry policy retries it (after a
 *       connect failure, a reset, a busy or timeout status, a per-try timeout) it gets the caller's
 *       id back in place and is written to the caller; an
 *       {@link io.tollgate.server.exchange.ExchangeRecord} turns the call into metrics and an access
 *       log line.</li>
 * </ol>
 *
 * <p>A frame still queued on a connection whose connect failed was never sent: the connection hands
 * it back to its call, which sends it to another host at once without a retry. A connect failure
 * or a reset tells the host's {@code RpcHostPool} that the host died; until a connection to it
 * opens again (tried once per health-check interval) new calls choose other hosts.
 *
 * <p>Writes during a read batch are not flushed one by one: {@code RpcLoop} remembers the channels
 * written to and flushes each once when the batch ends, on both sides.
 *
 * <p>A call ends exactly once ({@code RpcCall}): by its response, its timeout, the failure of its
 * last attempt, or the close of its downstream connection ({@code InFlightCalls} lets that close
 * end every call of the connection at once). Every attempt's end caused by the upstream is reported
 * to the cluster's outlier detection: the status by its HTTP meaning, a timeout, a lost connection
 * or a failed connect as gateway failures.
 *
 * <p>Backpressure never pauses a shared upstream connection: a full upstream connection pauses
 * reading on the downstream connections that send to it; a downstream connection whose client
 * reads too slowly stops reading its own requests, and is closed when its queued responses pass
 * the listener's largest frame (see {@code RpcDownstreamHandler}).
 */
package io.tollgate.server.rpc;
