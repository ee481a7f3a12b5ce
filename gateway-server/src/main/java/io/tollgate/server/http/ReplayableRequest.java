package io.tollgate.server.http;

import io.netty.handler.codec.http.DefaultHttpRequest;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.util.ReferenceCountUtil;
import io.tollgate.server.upstream.http.UpstreamConnection;
import java.util.ArrayDeque;

/**
 * What a retry needs to send a request again whole: a copy of the head (the original goes to the
 * first attempt) and every body part received so far as a retained duplicate, which shares the
 * memory instead of copying it. Past {@code limit} body bytes everything held is released and
 * the request can no longer be replayed. Each buffer held is released exactly once, by
 * {@link #release()} or when the limit is passed; each replay writes fresh duplicates whose
 * release passes to the connection.
 */
final class ReplayableRequest {

    private final long limit;
    private final ArrayDeque<HttpContent> body = new ArrayDeque<>();
    private HttpRequest head;
    private long bytes;

    /** @param request the prepared request head; a {@link FullHttpRequest}'s content counts as body */
    ReplayableRequest(HttpRequest request, long limit) {
        this.limit = limit;
        if (request instanceof FullHttpRequest full) {
            bytes = full.content().readableBytes();
            head = bytes > limit ? null : full.retainedDuplicate();
        } else {
            head = copy(request);
        }
    }

    /** Whether every part of the request received so far is held, so that it can be replayed. */
    boolean intact() {
        return head != null;
    }

    /** Keeps a duplicate of {@code content}; the caller keeps ownership of {@code content} itself. */
    void add(HttpContent content) {
        if (head == null) {
            return;
        }
        bytes += content.content().readableBytes();
        if (bytes > limit) {
            release();
            return;
        }
        body.addLast(content.retainedDuplicate());
    }

    /** Writes the whole request received so far to {@code connection}, without flushing; MUST be {@link #intact()}. */
    void writeTo(UpstreamConnection connection) {
        if (head == null) {
            throw new IllegalStateException("the request passed its buffer limit of " + limit + " bytes");
        }
        connection.write(head instanceof FullHttpRequest full ? full.retainedDuplicate() : copy(head));
        for (HttpContent content : body) {
            connection.write(content.retainedDuplicate());
        }
    }

    /** Releases everything held; the request can no longer be replayed. Safe to call again. */
    void release() {
        if (head != null) {
            ReferenceCountUtil.release(head);
            head = null;
        }
        HttpContent content;
        while ((content = body.pollFirst()) != null) {
            content.release();
        }
    }

    private static HttpRequest copy(HttpRequest request) {
        return new DefaultHttpRequest(request.protocolVersion(), request.method(), request.uri(),
                request.headers().copy());
    }
}
