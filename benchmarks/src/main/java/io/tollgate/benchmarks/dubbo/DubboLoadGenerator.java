package io.tollgate.benchmarks.dubbo;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.util.collection.LongObjectHashMap;
import io.tollgate.server.transport.Transport;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A Dubbo load generator: keeps N connections with M requests in flight each, for a fixed time,
 * then prints QPS, p50/p99 latency and errors (answers whose status is not 20) in the format of
 * the Bolt one. Every request is the same frame a real Dubbo 3.3.6 consumer sent,
 * {@code demo.Echoer.echo(<1 KB string>)} in hessian2, with its own id written at offset 4. One
 * event loop thread, so that it fits on one core. Usage:
 * {@code DubboLoadGenerator host port connections inFlight seconds}.
 */
public final class DubboLoadGenerator {

    /** Latency histogram in 10 us buckets up to 1 s; slower responses count in the last bucket. */
    private static final int BUCKET_MICROS = 10;
    private static final int BUCKETS = 100_001;

    private final long[] histogram = new long[BUCKETS];
    private final ByteBuf template = DubboWire.captured("dubbo-echo-1kb.request.bin");
    private long responses;
    private long errors;
    private volatile boolean running = true;

    private DubboLoadGenerator() {
    }

    public static void main(String[] args) throws InterruptedException {
        if (args.length < 5) {
            System.err.println("usage: DubboLoadGenerator host port connections inFlight seconds");
            System.exit(2);
        }
        String host = args[0];
        int port = Integer.parseInt(args[1]);
        int connections = Integer.parseInt(args[2]);
        int inFlight = Integer.parseInt(args[3]);
        int seconds = Integer.parseInt(args[4]);
        DubboLoadGenerator generator = new DubboLoadGenerator();
        Transport transport = Transport.best();
        EventLoopGroup group = transport.newGroup(1, "dubbo-load");
        List<Channel> channels = new ArrayList<>();
        Bootstrap bootstrap = new Bootstrap().group(group).channel(transport.socketChannel())
                .option(ChannelOption.TCP_NODELAY, true)
                .handler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        ch.pipeline().addLast(DubboWire.frames()).addLast(generator.new Connection(inFlight));
                    }
                });
        for (int i = 0; i < connections; i++) {
            channels.add(bootstrap.connect(host, port).sync().channel());
        }
        long start = System.nanoTime();
        group.schedule(() -> { }, seconds, TimeUnit.SECONDS).await();
        generator.running = false;
        long elapsed = System.nanoTime() - start;
        group.submit(() -> generator.report(elapsed)).sync();
        channels.forEach(Channel::close);
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
    }

    private void report(long elapsedNanos) {
        double qps = responses / (elapsedNanos / 1e9);
        System.out.printf("responses %d, errors %d, qps %.0f, p50 %d us, p99 %d us%n", responses, errors, qps,
                percentile(0.50), percentile(0.99));
    }

    private long percentile(double fraction) {
        long target = (long) Math.ceil(responses * fraction);
        long seen = 0;
        for (int i = 0; i < BUCKETS; i++) {
            seen += histogram[i];
            if (seen >= target && seen > 0) {
                return (long) i * BUCKET_MICROS;
            }
        }
        return 0;
    }

    /** One connection: M requests in flight, a new one sent for each response. */
    private final class Connection extends SimpleChannelInboundHandler<ByteBuf> {
        private final int inFlight;
        private final LongObjectHashMap<Long> sentAt = new LongObjectHashMap<>();
        private long nextId;

        Connection(int inFlight) {
            this.inFlight = inFlight;
        }

        @Override
        public void channelActive(ChannelHandlerContext ctx) {
            for (int i = 0; i < inFlight; i++) {
                send(ctx);
            }
            ctx.flush();
        }

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, ByteBuf frame) {
            int flag = frame.getUnsignedByte(DubboWire.FLAG_OFFSET);
            if ((flag & (DubboWire.FLAG_REQUEST | DubboWire.FLAG_EVENT)) != 0) {
                return;
            }
            Long sent = sentAt.remove(frame.getLong(DubboWire.ID_OFFSET));
            if (sent == null) {
                return;
            }
            if (frame.getUnsignedByte(DubboWire.STATUS_OFFSET) != DubboWire.STATUS_OK) {
                errors++;
            }
            responses++;
            long micros = (System.nanoTime() - sent) / 1000;
            histogram[(int) Math.min(BUCKETS - 1, micros / BUCKET_MICROS)]++;
            if (running) {
                send(ctx);
            }
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            ctx.flush();
        }

        private void send(ChannelHandlerContext ctx) {
            long id = ++nextId;
            ByteBuf request = ctx.alloc().directBuffer(template.readableBytes()).writeBytes(template, 0,
                    template.readableBytes());
            request.setLong(DubboWire.ID_OFFSET, id);
            sentAt.put(id, Long.valueOf(System.nanoTime()));
            ctx.write(request);
        }
    }
}
