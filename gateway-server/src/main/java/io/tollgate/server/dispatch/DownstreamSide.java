package io.tollgate.server.dispatch;

import io.tollgate.router.host.Host;
import io.tollgate.server.exchange.ExchangeTarget;
import io.tollgate.server.filter.FilterRun;
import io.tollgate.server.filter.StreamFilterChain;

/**
 * How the {@link Dispatcher} talks to the protocol a request came in on: how it answers an error,
 * how it runs the request's stream filters, what the protocol checks before forwarding, and how it
 * hands a routed request with its host to the exchange. One per downstream connection (an HTTP/2
 * stream's downstream for HTTP/2), so dispatching allocates nothing for it.
 *
 * @param <C> the protocol's request context
 */
public interface DownstreamSide<C extends RequestContext> {

    /** Answers {@code request} with {@code error} in the protocol's form and lets go of it. */
    void refuse(C request, GatewayError error);

    /**
     * A new run of {@code chain} for {@code request}: the protocol fills what filters read from its
     * request and says how an answer of theirs is written.
     */
    FilterRun filterRun(C request, StreamFilterChain chain);

    /** A filter holds {@code request}: it goes on later through {@link Dispatcher#act}, or is answered. */
    void held(C request);

    /**
     * The filters let {@code request} through at once: the protocol applies what they changed and
     * goes on with {@link Dispatcher#act}.
     */
    void passed(C request);

    /**
     * The route answers the request itself (a direct response or a redirect).
     *
     * @return false when the protocol has no such answer (the default): the request is refused
     *     {@link GatewayError#NO_ROUTE}
     */
    default boolean answerByRoute(C request) {
        return false;
    }

    /**
     * What the protocol checks before a request is forwarded (HTTP: the body's size, an
     * {@code Expect} header).
     *
     * @return false when it answered the request instead; true (the default) to go on
     */
    default boolean admit(C request) {
        return true;
    }

    /**
     * The route's cluster has no host for {@code request} at once: a protocol that waits for a
     * cluster made on demand (a per-service template of a registry) takes the request over and
     * later goes on with {@link Dispatcher#toCluster}.
     *
     * @return true when it took the request over; false (the default) to refuse it
     */
    default boolean awaitCluster(C request, String clusterName) {
        return false;
    }

    /** Starts the exchange of {@code request} to {@code host} of {@code target}'s cluster. */
    void forward(C request, ExchangeTarget target, Host host);
}
