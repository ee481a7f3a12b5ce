package io.tollgate.benchmarks.grpc;

import io.grpc.CallOptions;
import io.grpc.ClientCall;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.shaded.io.netty.channel.EventLoop;
import io.grpc.netty.shaded.io.netty.channel.EventLoopGroup;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.StringJoiner;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A gRPC unary load generator (grpc-java, since ghz is not at hand): N channels, each its own HTTP/2
 * connection, with M {@code bench.Echo/Unary} calls in flight on each, a new call started as each
 * one closes. After a warm-up it measures for a fixed time, then prints the calls by status and a
 * last line in the format of {@code BoltLoadGenerator}: {@code responses N, errors N, qps N, p50 N us,
 * p99 N us}, where responses are the calls closed in the window, errors those not OK, and QPS and
 * latencies count the OK ones only. It prints {@code measuring} and {@code measured} as the window
 * opens and closes, so that a script can sample the proxy's CPU over exactly that window.
 *
 * <p>Its own CPU cost is kept low, since it shares a core with the upstream: one event loop carries
 * every connection and every callback runs on it in place. A failed call's slot waits 1 ms before its
 * next call, so an unreachable target does not become a busy loop. It exits with status 1 when no
 * call in the window succeeded, so a script cannot report a silent zero.
 *
 * <p>Usage: {@code GrpcUnaryLoadGenerator host port channels inFlight seconds [warmupSeconds] [payloadBytes]}
 * (defaults: 5 s warm-up, 1024-byte requests).
 */
public final class GrpcUnaryLoadGenerator {

    private static final long DRAIN_SECONDS = 5;

    private final EventLoop loop;
    private final byte[] payload;
    private final LatencyHistogram latencies = new LatencyHistogram();
    private final long[] statuses = new long[Status.Code.values().length];
    private final CountDownLatch measured = new CountDownLatch(1);
    private final CountDownLatch drained = new CountDownLatch(1);
    private boolean measuring;
    private boolean running = true;
    private int inFlight;
    private long windowStart;
    private long windowNanos;

    private GrpcUnaryLoadGenerator(EventLoop loop, byte[] payload) {
        this.loop = loop;
        this.payload = payload;
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 5) {
            usage("too few arguments: " + args.length + " (expected: 5 to 7)");
        }
        String host = args[0];
        int port = positive("port", args[1]);
        int channels = positive("channels", args[2]);
        int inFlight = positive("inFlight", args[3]);
        int seconds = positive("seconds", args[4]);
        int warmup = args.length > 5 ? Integer.parseInt(args[5]) : 5;
        int payloadBytes = args.length > 6 ? Integer.parseInt(args[6]) : 1024;
        if (warmup < 0 || payloadBytes < 0) {
            usage("warmupSeconds " + warmup + ", payloadBytes " + payloadBytes + " (expected: >= 0)");
        }
        EventLoopGroup group = ShadedTransport.newGroup(1, "grpc-load");
        GrpcUnaryLoadGenerator generator = new GrpcUnaryLoadGenerator(group.next(), new byte[payloadBytes]);
        List<ManagedChannel> connections = new ArrayList<>();
        for (int i = 0; i < channels; i++) {
            connections.add(NettyChannelBuilder.forAddress(new InetSocketAddress(host, port))
                    .usePlaintext()
                    .eventLoopGroup(group)
                    .channelType(ShadedTransport.socketChannel())
                    .directExecutor()
                    .build());
        }
        boolean succeeded;
        try {
            succeeded = generator.run(connections, inFlight, warmup, seconds);
        } finally {
            connections.forEach(ManagedChannel::shutdownNow);
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
        }
        if (!succeeded) {
            System.err.println("GrpcUnaryLoadGenerator: no call succeeded in the measured window");
            System.exit(1);
        }
    }

    private boolean run(List<ManagedChannel> connections, int callsPerChannel, int warmup, int seconds)
            throws Exception {
        System.out.printf("warming up for %d s%n", warmup);
        loop.execute(() -> {
            for (ManagedChannel channel : connections) {
                for (int i = 0; i < callsPerChannel; i++) {
                    inFlight++;
                    start(channel);
                }
            }
        });
        loop.schedule(this::openWindow, warmup, TimeUnit.SECONDS);
        loop.schedule(this::closeWindow, warmup + seconds, TimeUnit.SECONDS);
        measured.await();
        boolean finished = drained.await(DRAIN_SECONDS, TimeUnit.SECONDS);
        return loop.submit(() -> report(finished)).get();
    }

    private void openWindow() {
        windowStart = System.nanoTime();
        measuring = true;
        System.out.println("measuring");
        System.out.flush();
    }

    private void closeWindow() {
        windowNanos = System.nanoTime() - windowStart;
        measuring = false;
        running = false;
        System.out.println("measured");
        System.out.flush();
        measured.countDown();
        if (inFlight == 0) {
            drained.countDown();
        }
    }

    private void start(ManagedChannel channel) {
        ClientCall<byte[], byte[]> call = channel.newCall(BenchGrpc.UNARY, CallOptions.DEFAULT);
        long startedAt = System.nanoTime();
        call.start(new ClientCall.Listener<>() {
            @Override
            public void onClose(Status status, Metadata trailers) {
                closed(channel, status.getCode(), System.nanoTime() - startedAt);
            }
        }, new Metadata());
        call.request(1);
        call.sendMessage(payload);
        call.halfClose();
    }

    /** Counts a closed call and starts the next one on its channel, always on the event loop. */
    private void closed(ManagedChannel channel, Status.Code code, long nanos) {
        if (!loop.inEventLoop()) {
            loop.execute(() -> closed(channel, code, nanos));
            return;
        }
        if (measuring) {
            statuses[code.ordinal()]++;
            if (code == Status.Code.OK) {
                latencies.record(nanos);
            }
        }
        if (!running) {
            inFlight--;
            if (inFlight == 0) {
                drained.countDown();
            }
            return;
        }
        if (code == Status.Code.OK) {
            start(channel);
        } else {
            loop.schedule(() -> start(channel), 1, TimeUnit.MILLISECONDS);
        }
    }

    private boolean report(boolean finished) {
        StringJoiner byStatus = new StringJoiner(", ", "statuses ", "");
        long responses = 0;
        for (Status.Code code : Status.Code.values()) {
            long count = statuses[code.ordinal()];
            responses += count;
            if (count > 0) {
                byStatus.add(code + " " + count);
            }
        }
        byStatus.add("unfinished " + (finished ? 0 : inFlight));
        long ok = latencies.count();
        System.out.println(byStatus);
        System.out.printf("responses %d, errors %d, qps %.0f, p50 %d us, p99 %d us%n", responses, responses - ok,
                ok / (windowNanos / 1e9), latencies.percentileMicros(0.50), latencies.percentileMicros(0.99));
        return ok > 0;
    }

    private static int positive(String name, String value) {
        int parsed = Integer.parseInt(value);
        if (parsed <= 0) {
            usage(name + ": " + parsed + " (expected: > 0)");
        }
        return parsed;
    }

    private static void usage(String problem) {
        System.err.println("GrpcUnaryLoadGenerator: " + problem);
        System.err.println("usage: GrpcUnaryLoadGenerator host port channels inFlight seconds [warmupSeconds] [payloadBytes]");
        System.exit(2);
    }
}
