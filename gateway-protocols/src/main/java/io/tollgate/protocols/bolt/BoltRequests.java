package io.tollgate.protocols.bolt;

import static java.util.Objects.requireNonNull;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.util.Map;

/**
 * Bolt requests the gateway writes itself rather than forwards: the calls it makes for an HTTP
 * client (SOFARPC's generic invocation from JSON).
 */
public final class BoltRequests {

    private BoltRequests() {
    }

    /**
     * A two-way request, owned by the caller.
     *
     * @param timeoutMillis the timeout the provider is told
     * @param className the request class name (SOFARPC's {@code com.alipay.sofa.rpc.core.request.SofaRequest})
     * @param headers the header map, empty for none
     * @param content the serialized body; copied, not released
     */
    public static ByteBuf request(ByteBufAllocator alloc, BoltDialect dialect, long requestId, int timeoutMillis,
            String className, Map<String, String> headers, ByteBuf content) {
        requireNonNull(alloc, "alloc");
        requireNonNull(dialect, "dialect");
        requireNonNull(headers, "headers");
        return BoltFrameWriter.write(alloc, dialect, BoltFrame.Kind.REQUEST, requestId, timeoutMillis, className,
                headers, content);
    }
}
