/**
 * The exchange core: what every protocol's request shares on its way through the proxy, written
 * once. An {@link io.tollgate.server.exchange.Exchange} is one request's life (route timeout,
 * attempts, retries under the policy and the breakers' budget, backoff, the host for a retry, and
 * the re-dispatch of a request nothing of which was sent, to a host not tried, without a retry); an
 * {@link io.tollgate.server.exchange.Attempt} is one try on one host (breaker request, active-request
 * count, per-try timeout); {@link io.tollgate.server.exchange.Retries},
 * {@link io.tollgate.server.exchange.ExchangeTarget} and {@link io.tollgate.server.exchange.ExchangeRecord}
 * hold the retry count, where attempts go, and the metrics and access log line. Every timeout of an
 * event loop waits on that loop's {@link io.tollgate.server.exchange.Deadlines}
 * ({@link io.tollgate.server.exchange.LoopDeadlines}).
 *
 * <p>HTTP (HTTP/1.1 and HTTP/2 streams, {@code io.tollgate.server.http}) and every multiplexed RPC
 * protocol ({@code io.tollgate.server.rpc}) subclass these; what a response is, how it travels and
 * how the protocol answers an error the gateway knows stays in the protocol's package.
 */
package io.tollgate.server.exchange;
