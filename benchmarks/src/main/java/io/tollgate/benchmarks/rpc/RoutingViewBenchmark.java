package io.tollgate.benchmarks.rpc;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.tollgate.protocols.bolt.BoltCodec;
import io.tollgate.protocols.dubbo.DubboCodec;
import io.tollgate.protocols.rpc.RpcCodec;
import io.tollgate.protocols.rpc.RpcFrame;
import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Measures what the gateway reads of every RPC request before it forwards it: a real client's 1 KB
 * echo request (SOFARPC for Bolt, Apache Dubbo 3.3 for Dubbo, captured on loopback) is cut from a
 * pooled direct buffer as a socket read leaves it, and its service, method, timeout and one header
 * are read, then the frame is released. The two protocols' figures side by side show what each
 * codec's routing view costs per request.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class RoutingViewBenchmark {

    @Param({"bolt", "dubbo"})
    public String protocol;

    private RpcCodec codec;
    private ByteBuf wire;
    private String header;

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        String resource;
        if (protocol.equals("bolt")) {
            codec = BoltCodec.DEFAULTS;
            resource = "/bolt/sofarpc-echo-1kb.request.bin";
            header = "sofa_head_target_app";
        } else {
            codec = DubboCodec.DEFAULTS;
            resource = "/dubbo/dubbo-echo-1kb.request.bin";
            header = "group";
        }
        try (InputStream in = RoutingViewBenchmark.class.getResourceAsStream(resource)) {
            byte[] bytes = in.readAllBytes();
            wire = PooledByteBufAllocator.DEFAULT.directBuffer(bytes.length).writeBytes(bytes);
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        wire.release();
    }

    @Benchmark
    public void routingView(Blackhole hole) {
        wire.readerIndex(0);
        RpcFrame frame = codec.decode(wire);
        try {
            hole.consume(frame.service());
            hole.consume(frame.method());
            hole.consume(frame.timeoutMillis());
            hole.consume(frame.header(header));
        } finally {
            frame.release();
        }
    }
}
