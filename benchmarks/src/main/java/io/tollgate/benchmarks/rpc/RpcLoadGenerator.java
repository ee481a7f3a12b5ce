package io.tollgate.benchmarks.rpc;

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
import java.util.function.Function;

/**
 * The load generator of every multiplexed RPC protocol (bench/rpc.sh): keeps N connections with M
 * requests in flight each, for a fixed time, then prints
 * {@code responses N, errors N, qps N, p50 N us, p99 N us}. Every request is one template with its
 * own id written in; each answer sends the next request. One event loop thread, so that it fits on
 * one core. A protocol supplies its {@link RpcWire} and its {@link Calls}.
 *
 * @param <M> the message type of the protocol's frame decoder
 */
public final class RpcLoadGenerator<M> {

    /**
     * A protocol's part of the load: the request it sends over and over, and how to read answers.
     *
     * @param <M> the message type of the protocol's frame decoder
     */
    public interface Calls<M> {

        /** The request every call sends, its id aside; copied for each call, never released. */
        ByteBuf requestTemplate();

        /** The largest request id the protocol carries; ids count from 1 and wrap back to 1 after it. */
        long maxRequestId();

        /** Writes {@code id} into {@code request}, a copy of the template. */
        void writeRequestId(ByteBuf request, long id);

        /** Whether {@code message} answers a call, rather than being a request, heartbeat or event. */
        boolean isResponse(M message);

        /** The request id of a response. */
        long requestId(M response);

        /** Whether a response reports an error. */
        boolean isError(M response);
    }

    /** Latency histogram in 10 us buckets up to 1 s; slower responses count in the last bucket. */
    private static final int BUCKET_MICROS = 10;
    private static final int BUCKETS = 100_001;

    private final Calls<M> calls;
    private final ByteBuf template;
    private final long[] histogram = new long[BUCKETS];
    private long responses;
    private long errors;
    private volatile boolean running = true;

    private RpcLoadGenerator(Calls<M> calls) {
        this.calls = calls;
        this.template = calls.requestTemplate();
    }

    /**
     * Runs a protocol's load generator from its {@code main}: {@code args} are
     * {@code host port connections inFlight seconds}, then whatever {@code calls} reads from them;
     * with fewer, prints {@code usage: <usage>} and exits with status 2.
     */
    public static <M> void run(String usage, String[] args, RpcWire<M> wire, Function<String[], Calls<M>> calls)
            throws InterruptedException {
        if (args.length < 5) {
            System.err.println("usage: " + usage);
            System.exit(2);
        }
        String host = args[0];
        int port = Integer.parseInt(args[1]);
        int connections = Integer.parseInt(args[2]);
        int inFlight = Integer.parseInt(args[3]);
        int seconds = Integer.parseInt(args[4]);
        RpcLoadGenerator<M> generator = new RpcLoadGenerator<>(calls.apply(args));
        Transport transport = Transport.best();
        EventLoopGroup group = transport.newGroup(1, wire.name() + "-load");
        List<Channel> channels = new ArrayList<>();
        Bootstrap bootstrap = new Bootstrap().group(group).channel(transport.socketChannel())
                .option(ChannelOption.TCP_NODELAY, true)
                .handler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        ch.pipeline().addLast(wire.frameDecoders().get())
                                .addLast(generator.new Connection(wire.messageType(), inFlight));
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
    private final class Connection extends SimpleChannelInboundHandler<M> {
        private final int inFlight;
        private final LongObjectHashMap<Long> sentAt = new LongObjectHashMap<>();
        private long nextId;

        Connection(Class<M> messageType, int inFlight) {
            super(messageType);
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
        protected void channelRead0(ChannelHandlerContext ctx, M message) {
            if (!calls.isResponse(message)) {
                return;
            }
            Long sent = sentAt.remove(calls.requestId(message));
            if (sent == null) {
                return;
            }
            if (calls.isError(message)) {
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
            nextId = nextId == calls.maxRequestId() ? 1 : nextId + 1;
            long id = nextId;
            ByteBuf request = ctx.alloc().directBuffer(template.readableBytes()).writeBytes(template, 0,
                    template.readableBytes());
            calls.writeRequestId(request, id);
            sentAt.put(id, Long.valueOf(System.nanoTime()));
            ctx.write(request);
        }
    }
}
