package io.tollgate.server.listener;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.ssl.SslClientHelloHandler;
import io.netty.util.concurrent.Future;
import io.tollgate.core.metrics.ListenerMetrics;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Refuses a TLS client whose ClientHello offers ALPN names, none of which the listener serves,
 * with a {@code no_application_protocol} alert (RFC 7301, section 3.2), counted, before the
 * handshake goes on; the TLS engines would only ignore such an offer, and the client would then
 * speak a protocol nothing here understands. A client that offers no ALPN at all passes, and so
 * does anything that is not a readable ClientHello: the TLS engine after this handler judges it.
 */
final class AlpnOfferCheck extends SslClientHelloHandler<Boolean> {

    /** The error reason counted for a refused offer. */
    static final String NO_APPLICATION_PROTOCOL = "tls_no_application_protocol";

    private static final Logger log = LoggerFactory.getLogger(AlpnOfferCheck.class);
    private static final int ALPN_EXTENSION = 16;
    /** A plaintext TLS record holding one fatal (2) alert, no_application_protocol (120). */
    private static final byte[] NO_APPLICATION_PROTOCOL_ALERT = {0x15, 0x03, 0x03, 0x00, 0x02, 0x02, 0x78};

    private final List<String> served;
    private final ListenerMetrics metrics;
    private boolean refused;

    /** @param served the ALPN names the listener offers */
    AlpnOfferCheck(List<String> served, ListenerMetrics metrics) {
        this.served = List.copyOf(served);
        this.metrics = metrics;
    }

    /** @param clientHello the ClientHello body, or null when the first bytes are no ClientHello; released by the caller */
    @Override
    protected Future<Boolean> lookup(ChannelHandlerContext ctx, ByteBuf clientHello) {
        if (clientHello == null) {
            return ctx.executor().newSucceededFuture(true);
        }
        List<String> offered = offeredNames(clientHello);
        return ctx.executor().newSucceededFuture(offered.isEmpty() || offered.stream().anyMatch(served::contains));
    }

    @Override
    protected void onLookupComplete(ChannelHandlerContext ctx, Future<Boolean> acceptable) {
        if (acceptable.getNow()) {
            ctx.pipeline().remove(this);
            return;
        }
        if (refused) {
            return;
        }
        refused = true;
        metrics.error(NO_APPLICATION_PROTOCOL);
        log.debug("{}: the client offers no ALPN name of {}, closing", ctx.channel().remoteAddress(), served);
        ctx.writeAndFlush(Unpooled.wrappedBuffer(NO_APPLICATION_PROTOCOL_ALERT)).addListener(ChannelFutureListener.CLOSE);
    }

    /**
     * The ALPN names a ClientHello body offers (RFC 8446, section 4.1.2; RFC 7301, section 3.1);
     * empty when it offers none or cannot be read.
     */
    private static List<String> offeredNames(ByteBuf hello) {
        int end = hello.writerIndex();
        int at = hello.readerIndex() + 2 + 32;
        at = skipVector(hello, at, end, 1);
        at = skipVector(hello, at, end, 2);
        at = skipVector(hello, at, end, 1);
        if (at < 0 || at + 2 > end) {
            return List.of();
        }
        int extensionsEnd = Math.min(end, at + 2 + hello.getUnsignedShort(at));
        at += 2;
        while (at + 4 <= extensionsEnd) {
            int type = hello.getUnsignedShort(at);
            int length = hello.getUnsignedShort(at + 2);
            at += 4;
            if (at + length > extensionsEnd) {
                return List.of();
            }
            if (type == ALPN_EXTENSION) {
                return protocolNames(hello, at, at + length);
            }
            at += length;
        }
        return List.of();
    }

    /** The index after a vector whose length prefix takes {@code lengthBytes}, or -1 when it overruns {@code end}. */
    private static int skipVector(ByteBuf hello, int at, int end, int lengthBytes) {
        if (at < 0 || at + lengthBytes > end) {
            return -1;
        }
        int length = lengthBytes == 1 ? hello.getUnsignedByte(at) : hello.getUnsignedShort(at);
        int next = at + lengthBytes + length;
        return next > end ? -1 : next;
    }

    private static List<String> protocolNames(ByteBuf hello, int at, int end) {
        if (at + 2 > end) {
            return List.of();
        }
        int listEnd = Math.min(end, at + 2 + hello.getUnsignedShort(at));
        List<String> names = new ArrayList<>();
        for (int i = at + 2; i < listEnd; ) {
            int length = hello.getUnsignedByte(i);
            if (i + 1 + length > listEnd) {
                break;
            }
            names.add(hello.toString(i + 1, length, StandardCharsets.US_ASCII));
            i += 1 + length;
        }
        return names;
    }
}
