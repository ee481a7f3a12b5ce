package io.tollgate.benchmarks.bolt;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.util.collection.IntObjectHashMap;
import io.tollgate.protocols.bolt.BoltDecoder;
import io.tollgate.protocols.bolt.BoltFrame;
import io.tollgate.server.transport.Transport;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A Bolt load generator: keeps N connections with M requests in flight each (1 KiB body, routed by
 * the {@code service} header), for a fixed time, then prints QPS, p50/p99 latency and errors. One
 * event loop thread, so that it fits on one core. Usage:
 * {@code BoltLoadGenerator host port connections inFlight seconds [service]}.
 */
public final class BoltLoadGenerator {

    private static final int ID_OFFSET = 5;
    /** Latency histogram in 10 us buckets up to 1 s; slower responses count in the last bucket. */
    private static final int BUCKET_MICROS = 10;
    private static final int BUCKETS = 100_001;

    private final long[] histogram = new long[BUCKETS];
    private final ByteBuf template;
    private long responses;
    private long errors;
    private volatile boolean running = true;

    private BoltLoadGenerator(String service) {
        this.template = request(service);
    }

    public static void main(String[] args) throws InterruptedException {
        if (args.length < 5) {
            System.err.println("usage: BoltLoadGenerator host port connections inFlight seconds [service]");
            System.exit(2);
        }
        String host = args[0];
        int port = Integer.parseInt(args[1]);
        int connections = Integer.parseInt(args[2]);
        int inFlight = Integer.parseInt(args[3]);
        int seconds = Integer.parseInt(args[4]);
        BoltLoadGenerator generator = new BoltLoadGenerator(args.length > 5 ? args[5] : "bench.EchoService:1.0");
        Transport transport = Transport.best();
        EventLoopGroup group = transport.newGroup(1, "bolt-load");
        List<Channel> channels = new ArrayList<>();
        Bootstrap bootstrap = new Bootstrap().group(group).channel(transport.socketChannel())
                .option(ChannelOption.TCP_NODELAY, true)
                .handler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        ch.pipeline().addLast(new BoltDecoder()).addLast(generator.new Connection(inFlight));
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

    private static ByteBuf request(String service) {
        byte[] className = "com.alipay.sofa.rpc.core.request.SofaRequest".getBytes(StandardCharsets.US_ASCII);
        byte[] key = "service".getBytes(StandardCharsets.US_ASCII);
        byte[] value = service.getBytes(StandardCharsets.UTF_8);
        int headerLength = 8 + key.length + value.length;
        return ByteBufAllocator.DEFAULT.directBuffer().writeByte(1).writeByte(1).writeShort(1).writeByte(1).writeInt(0)
                .writeByte(1).writeInt(3000).writeShort(className.length).writeShort(headerLength).writeInt(1024)
                .writeBytes(className).writeInt(key.length).writeBytes(key).writeInt(value.length).writeBytes(value)
                .writeZero(1024);
    }

    /** One connection: M requests in flight, a new one sent for each response. */
    private final class Connection extends SimpleChannelInboundHandler<BoltFrame> {
        private final int inFlight;
        private final IntObjectHashMap<Long> sentAt = new IntObjectHashMap<>();
        private int nextId;

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
        protected void channelRead0(ChannelHandlerContext ctx, BoltFrame frame) {
            Long sent = sentAt.remove((int) frame.requestId());
            if (sent == null || frame.kind() != BoltFrame.Kind.RESPONSE) {
                return;
            }
            if (frame.status() != 0) {
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
            int id = ++nextId;
            ByteBuf request = ctx.alloc().directBuffer(template.readableBytes()).writeBytes(template, 0,
                    template.readableBytes());
            request.setInt(ID_OFFSET, id);
            sentAt.put(id, Long.valueOf(System.nanoTime()));
            ctx.write(request);
        }
    }
}
