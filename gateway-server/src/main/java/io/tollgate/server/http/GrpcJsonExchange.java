package io.tollgate.server.http;

import com.google.protobuf.InvalidProtocolBufferException;
import io.grpc.Status;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.CompositeByteBuf;
import io.netty.channel.ChannelFuture;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.DefaultLastHttpContent;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;
import io.tollgate.core.accesslog.ResponseFlag;
import io.tollgate.core.config.ClusterConfig;
import io.tollgate.core.config.RpcCallConfig;
import io.tollgate.protocols.generic.CallError;
import io.tollgate.protocols.generic.CallErrorException;
import io.tollgate.protocols.http1.HopByHopHeaders;
import io.tollgate.protocols.http2.Grpc;
import io.tollgate.protocols.http2.Http2ExtensionHeaders;
import io.tollgate.router.host.Host;
import io.tollgate.server.exchange.ExchangeTarget;
import io.tollgate.server.grpcjson.GrpcHttpStatus;
import io.tollgate.server.grpcjson.GrpcJsonCalls;
import io.tollgate.server.grpcjson.GrpcMessages;
import io.tollgate.server.grpcjson.GrpcMethod;
import io.tollgate.server.grpcjson.GrpcSchema;
import io.tollgate.server.upstream.http.UpstreamConnection;
import io.tollgate.server.upstream.http.UpstreamPools;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The exchange of a request to an {@code rpc_call} route of protocol {@code grpc} or {@code triple}
 * (Envoy's gRPC-JSON transcoder): {@code POST {prefix}/{package.Service}/{Method}} with the JSON of
 * the request message becomes a unary gRPC request (HTTP/2, {@code application/grpc}, {@code te:
 * trailers}, one length-prefixed message) sent on the route's cluster's HTTP/2 upstream pool, as a
 * {@link PooledExchange} under the route's timeout, retries and breakers; the message types come from
 * {@link GrpcJsonCalls}. The answer comes back as the JSON of the response message (a server stream
 * as newline-delimited JSON, chunked), or as the one error contract's JSON with the HTTP status of its
 * gRPC status. Confined to the downstream's event loop.
 */
final class GrpcJsonExchange extends PooledExchange implements JsonCallExchange {

    /** The longest response message read. */
    private static final int MAX_MESSAGE_BYTES = 16 * 1024 * 1024;
    private static final String NDJSON = "application/x-ndjson";
    /** Request headers never passed on as the call's metadata. */
    private static final String[] NOT_METADATA = {"content-length", "content-type", "accept", "accept-encoding",
        "te", "host", "expect", "grpc-timeout", "grpc-encoding", "grpc-accept-encoding"};

    private final GrpcJsonCalls calls;
    private final RpcCallConfig config;
    private final HttpRequest head;
    private final long timeoutNanos;
    private final JsonCallDownstream client;
    private Host firstHost;
    private GrpcMethod method;
    /** The call's message, held for retries until the exchange ends. */
    private ByteBuf message;
    private GrpcMessages answer;
    /** A unary call's response message as JSON, once it arrived. */
    private String unaryJson;
    /** The NDJSON response's head went downstream: no other status can be answered. */
    private boolean streaming;

    GrpcJsonExchange(HttpDownstream downstream, HttpRouteRequest context, ExchangeTarget target, HttpProxy proxy,
            UpstreamPools pools) {
        super(downstream, context, target, target.route().retryPolicy() != null
                && target.route().retryPolicy().allowsMethod("POST", true), pools);
        this.calls = proxy.rpcCalls().grpc();
        this.config = context.route().rpcCall();
        this.head = context.request();
        this.timeoutNanos = context.timeoutNanos(false);
        this.client = new JsonCallDownstream(downstream, context, proxy);
    }

    /** Starts the route timeout with the request's head; the call goes to {@code host} once the body is read. */
    @Override
    public void start(Host host) {
        firstHost = host;
        startTimeout(timeoutNanos);
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

    /** The body is whole: the method is found in the source's descriptors (loaded first when due). */
    private void call() {
        CompositeByteBuf body = client.takeBody();
        String json = body.toString(StandardCharsets.UTF_8);
        record.received(body.readableBytes());
        body.release();
        if (!ClusterConfig.H2.equals(target.cluster().config().protocol())) {
            fail(CallError.unavailable("the route's cluster does not speak HTTP/2"), "rpc_call_unavailable");
            return;
        }
        String path;
        try {
            path = GrpcJsonCalls.callPath(config.prefix(), head.method().name(), head.uri());
        } catch (CallErrorException e) {
            fail(e.error(), "rpc_call_" + e.error().type());
            return;
        }
        String cluster = target.cluster().name();
        GrpcSchema schema = calls.schema(config, cluster);
        if (schema == null || schema.method(path) == null && GrpcJsonCalls.reloadForUnknown(schema)) {
            calls.load(config, cluster, firstHost.connectAddress()).whenComplete((loaded, error) ->
                    downstream.eventLoop().execute(() -> {
                        typed(loaded, path, json);
                        downstream.flushResponse();
                    }));
            return;
        }
        if (GrpcJsonCalls.stale(schema)) {
            calls.load(config, cluster, firstHost.connectAddress());
        }
        typed(schema, path, json);
    }

    /** Sends the call of the method at {@code path} of {@code schema}, or answers why it cannot be made. */
    private void typed(GrpcSchema schema, String path, String json) {
        if (done()) {
            return;
        }
        GrpcMethod found = schema.method(path);
        if (found == null) {
            String service = path.substring(1, path.lastIndexOf('/'));
            if (schema.failure() != null && !schema.hasService(service)) {
                fail(CallError.unavailable("the service's descriptors cannot be loaded"), "rpc_call_unavailable");
            } else {
                fail(CallError.notFound(schema.hasService(service) ? service + " has no method "
                        + path.substring(path.lastIndexOf('/') + 1) : "no service " + service), "rpc_call_not_found");
            }
            return;
        }
        if (found.clientStreaming()) {
            fail(CallError.badRequest(path + " streams its requests: a JSON call sends one message"),
                    "rpc_call_bad_request");
            return;
        }
        try {
            message = found.request(downstream.alloc(), json);
        } catch (CallErrorException e) {
            fail(e.error(), "rpc_call_bad_request");
            return;
        }
        method = found;
        startAttempt(firstHost);
    }

    /** The attempt has its HTTP/2 stream: the call goes up whole. */
    @Override
    public void attemptConnected(HttpAttempt connected) {
        FullHttpRequest request = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.POST, method.path(),
                message.retainedDuplicate());
        HttpHeaders headers = request.headers();
        for (Map.Entry<String, String> header : head.headers()) {
            headers.add(header.getKey(), header.getValue());
        }
        HopByHopHeaders.strip(headers);
        Http2ExtensionHeaders.strip(headers);
        for (String name : NOT_METADATA) {
            headers.remove(name);
        }
        String authority = context.authority();
        headers.set(HttpHeaderNames.HOST, authority == null ? target.cluster().name() : authority)
                .set(HttpHeaderNames.CONTENT_TYPE, Grpc.CONTENT_TYPE)
                .set(HttpHeaderNames.TE, HttpHeaderValues.TRAILERS)
                .set(Grpc.TIMEOUT, Math.max(1, TimeUnit.NANOSECONDS.toMillis(timeoutNanos)) + "m");
        UpstreamConnection connection = connected.connection();
        connection.write(request);
        connection.flush();
    }

    /** The host reset the stream, or its connection closed, before the call was answered whole. */
    @Override
    public void attemptClosed(HttpAttempt closed) {
        if (retriedAfterReset(closed)) {
            return;
        }
        record.flag(ResponseFlag.UPSTREAM_CONNECTION_TERMINATION);
        fail(CallError.badGateway("the provider closed the call before answering"), "upstream_reset");
    }

    /** A cancel of the host is a reset like any other: the call gets no answer. */
    @Override
    public void attemptCancelled(HttpAttempt cancelled) {
        attemptClosed(cancelled);
    }

    /** The call is one message, written at once. */
    @Override
    public void upstreamWritabilityChanged(boolean writable) {
    }

    @Override
    protected void timedOut(String reason) {
        fail(CallError.timeout("the call timed out"), reason);
    }

    @Override
    protected void overflowed() {
        fail(CallError.unavailable("too many calls to the service's providers"), "upstream_overflow");
    }

    @Override
    protected void unavailable(String reason) {
        fail(CallError.unavailable("no healthy provider"), reason);
    }

    @Override
    protected boolean retryPossible() {
        return !streaming;
    }

    /** The response's head came: a refusal now is a reset. */
    @Override
    protected boolean responseStarted() {
        return answer != null;
    }

    /** A part of the host's answer; ownership passes here. */
    @Override
    public void attemptResponse(HttpAttempt answering, HttpObject msg) {
        if (msg.decoderResult().isFailure()) {
            ReferenceCountUtil.release(msg);
            attemptClosed(answering);
            return;
        }
        if (msg instanceof HttpResponse response) {
            int code = response.status().code();
            if (code >= 100 && code < 200) {
                ReferenceCountUtil.release(msg);
                return;
            }
            target.outcomes().responded(answering.host(), code);
            record.attemptAnswered(code);
            if (msg instanceof FullHttpResponse full) { // trailers-only: the status is in the head
                Status.Code status = status(code, full.headers());
                String grpcMessage = full.headers().get(Grpc.MESSAGE);
                full.release();
                if (retryWanted(code, status)) {
                    record.cluster().requestCompleted(code, answering.elapsedNanos());
                    endAttempt(false);
                    scheduleRetry();
                    return;
                }
                ended(answering, status, grpcMessage);
                return;
            }
            if (code != 200) {
                ReferenceCountUtil.release(msg);
                record.cluster().requestCompleted(code, answering.elapsedNanos());
                endAttempt(false);
                fail(GrpcHttpStatus.error(GrpcHttpStatus.ofHttp(code), "the provider answered HTTP " + code), null);
                return;
            }
            answer = new GrpcMessages(downstream.alloc(), MAX_MESSAGE_BYTES);
            ReferenceCountUtil.release(msg);
            return;
        }
        if (!(msg instanceof HttpContent content) || answer == null) {
            ReferenceCountUtil.release(msg);
            return;
        }
        answer.add(content.content().retain());
        HttpHeaders trailers = msg instanceof LastHttpContent last ? last.trailingHeaders() : null;
        content.release();
        if (!readMessages()) {
            return;
        }
        if (trailers != null) {
            if (answer.hasPartial()) {
                ended(answering, Status.Code.INTERNAL, "the provider's answer ends inside a message");
                return;
            }
            ended(answering, status(200, trailers), trailers.get(Grpc.MESSAGE));
        }
    }

    /** Reads the whole messages that arrived; false when the exchange ended on a bad one. */
    private boolean readMessages() {
        ByteBuf next;
        try {
            while ((next = answer.next()) != null) {
                String json;
                try {
                    json = method.response(next);
                } finally {
                    next.release();
                }
                if (method.serverStreaming()) {
                    writeLine(json);
                } else if (unaryJson == null) {
                    unaryJson = json;
                }
            }
            return true;
        } catch (IllegalStateException | InvalidProtocolBufferException e) {
            record.flag(ResponseFlag.UPSTREAM_PROTOCOL_ERROR);
            endAttempt(false);
            answerStatus(Status.Code.INTERNAL, "the provider's answer cannot be read: " + e.getMessage());
            return false;
        }
    }

    /** Whether the retry policy retries this answer and grants it. */
    private boolean retryWanted(int httpStatus, Status.Code status) {
        return retryPolicy != null && status != Status.Code.OK
                && (retryPolicy.retriesStatus(httpStatus) || retryPolicy.retriesGrpcStatus(status.value()))
                && grantRetry();
    }

    private static Status.Code status(int httpStatus, HttpHeaders headers) {
        String value = headers.get(Grpc.STATUS);
        if (value != null) {
            return GrpcHttpStatus.code(value);
        }
        return httpStatus == 200 ? Status.Code.INTERNAL : GrpcHttpStatus.ofHttp(httpStatus);
    }

    /** The call ended with {@code status}: the attempt's stream ended whole, the answer follows. */
    private void ended(HttpAttempt answering, Status.Code status, String grpcMessage) {
        record.cluster().requestCompleted(GrpcHttpStatus.httpStatus(status), answering.elapsedNanos());
        endAttempt(true);
        if (status != Status.Code.OK) {
            answerStatus(status, grpcMessage);
        } else if (method.serverStreaming()) {
            endStream(null);
        } else if (unaryJson == null) {
            answerStatus(Status.Code.INTERNAL, "the provider answered no message");
        } else {
            respond(200, unaryJson, null);
        }
    }

    /** Answers a gRPC status other than OK: as the contract's error, or as the stream's last line. */
    private void answerStatus(Status.Code status, String grpcMessage) {
        CallError error = GrpcHttpStatus.error(status, grpcMessage);
        if (streaming) {
            endStream(error);
        } else {
            respond(error.status(), error.toJson(), null);
        }
    }

    /** Writes one message of a server stream as a line, the NDJSON head before the first. */
    private void writeLine(String json) {
        if (!streaming) {
            streaming = true;
            HttpResponse response = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
            response.headers().set(HttpHeaderNames.CONTENT_TYPE, NDJSON)
                    .set(HttpHeaderNames.TRANSFER_ENCODING, HttpHeaderValues.CHUNKED);
            if (context.filters() != null) {
                context.filters().response(new HttpFilterResponse(response, false, false));
            }
            if (!downstream.isHttp2Stream()) {
                HopByHopHeaders.setKeepAlive(response, context.version(), client.keepAlive());
            }
            record.responseHeaders(response.headers());
            downstream.write(response, false);
        }
        ByteBuf line = ByteBufUtil.writeUtf8(downstream.alloc(), json + "\n");
        record.sent(line.readableBytes());
        downstream.write(new DefaultHttpContent(line), false);
        UpstreamConnection connection = connection();
        if (!downstream.isWritable() && connection != null) {
            connection.setReading(false);
        }
    }

    /** Ends a server stream, with {@code error} as its last line when it failed (null: it ended well). */
    private void endStream(CallError error) {
        if (!streaming) {
            respond(200, "", null);
            return;
        }
        cleanUp();
        LastHttpContent last = error == null ? new DefaultLastHttpContent()
                : new DefaultLastHttpContent(ByteBufUtil.writeUtf8(downstream.alloc(), error.toJson() + "\n"));
        record.sent(last.content().readableBytes());
        record.finish(200);
        boolean keepAlive = downstream.isHttp2Stream() || client.keepAlive();
        ChannelFuture written = downstream.write(last, !keepAlive);
        downstream.flushResponse();
        downstream.exchangeDone(this, keepAlive ? null : written);
    }

    /** The gateway's own failure: the contract's error, counted by {@code reason} (null: the provider's answer). */
    @Override
    public void fail(CallError error, String reason) {
        if (streaming) {
            endStream(error);
            return;
        }
        respond(error.status(), error.toJson(), reason);
    }

    /**
     * Answers {@code json} with {@code status}; {@code reason} names a gateway error (counted and
     * sent as {@code x-tollgate-error}), null for the provider's own answer.
     */
    private void respond(int status, String json, String reason) {
        if (done()) {
            return;
        }
        cleanUp();
        client.answer(this, status, json, reason, true);
    }

    /** The call leaves at once when the body is whole: nothing to flush. */
    @Override
    public void flushUpstream() {
    }

    @Override
    public void downstreamClosed() {
        if (done()) {
            return;
        }
        cleanUp();
        record.flag(ResponseFlag.DOWNSTREAM_CONNECTION_TERMINATION);
        record.finish(streaming ? 200 : 0);
    }

    /** Marks the exchange ended and lets go of everything it holds. */
    private void cleanUp() {
        markDone();
        endAttempt(false);
        client.release();
        if (message != null) {
            message.release();
            message = null;
        }
        if (answer != null) {
            answer.release();
            answer = null;
        }
    }
}
