package io.tollgate.benchmarks.dubbo;

import io.netty.buffer.ByteBuf;
import io.tollgate.benchmarks.rpc.RpcWire;
import io.tollgate.benchmarks.rpc.RpcLoadGenerator;

/**
 * A Dubbo load generator: keeps N connections with M requests in flight each, for a fixed time,
 * then prints QPS, p50/p99 latency and errors (answers whose status is not 20); see
 * {@link RpcLoadGenerator}. Every request is the same frame a real Dubbo 3.3.6 consumer sent,
 * {@code demo.Echoer.echo(<1 KB string>)} in hessian2, with its own id written at offset 4. Usage:
 * {@code DubboLoadGenerator host port connections inFlight seconds}.
 */
public final class DubboLoadGenerator implements RpcLoadGenerator.Calls<ByteBuf> {

    private final ByteBuf template = RpcWire.captured("/dubbo/dubbo-echo-1kb.request.bin");

    private DubboLoadGenerator() {
    }

    public static void main(String[] args) throws InterruptedException {
        RpcLoadGenerator.run("DubboLoadGenerator host port connections inFlight seconds", args, DubboWire.FRAMES,
                a -> new DubboLoadGenerator());
    }

    @Override
    public ByteBuf requestTemplate() {
        return template;
    }

    @Override
    public long maxRequestId() {
        return Long.MAX_VALUE;
    }

    @Override
    public void writeRequestId(ByteBuf request, long id) {
        request.setLong(DubboWire.ID_OFFSET, id);
    }

    /** A frame that is neither a request nor an event. */
    @Override
    public boolean isResponse(ByteBuf frame) {
        int flag = frame.getUnsignedByte(DubboWire.FLAG_OFFSET);
        return (flag & (DubboWire.FLAG_REQUEST | DubboWire.FLAG_EVENT)) == 0;
    }

    @Override
    public long requestId(ByteBuf response) {
        return response.getLong(DubboWire.ID_OFFSET);
    }

    @Override
    public boolean isError(ByteBuf response) {
        return response.getUnsignedByte(DubboWire.STATUS_OFFSET) != DubboWire.STATUS_OK;
    }
}
