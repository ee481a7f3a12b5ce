package io.tollgate.server.listener;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.tollgate.server.proxyprotocol.MalformedProxyHeaderException;
import io.tollgate.server.proxyprotocol.ProxyHeader;
import io.tollgate.server.proxyprotocol.ProxyHeaderParser;
import io.tollgate.server.proxyprotocol.ProxyHeaderParser.Detection;
import io.tollgate.server.transport.ClientAddresses;
import io.tollgate.server.transport.HandlerFailures;
import java.util.List;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the PROXY protocol header of a connection from a trusted source, the only handler of its
 * pipeline until then: the connection's opening is held back, and once the header is read its
 * addresses are recorded ({@link ClientAddresses#carry}), the rest of the pipeline is installed,
 * shown the opening, and given the bytes that followed the header untouched. Refused and counted in
 * {@code tollgate.downstream.cx.rejected}: a header that is malformed ({@code proxy_protocol_malformed}),
 * cut by the end of the connection ({@code proxy_protocol_truncated}), not whole within the timeout
 * ({@code proxy_protocol_timeout}), or missing where required ({@code proxy_protocol_missing}).
 */
final class ProxyProtocolReader extends ByteToMessageDecoder {

    private static final Logger log = LoggerFactory.getLogger(ProxyProtocolReader.class);

    private final ProxyProtocolStage stage;
    private final Consumer<ChannelPipeline> rest;
    private HandlerTimeout timeout;
    private Detection detection = Detection.NEED_MORE;
    private boolean done;

    ProxyProtocolReader(ProxyProtocolStage stage, Consumer<ChannelPipeline> rest) {
        this.stage = stage;
        this.rest = rest;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        timeout = HandlerTimeout.start(ctx, stage.timeoutNanos(), stage.metrics(), "proxy_protocol_timeout");
    }

    @Override
    protected void handlerRemoved0(ChannelHandlerContext ctx) {
        timeout.cancel();
    }

    /** Held back: the handlers installed after the header see it then. */
    @Override
    public void channelActive(ChannelHandlerContext ctx) {
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (done) {
            in.skipBytes(in.readableBytes());
            return;
        }
        if (detection == Detection.NEED_MORE) {
            detection = ProxyHeaderParser.detect(in);
            if (detection == Detection.NEED_MORE) {
                return;
            }
            if (detection == Detection.NONE) {
                if (stage.required()) {
                    refuse(ctx, in, "proxy_protocol_missing", "the connection does not start with a PROXY protocol header");
                } else {
                    stage.absent();
                    serve(ctx);
                }
                return;
            }
        }
        ProxyHeader header;
        try {
            header = ProxyHeaderParser.parse(in, detection);
        } catch (MalformedProxyHeaderException e) {
            refuse(ctx, in, "proxy_protocol_malformed", e.getMessage());
            return;
        }
        if (header != null) {
            stage.read(header);
            ClientAddresses.carry(ctx.channel(), header);
            serve(ctx);
        }
    }

    /** Installs the rest of the pipeline, shows it the opening and leaves, handing on what follows the header. */
    private void serve(ChannelHandlerContext ctx) {
        done = true;
        rest.accept(ctx.pipeline());
        ctx.fireChannelActive();
        ctx.pipeline().remove(this);
    }

    private void refuse(ChannelHandlerContext ctx, ByteBuf in, String reason, String why) {
        done = true;
        log.debug("{}: {}, closing", ctx.channel().remoteAddress(), why);
        in.skipBytes(in.readableBytes());
        stage.rejected(reason);
        ctx.close();
    }

    /** The connection's input ended: a header begun and not finished is a truncated one. */
    @Override
    protected void decodeLast(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (!done && in.isReadable()) {
            refuse(ctx, in, "proxy_protocol_truncated", "the connection ended within its PROXY protocol header");
        }
        in.skipBytes(in.readableBytes());
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        HandlerFailures.caught(log, ctx.channel(), cause, stage.metrics().connectionErrors(), true);
        ctx.close();
    }
}
