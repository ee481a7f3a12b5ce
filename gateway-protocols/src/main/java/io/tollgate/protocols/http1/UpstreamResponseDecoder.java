package io.tollgate.protocols.http1;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.PrematureChannelClosureException;
import io.netty.handler.codec.http.HttpDecoderConfig;
import io.netty.handler.codec.http.HttpMessage;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseDecoder;
import io.netty.handler.codec.http.LastHttpContent;
import java.util.List;

/**
 * Netty's response decoder told by {@link OutstandingRequests} which request each response
 * answers: a response to HEAD, or a 200 to CONNECT, has no body whatever its headers say; after
 * a CONNECT the bytes pass through undecoded. When the connection closes with a response still
 * owed it fires a {@link PrematureChannelClosureException}.
 */
final class UpstreamResponseDecoder extends HttpResponseDecoder {

    private final OutstandingRequests outstanding;

    UpstreamResponseDecoder(HttpDecoderConfig config, OutstandingRequests outstanding) {
        super(config);
        this.outstanding = outstanding;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf buffer, List<Object> out) throws Exception {
        if (outstanding.tunnelled()) {
            int readable = actualReadableBytes();
            if (readable > 0) {
                out.add(buffer.readRetainedSlice(readable));
            }
            return;
        }
        int before = out.size();
        super.decode(ctx, buffer, out);
        for (int i = before; i < out.size(); i++) {
            if (out.get(i) instanceof LastHttpContent) {
                outstanding.responseEnded();
            }
        }
    }

    @Override
    protected boolean isContentAlwaysEmpty(HttpMessage msg) {
        int code = ((HttpResponse) msg).status().code();
        if (code == 100 || code == 101) {
            return super.isContentAlwaysEmpty(msg);
        }
        HttpMethod method = outstanding.pollMethod();
        if (HttpMethod.HEAD.equals(method)) {
            return true;
        }
        if (HttpMethod.CONNECT.equals(method) && code == 200) {
            outstanding.tunnel();
            return true;
        }
        return super.isContentAlwaysEmpty(msg);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        super.channelInactive(ctx);
        long owed = outstanding.owed();
        if (owed > 0) {
            ctx.fireExceptionCaught(new PrematureChannelClosureException(
                    "upstream connection closed with " + owed + " response(s) owed"));
        }
    }
}
