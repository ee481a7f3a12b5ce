package io.tollgate.server.rpc;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.tollgate.protocols.bolt.BoltCodec;
import io.tollgate.protocols.bolt.BoltFrame;
import io.tollgate.protocols.rpc.RpcFrameDecoder;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BiFunction;

/**
 * A Bolt upstream that records the bytes of every request it receives and, once a batch of them
 * has arrived, answers the whole batch in reverse order, so that responses come out of order.
 */
final class RecordingBoltUpstream implements AutoCloseable {

    /** Makes the answer to the {@code index}-th request of a batch; the buffer is written and released. */
    interface Answer extends BiFunction<Integer, BoltFrame, ByteBuf> {
    }

    private final Channel server;
    private final List<byte[]> received = new CopyOnWriteArrayList<>();
    private final List<byte[]> sent = new CopyOnWriteArrayList<>();
    private volatile int batch = 1;
    private volatile Answer answer;

    RecordingBoltUpstream(EventLoopGroup group) throws InterruptedException {
        this.server = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
                .childHandler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        ch.pipeline().addLast(new RpcFrameDecoder(BoltCodec.DEFAULTS))
                                .addLast(new SimpleChannelInboundHandler<BoltFrame>() {
                            private final List<ByteBuf> answers = new ArrayList<>();

                            @Override
                            protected void channelRead0(ChannelHandlerContext ctx, BoltFrame frame) {
                                if (frame.kind() != BoltFrame.Kind.REQUEST) {
                                    return;
                                }
                                received.add(ByteBufUtil.getBytes(frame.bytes()));
                                answers.add(answer.apply(answers.size(), frame));
                                if (answers.size() < batch) {
                                    return;
                                }
                                for (int i = answers.size() - 1; i >= 0; i--) {
                                    sent.add(ByteBufUtil.getBytes(answers.get(i)));
                                    ctx.write(answers.get(i));
                                }
                                answers.clear();
                                ctx.flush();
                            }
                        });
                    }
                }).bind("127.0.0.1", 0).sync().channel();
    }

    /** Answers every {@code batch} requests with {@code answer}, from the next request on. */
    void answering(int batch, Answer answer) {
        this.batch = batch;
        this.answer = answer;
        received.clear();
        sent.clear();
    }

    int port() {
        return ((InetSocketAddress) server.localAddress()).getPort();
    }

    /** The bytes of each request received, in order. */
    List<byte[]> received() {
        return received;
    }

    /** The bytes of each response sent, in the order sent. */
    List<byte[]> sent() {
        return sent;
    }

    @Override
    public void close() {
        server.close().syncUninterruptibly();
    }
}
