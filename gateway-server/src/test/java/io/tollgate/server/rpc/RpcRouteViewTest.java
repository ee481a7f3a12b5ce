package io.tollgate.server.rpc;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.tollgate.protocols.bolt.BoltCodec;
import io.tollgate.protocols.rpc.RpcFrame;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

class RpcRouteViewTest {

    @Test
    void showsTheServiceLowerCasedAsAuthorityAndServiceAndMethodAsPath() {
        withFrame(BoltFrames.request(7, false, 1000, Map.of("service", "demo.EchoService:1.0",
                "sofa_head_method_name", "echo", "rpc_trace_context.samp", "true"), "hi"), frame -> {
            RpcRouteView view = new RpcRouteView(null, frame, "10.0.0.7");
            assertThat(view.authority()).isEqualTo("demo.echoservice:1.0");
            assertThat(view.path()).isEqualTo("/demo.EchoService:1.0/echo");
            assertThat(view.query()).isNull();
            assertThat(view.header("rpc_trace_context.samp")).isEqualTo("true");
            assertThat(view.header("absent")).isNull();
            assertThat(view.clientAddress()).isEqualTo("10.0.0.7");
        });
    }

    @Test
    void leavesMissingServiceAndMethodEmpty() {
        withFrame(BoltFrames.heartbeat(1), frame -> {
            RpcRouteView view = new RpcRouteView(null, frame, null);
            assertThat(view.authority()).isEmpty();
            assertThat(view.path()).isEqualTo("//");
        });
    }

    private static void withFrame(ByteBuf bytes, Consumer<RpcFrame> test) {
        RpcFrame frame = BoltCodec.DEFAULTS.decode(bytes);
        bytes.release();
        try {
            test.accept(frame);
        } finally {
            frame.release();
        }
    }
}
