package io.tollgate.server.http;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.LastHttpContent;
import io.tollgate.core.filter.RequestBodyListener;
import java.util.Arrays;

/**
 * The body of a request a stream filter holds, copied as it is read, up to the filter's limit,
 * for the filter to decide on (ext_authz {@code with_request_body}). The parts themselves stay
 * queued for the upstream; this keeps a copy of their bytes only. The listener hears once: when
 * the body ends within the limit (whole), or when it goes past it (its first bytes).
 */
final class HeldRequestBody {

    private static final int FIRST_CAPACITY = 1024;

    private final int maxBytes;
    private final RequestBodyListener listener;
    private byte[] bytes;
    private int size;
    private boolean told;

    HeldRequestBody(int maxBytes, RequestBodyListener listener) {
        this.maxBytes = maxBytes;
        this.listener = listener;
        this.bytes = new byte[Math.min(maxBytes, FIRST_CAPACITY)];
    }

    /**
     * Starts reading the body of the request {@code downstream} holds: its head's own content (a
     * complete request), then the parts already queued behind it, then those read from now on
     * ({@link #keepReading}), for which reading resumes while more is wanted.
     */
    static HeldRequestBody start(HttpDownstream downstream, HttpRequest head, Iterable<Object> queued, int maxBytes,
            RequestBodyListener listener) {
        HeldRequestBody body = new HeldRequestBody(maxBytes, listener);
        if (HttpUtil.is100ContinueExpected(head)) {
            // the client sends its body once told to go on, which the route's action would do only after the check
            head.headers().remove(HttpHeaderNames.EXPECT);
            downstream.writeAndFlush(new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.CONTINUE,
                    Unpooled.EMPTY_BUFFER));
        }
        if (head instanceof HttpContent content) {
            body.take(content);
        }
        if (queued != null) {
            for (Object part : queued) {
                if (!(part instanceof HttpContent content) || !body.keepReading(content)) {
                    break;
                }
            }
        }
        if (!body.told) {
            downstream.resume(HttpDownstream.PAUSE_PIPELINED);
        }
        return body;
    }

    /**
     * A message read while the request is held and queued for later: its bytes are copied when it
     * is a part of the body; whether reading should go on for more of the body.
     */
    boolean keepReading(Object msg) {
        if (msg instanceof HttpContent part) {
            take(part);
        }
        return !told;
    }

    /** Copies {@code part}'s bytes (without taking it) and tells the listener when the body ended or outgrew the limit. */
    void take(HttpContent part) {
        if (told) {
            return;
        }
        ByteBuf content = part.content();
        int length = content.readableBytes();
        int copied = Math.min(length, maxBytes - size);
        if (size + copied > bytes.length) {
            bytes = Arrays.copyOf(bytes, (int) Math.min(maxBytes, Math.max(size + copied, 2L * bytes.length)));
        }
        content.getBytes(content.readerIndex(), bytes, size, copied);
        size += copied;
        if (copied < length) {
            tell(false);
        } else if (part instanceof LastHttpContent) {
            tell(true);
        }
    }

    private void tell(boolean whole) {
        told = true;
        listener.bodyRead(size == bytes.length ? bytes : Arrays.copyOf(bytes, size), whole);
        bytes = null;
    }
}
