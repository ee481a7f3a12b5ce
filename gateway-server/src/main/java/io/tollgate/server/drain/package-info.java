/**
 * Graceful drain: one mechanism for every trigger (SIGTERM, the admin API's
 * {@code POST /drain_listeners} and {@code POST /quitquitquit}, a listener removed by a reload or
 * by xDS, a hot restart).
 *
 * <p>The flow, as an event with a deadline:
 * <ol>
 *   <li>{@link io.tollgate.server.drain.DrainController} marks the process draining ({@code /ready}
 *       answers 503 from then on) and starts a {@link io.tollgate.server.drain.Drain} over the
 *       listeners concerned;</li>
 *   <li>a drain for exit closes the listening sockets first, so no new connection is accepted;</li>
 *   <li>every open connection, known to its listener's
 *       {@link io.tollgate.server.drain.ListenerConnections}, is asked on its own event loop to
 *       {@link io.tollgate.server.drain.DrainableConnection#drain drain}: HTTP/1.1 closes at once
 *       when idle, else answers its request with {@code Connection: close}; HTTP/2 sends GOAWAY
 *       twice (RFC 9113 section 6.8) and closes after its last stream; Bolt and Dubbo close as soon
 *       as no call is in flight;</li>
 *   <li>the drain is done as soon as the last connection closed, or at the drain timeout, when
 *       the connections still open are closed; either way its future completes and the outcome
 *       is logged and counted.</li>
 * </ol>
 * Nothing of this runs on the request path while no drain is under way: a connection learns of
 * the drain by a task on its event loop, and each protocol reads one plain field per request.
 */
package io.tollgate.server.drain;
