package io.tollgate.benchmarks.bolt;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.tollgate.benchmarks.rpc.RpcLoadGenerator;
import io.tollgate.benchmarks.rpc.RpcWire;
import io.tollgate.protocols.bolt.BoltFrame;
import java.nio.charset.StandardCharsets;

/**
 * A Bolt load generator: keeps N connections with M requests in flight each, for a fixed time, then
 * prints QPS, p50/p99 latency and errors; see {@link RpcLoadGenerator}. Every request is the frame a
 * real SOFARPC 5.x consumer sent for {@code demo.EchoService:1.0} {@code echo(<1 KB string>)}
 * (1,782 bytes: its class name, ten headers such as service, method and trace context, and the
 * hessian2 body), with the generator's request id written into it, so that the gateway reads what
 * it reads in production, as the Dubbo generator's captured frame makes it do for Dubbo. With a service
 * argument it sends instead a minimal frame: one {@code service} header and 1 KiB of zeros.
 * Usage: {@code BoltLoadGenerator host port connections inFlight seconds [service]}.
 */
public final class BoltLoadGenerator implements RpcLoadGenerator.Calls<BoltFrame> {

    private static final int ID_OFFSET = 5;

    private final ByteBuf template;

    private BoltLoadGenerator(ByteBuf template) {
        this.template = template;
    }

    public static void main(String[] args) throws InterruptedException {
        RpcLoadGenerator.run("BoltLoadGenerator host port connections inFlight seconds [service]", args,
                BoltWire.FRAMES, a -> new BoltLoadGenerator(a.length > 5 ? minimalRequest(a[5])
                        : RpcWire.captured("/bolt/sofarpc-echo-1kb.request.bin")));
    }

    @Override
    public ByteBuf requestTemplate() {
        return template;
    }

    /** Bolt's ids are int32. */
    @Override
    public long maxRequestId() {
        return Integer.MAX_VALUE;
    }

    @Override
    public void writeRequestId(ByteBuf request, long id) {
        request.setInt(ID_OFFSET, (int) id);
    }

    @Override
    public boolean isResponse(BoltFrame frame) {
        return frame.kind() == BoltFrame.Kind.RESPONSE;
    }

    @Override
    public long requestId(BoltFrame response) {
        return response.requestId();
    }

    @Override
    public boolean isError(BoltFrame response) {
        return response.status() != 0;
    }

    private static ByteBuf minimalRequest(String service) {
        byte[] className = "com.alipay.sofa.rpc.core.request.SofaRequest".getBytes(StandardCharsets.US_ASCII);
        byte[] key = "service".getBytes(StandardCharsets.US_ASCII);
        byte[] value = service.getBytes(StandardCharsets.UTF_8);
        int headerLength = 8 + key.length + value.length;
        return ByteBufAllocator.DEFAULT.directBuffer().writeByte(1).writeByte(1).writeShort(1).writeByte(1).writeInt(0)
                .writeByte(1).writeInt(3000).writeShort(className.length).writeShort(headerLength).writeInt(1024)
                .writeBytes(className).writeInt(key.length).writeBytes(key).writeInt(value.length).writeBytes(value)
                .writeZero(1024);
    }
}
