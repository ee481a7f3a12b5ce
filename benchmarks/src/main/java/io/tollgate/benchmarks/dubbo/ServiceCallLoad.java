package io.tollgate.benchmarks.dubbo;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.util.collection.LongObjectHashMap;
import io.tollgate.server.transport.Transport;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * Dubbo calls of many services at a fixed rate, over a few connections to one address: each call
 * is {@code echo(String)} of the next service in turn, in hessian2 as a Dubbo 3.3 consumer writes it
 * (the five leading strings, the argument, the {@code path}, {@code interface}, {@code version} and
 * {@code timeout} attachments). Counts the answers, those whose status is not OK, the calls of a
 * connection that closed under them and those still unanswered at the end; keeps the largest
 * latency. One event loop thread; every field is confined to it.
 */
final class ServiceCallLoad {

    /** How often each connection sends its share of the rate. */
    private static final long TICK_MILLIS = 10;

    private final ByteBuf[] requests;
    private final EventLoopGroup group;
    private final List<Channel> channels = new ArrayList<>();
    private final int callsPerTick;
    private long sent;
    private long answered;
    private long failed;
    private long lost;
    private long maxLatencyNanos;
    private long nextService;
    private volatile boolean running = true;

    private ServiceCallLoad(List<String> services, EventLoopGroup group, int callsPerTick) {
        this.requests = services.stream().map(ServiceCallLoad::request).toArray(ByteBuf[]::new);
        this.group = group;
        this.callsPerTick = callsPerTick;
    }

