package io.tollgate.protocols.bolt;

import static io.tollgate.protocols.bolt.BoltVectors.ECHO_REQUEST;
import static io.tollgate.protocols.bolt.BoltVectors.pooled;
import static io.tollgate.protocols.bolt.BoltVectors.read;
import static io.tollgate.protocols.bolt.BoltVectors.withFrame;
import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBufAllocator;
import org.junit.jupiter.api.Test;

class BoltRouteRequestTest {

    @Test
    void showsTheServiceAsAuthorityAndServiceAndMethodAsPath() {
        withFrame(pooled(read(ECHO_REQUEST)), frame -> {
            BoltRouteRequest request = new BoltRouteRequest(frame);
            assertThat(request.authority()).isEqualTo("demo.EchoService:1.0");
            assertThat(request.path()).isEqualTo("/demo.EchoService:1.0/echo");
            assertThat(request.query()).isNull();
            assertThat(request.header("rpc_trace_context.samp")).isEqualTo("true");
            assertThat(request.header("absent")).isNull();
        });
    }

    @Test
    void leavesMissingServiceAndMethodEmpty() {
        withFrame(BoltHeartbeats.request(ByteBufAllocator.DEFAULT, BoltDialect.V1_HESSIAN2, 1), frame -> {
            BoltRouteRequest request = new BoltRouteRequest(frame);
            assertThat(request.authority()).isEmpty();
            assertThat(request.path()).isEqualTo("//");
        });
    }
}
