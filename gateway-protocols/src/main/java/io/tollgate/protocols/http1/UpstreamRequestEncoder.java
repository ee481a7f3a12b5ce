package io.tollgate.protocols.http1;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.EncoderException;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.AsciiString;
import io.netty.util.ReferenceCountUtil;
import java.util.Iterator;
import java.util.Map;

/**
 * Encodes the requests sent to an HTTP/1.1 upstream: the request line and every header go
 * straight into one pooled buffer sized by the previous head, and the body's framing is learnt
 * while the headers are written (chunked when the last coding of {@code Transfer-Encoding} is
 * {@code chunked}, else the body bytes pass as they are), so no header is searched twice.
 *
 * <p>Takes {@link HttpRequest} (a {@link io.netty.handler.codec.http.FullHttpRequest} too), then
 * {@link HttpContent} up to a {@link LastHttpContent}; anything else passes through. Chunked
 * bodies get a size line per non-empty part and end with the last chunk and the trailers;
 * trailers of a body that is not chunked are dropped. A part out of order fails its write with an
 * {@link EncoderException}. Every message written here is released, or its buffer passed on.
 */
final class UpstreamRequestEncoder extends ChannelOutboundHandlerAdapter {

    private static final int CRLF = ('\r' << 8) | '\n';
    private static final int COLON_SPACE = (':' << 8) | ' ';
    private static final int LAST_CHUNK = ('0' << 16) | CRLF;
    private static final int MIN_HEAD_ESTIMATE = 256;
    private static final ByteBuf CHUNK_END = Unpooled.unreleasableBuffer(
            Unpooled.directBuffer(2).writeShort(CRLF)).asReadOnly();

    /** How the body of the request in progress is framed. */
    private enum Body {
        /** Between requests. */
        NONE,
        /** Bytes as they are: Content-Length, or no body. */
        AS_IS,
        CHUNKED
    }

    private final OutstandingRequests outstanding;
    /** The channel's allocator, looked up once: through the combined codec each lookup costs a few calls. */
    private ByteBufAllocator alloc;
    private Body body = Body.NONE;
    private int headEstimate = MIN_HEAD_ESTIMATE;

    UpstreamRequestEncoder(OutstandingRequests outstanding) {
        this.outstanding = outstanding;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        alloc = ctx.alloc();
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        if (msg instanceof HttpRequest request) {
            writeHead(ctx, request, promise);
        } else if (msg instanceof HttpContent content) {
            writeContent(ctx, content, promise);
        } else {
            ctx.write(msg, promise);
        }
    }

    private void writeHead(ChannelHandlerContext ctx, HttpRequest request, ChannelPromise promise) {
        if (body != Body.NONE) {
            refuse(request, promise, "a request head while the body of the previous request is in progress");
            return;
        }
        ByteBuf head = alloc.ioBuffer(headEstimate);
        boolean chunked;
        try {
            chunked = encodeHead(request, head);
        } catch (RuntimeException e) {
            head.release();
            ReferenceCountUtil.release(request);
            promise.setFailure(e);
            return;
        }
        int size = head.readableBytes();
        headEstimate = Math.max(MIN_HEAD_ESTIMATE, Math.max(size + 64, headEstimate - (headEstimate >> 3)));
        outstanding.headSent(request.method());
        body = chunked ? Body.CHUNKED : Body.AS_IS;
        if (!(request instanceof HttpContent content)) {
            ctx.write(head, promise);
            return;
        }
        if (!chunked && !content.content().isReadable()) {
            content.release();
            endRequest();
            ctx.write(head, promise);
            return;
        }
        ctx.write(head, ctx.voidPromise());
        writeContent(ctx, content, promise);
    }

