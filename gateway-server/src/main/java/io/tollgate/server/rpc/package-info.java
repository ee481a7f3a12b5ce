/**
 * The SOFA Bolt proxy: routes each request by its {@code service} header, forwards it on a few
 * multiplexed upstream connections, and answers what the gateway already knows in Bolt form.
 *
 * <p>A request's path, all on the event loop that accepted the connection:
 * <ol>
 *   <li>{@code BoltDownstreamHandler} receives a {@code BoltFrame} (a retained slice; only the
 *       header map is ever parsed), answers heartbeats itself, and routes the rest through
 *       {@code BoltRouteView} (service as authority, {@code /service/method} as path);</li>
 *   <li>a two-way request becomes a {@code BoltCall}, with a timeout (the shorter of the frame's
 *       and the route's), which makes one {@code BoltAttempt} after another: each takes a request
 *       from the circuit breakers of the route's priority (past {@code max_requests}: status 4,
 *       server busy, at once) and gets a connection from the {@code BoltHostPool} of its host,
 *       kept per event loop by {@code BoltLoop};</li>
 *   <li>the {@code BoltUpstreamConnection} writes a request id of its own into the frame's bytes,
 *       sends the frame as it arrived and keeps the attempt by that id;</li>
 *   <li>the response finds its attempt by id; unless the route's retry policy retries it (after a
 *       connect failure, a reset, a busy or timeout answer, a per-try timeout) it gets the
 *       caller's id back in place and is written to the caller; {@code BoltRecord} turns the call
 *       into metrics and an access log line.</li>
 * </ol>
 *
 * <p>Writes during a read batch are not flushed one by one: {@code BoltLoop} remembers the
 * channels written to and flushes each once when the batch ends, on both sides.
 *
 * <p>A call ends exactly once ({@code BoltCall}): by its response, its timeout, the failure of its
 * last attempt, or the close of its downstream one ({@code InFlightCalls} lets that close
 * end every call of the connection at once). Every attempt's end caused by the upstream is reported to the
 * cluster's outlier detection: the Bolt status by its HTTP meaning, a timeout, a lost connection
 * or a failed connect as gateway failures.
 *
 * <p>Backpressure never pauses a shared upstream connection: a full upstream connection pauses
 * reading on the downstream connections that send to it; a downstream connection whose client
 * reads too slowly stops reading its own requests, and is closed when its queued responses pass
 * the listener's {@code max_frame_bytes} (see {@code BoltDownstreamHandler}).
 */
package io.tollgate.server.rpc;