    /**
     * Starts calling {@code services} in turn through {@code port} on 127.0.0.1 over
     * {@code connections} connections, {@code callsPerSecond} in all (0: none but those asked for).
     */
    static ServiceCallLoad start(List<String> services, int port, int connections, int callsPerSecond)
            throws InterruptedException {
        Transport transport = Transport.best();
        EventLoopGroup group = transport.newGroup(1, "dubbo-load");
        int perTick = callsPerSecond == 0 ? 0 : Math.max(1, (int) (callsPerSecond * TICK_MILLIS / 1000 / connections));
        ServiceCallLoad load = new ServiceCallLoad(services, group, perTick);
        Bootstrap bootstrap = new Bootstrap().group(group).channel(transport.socketChannel())
                .option(ChannelOption.TCP_NODELAY, true)
                .handler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        ch.pipeline().addLast(DubboWire.frames()).addLast(load.new Connection());
                    }
                });
        for (int i = 0; i < connections; i++) {
            load.channels.add(bootstrap.connect("127.0.0.1", port).sync().channel());
        }
        return load;
    }

    /** Calls every service once, {@code atOnce} at a time, and waits for the answers; returns how many failed. */
    static long callEachOnce(List<String> services, int port, int atOnce) throws InterruptedException {
        ServiceCallLoad load = start(services, port, 1, 0);
        try {
            for (int i = 0; i < services.size(); i += atOnce) {
                int batch = Math.min(atOnce, services.size() - i);
                load.group.submit(() -> load.send(load.channels.get(0), batch)).sync();
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                while (load.outstanding() > 0 && System.nanoTime() < deadline) {
                    TimeUnit.MILLISECONDS.sleep(5);
                }
            }
            return load.failedOrLost();
        } finally {
            load.close();
        }
    }

    private long outstanding() throws InterruptedException {
        try {
            return group.submit(() -> sent - answered - lost).get();
        } catch (ExecutionException e) {
            throw new IllegalStateException(e);
        }
    }

    private long failedOrLost() throws InterruptedException {
        try {
            return group.submit(() -> failed + lost + (sent - answered - lost)).get();
        } catch (ExecutionException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Stops sending, waits up to {@code graceSeconds} for the calls in flight, and returns what
     * happened: {@code calls N, F failed, L lost with their connection, U unanswered, max latency M ms}.
     */
    String stop(int graceSeconds) throws InterruptedException {
        running = false;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(graceSeconds);
        while (outstanding() > 0 && System.nanoTime() < deadline) {
            TimeUnit.MILLISECONDS.sleep(10);
        }
        try {
            return group.submit(() -> String.format("calls %d, %d failed, %d lost with their connection, "
                    + "%d unanswered, max latency %.1f ms", sent, failed, lost, sent - answered - lost,
                    maxLatencyNanos / 1e6)).get();
        } catch (ExecutionException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Closes the connections and the loop. */
    void close() throws InterruptedException {
        channels.forEach(Channel::close);
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
    }

    private void send(Channel channel, int calls) {
        Connection connection = channel.pipeline().get(Connection.class);
        for (int i = 0; i < calls; i++) {
            connection.send(channel);
        }
        channel.flush();
    }

    /** One connection: its calls in flight by id; sends its share every tick while the load runs. */
    private final class Connection extends SimpleChannelInboundHandler<ByteBuf> {
        private final LongObjectHashMap<Long> sentAt = new LongObjectHashMap<>();
        private long nextId;

        @Override
        public void channelActive(ChannelHandlerContext ctx) {
            if (callsPerTick > 0) {
                ctx.executor().scheduleAtFixedRate(() -> {
                    if (running && ctx.channel().isActive()) {
                        ServiceCallLoad.this.send(ctx.channel(), callsPerTick);
                    }
                }, TICK_MILLIS, TICK_MILLIS, TimeUnit.MILLISECONDS);
            }
        }

        void send(Channel channel) {
            ByteBuf template = requests[(int) (nextService++ % requests.length)];
            ByteBuf request = channel.alloc().directBuffer(template.readableBytes()).writeBytes(template, 0,
                    template.readableBytes());
            long id = ++nextId;
            request.setLong(DubboWire.ID_OFFSET, id);
            sentAt.put(id, Long.valueOf(System.nanoTime()));
            sent++;
            channel.write(request);
        }

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, ByteBuf frame) {
            int flag = frame.getUnsignedByte(DubboWire.FLAG_OFFSET);
            if ((flag & (DubboWire.FLAG_REQUEST | DubboWire.FLAG_EVENT)) != 0) {
                return;
            }
            Long at = sentAt.remove(frame.getLong(DubboWire.ID_OFFSET));
            if (at == null) {
                return;
            }
            answered++;
            maxLatencyNanos = Math.max(maxLatencyNanos, System.nanoTime() - at);
            if (frame.getUnsignedByte(DubboWire.STATUS_OFFSET) != DubboWire.STATUS_OK) {
                failed++;
            }
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            lost += sentAt.size();
            sentAt.clear();
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close();
        }
    }

    /** A two-way hessian2 request (id 0) of {@code service}'s {@code echo(String)}. */
    private static ByteBuf request(String service) {
        ByteBuf body = Unpooled.buffer();
        for (String field : new String[] {"2.0.2", service, "0.0.0", "echo", "Ljava/lang/String;", "hello"}) {
            hessianString(body, field);
        }
        body.writeByte('H');
        for (String field : new String[] {"path", service, "interface", service, "version", "0.0.0", "timeout",
            "3000"}) {
            hessianString(body, field);
        }
        body.writeByte('Z');
        ByteBuf frame = Unpooled.unreleasableBuffer(Unpooled.directBuffer(DubboWire.HEADER_LENGTH + body.readableBytes()));
        frame.writeShort(DubboWire.MAGIC).writeByte(DubboWire.FLAG_REQUEST | DubboWire.FLAG_TWO_WAY | 2).writeByte(0)
                .writeLong(0).writeInt(body.readableBytes()).writeBytes(body);
        return frame;
    }

    /** A hessian2 string of ASCII characters, shorter than 1024. */
    private static void hessianString(ByteBuf out, String value) {
        byte[] bytes = value.getBytes(StandardCharsets.US_ASCII);
        if (bytes.length < 32) {
            out.writeByte(bytes.length);
        } else {
            out.writeByte(0x30 + (bytes.length >> 8)).writeByte(bytes.length & 0xff);
        }
        out.writeBytes(bytes);
    }
}
