package io.tollgate.server.http;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.CompositeByteBuf;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.tollgate.core.accesslog.ResponseFlag;
import io.tollgate.core.config.RpcCallConfig;
import io.tollgate.protocols.generic.CallError;
import io.tollgate.protocols.generic.CallErrorException;
import io.tollgate.protocols.generic.GenericCall;
import io.tollgate.protocols.generic.GenericReply;
import io.tollgate.protocols.generic.HttpCallRequest;
import io.tollgate.protocols.rpc.RpcCodecException;
import io.tollgate.protocols.rpc.RpcError;
import io.tollgate.protocols.rpc.RpcFrame;
import io.tollgate.router.cluster.Cluster;
import io.tollgate.router.host.Host;
import io.tollgate.router.route.Route;
import io.tollgate.server.snapshot.Snapshot;
import io.tollgate.server.dispatch.GatewayError;
import io.tollgate.server.exchange.ExchangeRecord;
import io.tollgate.server.exchange.ExchangeTarget;
import io.tollgate.server.rpc.CallAnswer;
import io.tollgate.server.rpc.GatewayCall;
import io.tollgate.server.rpc.RpcUpstreams;
import io.tollgate.server.rpc.ServiceClusters;
import io.tollgate.server.openapi.OpenApiDocuments;
import io.tollgate.server.openapi.RpcCallOperations;
import io.tollgate.server.rpccall.HttpRpcCalls;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The exchange of a request to a route whose action is {@code rpc_call}: it reads the request's JSON
 * body whole (up to the listener's body limit), makes it a generic call ({@link HttpRpcCalls}) and
 * sends it on the RPC engine ({@link RpcUpstreams#call}) to the host the dispatcher chose, under the
 * route's timeout and retries, as a call that came in on an RPC listener goes. The provider's answer,
 * or the gateway's own failure, is answered as JSON in the one error contract; no answer ever names
 * a provider's address. Confined to the downstream's event loop.
 */
final class RpcCallExchange implements JsonCallExchange, CallAnswer {

    private final HttpDownstream downstream;
    private final HttpRouteRequest context;
    private final HttpProxy proxy;
    private final HttpRpcCalls calls;
    private final RpcCallConfig config;
    private final HttpRequest head;
    private final ExchangeRecord record;
    private final JsonCallDownstream client;
    /** Where the call goes; null while a per-service template's cluster is looked up. */
    private ExchangeTarget target;
    private Host host;
    private GatewayCall call;
    private boolean done;

    /**
     * Takes over {@code context}'s request, which goes to {@code target}'s cluster, or, when
     * {@code target} is null, to the cluster of its service made from the route's per-service template.
     */
    RpcCallExchange(HttpDownstream downstream, HttpRouteRequest context, ExchangeTarget target, HttpProxy proxy) {
        this.downstream = downstream;
        this.context = context;
        this.target = target;
        this.proxy = proxy;
        this.calls = proxy.rpcCalls();
        this.config = context.route().rpcCall();
        this.head = context.request();
        this.record = context.record();
        this.client = new JsonCallDownstream(downstream, context, proxy);
    }

    /**
     * A request to an {@code rpc_call} route whose cluster has no host for it now: its exchange reads
     * the body, then finds the cluster of the call's service when the route's is a per-service template.
     *
     * @return true: the request is taken over
     */
    static boolean forTemplate(HttpDownstream downstream, HttpRouteRequest request) {
        downstream.forward(request, null, null);
        return true;
    }

    /** Starts with the request's head (and its body when the head carries it whole); the call goes to {@code host}. */
    @Override
    public void start(Host host) {
        this.host = host;
        if (client.start()) {
            call();
        }
    }

    /** Once the exchange ended its body is let go of, and what comes after is dropped. */
    @Override
    public void requestContent(HttpContent content) {
        if (client.add(content, this)) {
            call();
        }
    }

    /**
     * The body is whole: the call is read, its cluster found (the route's, or its service's when
     * the route's is a per-service template), its types chosen, and it is sent; or it is answered at
     * once when it cannot be.
     */
    private void call() {
        CompositeByteBuf body = client.takeBody();
        byte[] json = ByteBufUtil.getBytes(body);
        body.release();
        RpcUpstreams upstreams = calls.upstreams(config.protocol());
        if (upstreams == null) {
            fail(CallError.unavailable("this listener makes no " + config.protocol().configName() + " calls"),
                    "rpc_call_unavailable");
            return;
        }
        HttpCallRequest request;
        try {
            request = HttpRpcCalls.request(config, head.method().name(), head.uri(), name -> head.headers().get(name),
                    json);
        } catch (CallErrorException e) {
            fail(e.error(), "rpc_call_" + e.error().type());
            return;
        }
        if (target != null) {
            send(upstreams, request);
            return;
        }
        String template = context.route().config().forward().orElseThrow().cluster().orElse(null);
        ServiceClusters.Lookup found = template == null ? null : calls.serviceCluster(template, config.protocol(), request);
        if (found != null && found.ready() != null) {
            found.ready().whenComplete((ready, error) -> downstream.eventLoop().execute(() -> {
                ServiceClusters.Lookup again = calls.serviceCluster(template, config.protocol(), request);
                toServiceCluster(upstreams, request, again == null ? template
                        : again.ready() != null ? null : again.cluster());
                downstream.flushResponse();
            }));
            return;
        }
        toServiceCluster(upstreams, request, found == null ? template : found.cluster());
    }

    /**
     * The call goes to {@code name}: its service's cluster, or the route's own when that is no
     * template (its hosts are chosen again); refused as the dispatcher refuses when there is none,
     * or no host in it.
     */
    private void toServiceCluster(RpcUpstreams upstreams, HttpCallRequest request, String name) {
        if (done) {
            return;
        }
        Snapshot snapshot = proxy.dispatcher().snapshot();
        Route route = context.route();
        Cluster cluster = name == null ? null : snapshot.clusters().cluster(name);
        host = cluster == null ? null : cluster.choose(context, route.metadataMatch(), route.hashPolicy());
        if (host == null) {
            GatewayError error = proxy.dispatcher().unreachable(context, name, cluster);
            CallError answer = HttpRpcCalls.refusal(error);
            respond(answer.status(), answer.toJson(), error.reason(), false);
            return;
        }
        target = proxy.dispatcher().target(context, snapshot, name, cluster);
        send(upstreams, request);
    }

    /** Types the call by its cluster's registry, the route and the header, and sends it to the host chosen. */
    private void send(RpcUpstreams upstreams, HttpCallRequest request) {
        long timeoutNanos = context.timeoutNanos(false);
        ByteBuf frame;
        try {
            GenericCall generic = calls.call(config, target.cluster().name(), request,
                    (int) Math.min(Integer.MAX_VALUE, TimeUnit.NANOSECONDS.toMillis(timeoutNanos)));
            frame = HttpRpcCalls.frame(downstream.alloc(), config.protocol(), generic);
        } catch (CallErrorException e) {
            fail(e.error(), "rpc_call_" + e.error().type());
            return;
        }
        try {
            call = upstreams.call(downstream.eventLoop(), this, record, target, host, frame, context.filters(),
                    timeoutNanos);
        } catch (RpcCodecException e) {
            fail(CallError.badRequest("the call is too large for " + config.protocol().configName()),
                    "rpc_call_bad_request");
        }
    }

    @Override
    public void answered(RpcFrame response) {
        GenericReply reply;
        try {
            reply = HttpRpcCalls.reply(config.protocol(), response);
        } finally {
            response.release();
        }
        respond(reply.status(), reply.body(), null, false);
    }

    @Override
    public void failed(RpcError error, String reason) {
        fail(HttpRpcCalls.error(error), reason);
    }

    @Override
    public void fail(CallError error, String reason) {
        respond(error.status(), error.toJson(), reason, true);
    }

    /** Ends the exchange, once, with {@link JsonCallDownstream#answer}. */
    private void respond(int status, String json, String reason, boolean count) {
        if (done) {
            return;
        }
        done = true;
        client.release();
        client.answer(this, status, json, reason, count);
    }

    /**
     * The OpenAPI document of {@code request}'s {@code rpc_call} route when the request asks for it
     * ({@code GET {prefix}/openapi.json}), answered before any cluster is chosen; else null.
     */
    static FullHttpResponse openApi(HttpDownstream downstream, HttpRouteRequest request, HttpRpcCalls calls) {
        RpcCallConfig config = request.route().rpcCall();
        if (!HttpMethod.GET.equals(request.request().method())
                || !OpenApiDocuments.isDocumentPath(config.prefix(), request.path())) {
            return null;
        }
        OpenApiDocuments documents = new OpenApiDocuments(List.of(new RpcCallOperations(calls.registry())));
        return LocalResponses.json(downstream.alloc(), 200, documents.json(request.route(), config.prefix()), null);
    }

    @Override
    public void flushUpstream() {
        // the call leaves at once when the body is whole
    }

    @Override
    public void downstreamWritabilityChanged(boolean writable) {
        // one response, written whole
    }

    @Override
    public void downstreamClosed() {
        if (done) {
            return;
        }
        done = true;
        client.release();
        if (call != null) {
            call.abandon();
            return;
        }
        record.flag(ResponseFlag.DOWNSTREAM_CONNECTION_TERMINATION);
        record.finish(0);
    }
}
