package io.tollgate.benchmarks.trace;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.handler.codec.http.DefaultHttpHeaders;
import io.netty.handler.codec.http.HttpHeaders;
import io.tollgate.benchmarks.CpuTime;
import io.tollgate.core.config.StreamFilterConfig;
import io.tollgate.core.filter.FilterScope;
import io.tollgate.core.filter.StreamFilter;
import io.tollgate.filters.trace.TraceFilterFactory;
import io.tollgate.protocols.bolt.BoltCodec;
import io.tollgate.protocols.dubbo.DubboCodec;
import io.tollgate.protocols.rpc.RpcCodec;
import io.tollgate.protocols.rpc.RpcFrame;
import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.Blackhole;

/**
 * What the {@code trace} filter adds to a request. HTTP: a browser-like request with a W3C
 * {@code traceparent}, its headers changed in place ({@code off} is the filter not in the chain:
 * nothing). Bolt and Dubbo: a real client's 1 KB request decoded and its routing view read as the
 * gateway always does ({@code off}), and with the filter ({@code on}) its SOFA or W3C context given
 * the gateway's span and the frame rewritten into a new buffer, both released.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class TraceFilterBenchmark {

    private static final String TRACEPARENT = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

    @Param({"http", "bolt", "dubbo"})
    public String protocol;

    @Param({"off", "on"})
    public String tracing;

    private StreamFilter filter;
    private HttpHeaders httpHeaders;
    private RpcCodec codec;
    private ByteBuf wire;

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        filter = new TraceFilterFactory().create(StreamFilterConfig.named("trace"),
                new FilterScope("bench", null, new SimpleMeterRegistry()));
        httpHeaders = new DefaultHttpHeaders().add("host", "shop.example.com")
                .add("user-agent", "Mozilla/5.0 (X11; Linux x86_64; rv:120.0) Gecko/20100101 Firefox/120.0")
                .add("accept", "text/html,application/xhtml+xml").add("accept-language", "en-US,en;q=0.5")
                .add("accept-encoding", "gzip, deflate, br").add("x-request-id", "4bf92f3577b34da6a3ce929d0e0e4736")
                .add("cookie", "session=0123456789abcdef").add("traceparent", TRACEPARENT);
        String resource = null;
        if (protocol.equals("bolt")) {
            codec = BoltCodec.DEFAULTS;
            resource = "/bolt/sofarpc-echo-1kb.request.bin";
        } else if (protocol.equals("dubbo")) {
            codec = DubboCodec.DEFAULTS;
            resource = "/dubbo/dubbo-echo-1kb.request.bin";
        }
        if (resource != null) {
            try (InputStream in = TraceFilterBenchmark.class.getResourceAsStream(resource)) {
                byte[] bytes = in.readAllBytes();
                wire = PooledByteBufAllocator.DEFAULT.directBuffer(bytes.length).writeBytes(bytes);
            }
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        if (wire != null) {
            wire.release();
        }
    }

    /**
     * Every case timed by thread CPU time ({@link CpuTime}), for a loaded host:
     * {@code java -cp benchmarks/target/benchmarks.jar io.tollgate.benchmarks.trace.TraceFilterBenchmark}.
     */
    public static void main(String[] args) throws IOException {
        Blackhole hole = new Blackhole(
                "Today's password is swordfish. I understand instantiating Blackholes directly is dangerous.");
        System.out.printf("%-6s %8s %8s%n", "proto", "off ns", "on ns");
        for (String protocol : new String[] {"http", "bolt", "dubbo"}) {
            double[] nanos = new double[2];
            for (int i = 0; i < 2; i++) {
                TraceFilterBenchmark bench = new TraceFilterBenchmark();
                bench.protocol = protocol;
                bench.tracing = i == 0 ? "off" : "on";
                bench.setUp();
                nanos[i] = CpuTime.nanosPerCall(() -> bench.request(hole), 1_000_000, 8);
                bench.tearDown();
            }
            System.out.printf("%-6s %8.0f %8.0f%n", protocol, nanos[0], nanos[1]);
        }
    }

    @Benchmark
    public void request(Blackhole hole) {
        if (wire == null) {
            if (tracing.equals("on")) {
                httpHeaders.set("traceparent", TRACEPARENT);
                BenchContext context = new BenchContext(BenchHeaders.http(httpHeaders), false);
                filter.onRequest(context);
                hole.consume(context.spanId);
            }
            return;
        }
        wire.readerIndex(0);
        RpcFrame frame = codec.decode(wire);
        try {
            hole.consume(frame.service());
            hole.consume(frame.method());
            if (tracing.equals("on")) {
                BenchHeaders headers = BenchHeaders.rpc(frame);
                filter.onRequest(new BenchContext(headers, true));
                RpcFrame rewritten = frame.withHeaders(PooledByteBufAllocator.DEFAULT, headers.changes);
                hole.consume(rewritten.frameLength());
                rewritten.release();
            }
        } finally {
            frame.release();
        }
    }
}
