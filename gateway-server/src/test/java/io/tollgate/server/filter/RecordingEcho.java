package io.tollgate.server.filter;

import com.alipay.sofa.rpc.context.RpcInvokeContext;
import io.tollgate.server.rpc.EchoServiceImpl;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

/** A SOFARPC provider that keeps the request headers of its last call, to read the trace context the gateway sent. */
final class RecordingEcho extends EchoServiceImpl {

    private final AtomicReference<Map<?, ?>> headers = new AtomicReference<>();

    @Override
    public String echo(String message) {
        headers.set((Map<?, ?>) RpcInvokeContext.getContext().get("request_header_key"));
        return message;
    }

    /** The {@code traceparent} of the last call, split at its dashes. */
    String[] traceparent() {
        return ((String) headers.get().get("traceparent")).split("-");
    }
}