    private void writeContent(ChannelHandlerContext ctx, HttpContent content, ChannelPromise promise) {
        if (body == Body.NONE) {
            refuse(content, promise, "body content before a request head");
            return;
        }
        boolean last = content instanceof LastHttpContent;
        ByteBuf data = content.content();
        if (body == Body.AS_IS) {
            if (last) {
                endRequest();
            }
            ctx.write(data, promise);
            return;
        }
        int size = data.readableBytes();
        if (size > 0) {
            ByteBuf sizeLine = alloc.ioBuffer(10);
            ByteBufUtil.writeAscii(sizeLine, Integer.toHexString(size));
            sizeLine.writeShort(CRLF);
            ctx.write(sizeLine, ctx.voidPromise());
            ctx.write(data, ctx.voidPromise());
        } else {
            data.release();
        }
        if (!last) {
            ctx.write(size > 0 ? CHUNK_END.duplicate() : Unpooled.EMPTY_BUFFER, promise);
            return;
        }
        HttpHeaders trailers = ((LastHttpContent) content).trailingHeaders();
        ByteBuf end = alloc.ioBuffer(trailers.isEmpty() ? 7 : 256);
        if (size > 0) {
            end.writeShort(CRLF);
        }
        end.writeMedium(LAST_CHUNK);
        writeHeaders(trailers, end);
        end.writeShort(CRLF);
        endRequest();
        ctx.write(end, promise);
    }

    private void endRequest() {
        body = Body.NONE;
        outstanding.requestEnded();
    }

    /** Writes the head into {@code out}; returns whether the body is chunked. */
    private static boolean encodeHead(HttpRequest request, ByteBuf out) {
        ByteBufUtil.copy(request.method().asciiName(), out);
        out.writeByte(' ');
        String uri = request.uri();
        ByteBufUtil.writeAscii(out, uri.isEmpty() ? "/" : uri);
        out.writeByte(' ');
        ByteBufUtil.writeAscii(out, request.protocolVersion().text());
        out.writeShort(CRLF);
        boolean chunked = writeHeaders(request.headers(), out);
        out.writeShort(CRLF);
        return chunked;
    }

    /** Writes each header as a line; returns whether a Transfer-Encoding among them ends in chunked. */
    private static boolean writeHeaders(HttpHeaders headers, ByteBuf out) {
        boolean chunked = false;
        Iterator<Map.Entry<CharSequence, CharSequence>> it = headers.iteratorCharSequence();
        while (it.hasNext()) {
            Map.Entry<CharSequence, CharSequence> header = it.next();
            CharSequence name = header.getKey();
            CharSequence value = header.getValue();
            writeAscii(name, out);
            out.writeShort(COLON_SPACE);
            writeAscii(value, out);
            out.writeShort(CRLF);
            if (name.length() == HttpHeaderNames.TRANSFER_ENCODING.length()
                    && AsciiString.contentEqualsIgnoreCase(name, HttpHeaderNames.TRANSFER_ENCODING)) {
                chunked = endsWithChunked(value);
            }
        }
        return chunked;
    }

    private static void writeAscii(CharSequence text, ByteBuf out) {
        if (text instanceof AsciiString ascii) {
            ByteBufUtil.copy(ascii, out);
        } else {
            ByteBufUtil.writeAscii(out, text);
        }
    }

    /** Whether the last coding of a Transfer-Encoding value is chunked (RFC 9112 section 6.1). */
    static boolean endsWithChunked(CharSequence value) {
        int end = value.length();
        while (end > 0 && isWhitespace(value.charAt(end - 1))) {
            end--;
        }
        int start = end - HttpHeaderValues.CHUNKED.length();
        if (start < 0 || !AsciiString.regionMatches(value, true, start, HttpHeaderValues.CHUNKED, 0, HttpHeaderValues.CHUNKED.length())) {
            return false;
        }
        return start == 0 || value.charAt(start - 1) == ',' || isWhitespace(value.charAt(start - 1));
    }

    private static boolean isWhitespace(char c) {
        return c == ' ' || c == '\t';
    }

    private static void refuse(Object msg, ChannelPromise promise, String what) {
        ReferenceCountUtil.release(msg);
        promise.setFailure(new EncoderException("unexpected " + what));
    }
}
