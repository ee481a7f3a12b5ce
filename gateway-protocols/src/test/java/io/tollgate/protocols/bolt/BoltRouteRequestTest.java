package io.tollgate.protocols.bolt;

import static io.tollgate.protocols.bolt.BoltVectors.ECHO_REQUEST;
import static io.tollgate.protocols.bolt.BoltVectors.decodeOne;
import static io.tollgate.protocols.bolt.BoltVectors.read;
import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBufAllocator;
import org.junit.jupiter.api.Test;

class BoltRouteRequestTest {

    @Test
    void showsTheServiceAsAuthorityAndServiceAndMethodAsPath() {
        BoltFrame frame = decodeOne(BoltVectors.pooled(read(ECHO_REQUEST)));
        try {
            BoltRouteRequest request = new BoltRouteRequest(frame);
            assertThat(request.authority()).isEqualTo("demo.EchoService:1.0");
            assertThat(request.path()).isEqualTo("/demo.EchoService:1.0/echo");
            assertThat(request.query()).isNull();
            assertThat(request.header("rpc_trace_context.samp")).isEqualTo("true");
            assertThat(request.header("absent")).isNull();
        } finally {
            frame.release();
        }
    }

    @Test
    void leavesMissingServiceAndMethodEmpty() {
        BoltFrame frame = decodeOne(BoltHeartbeats.request(ByteBufAllocator.DEFAULT, BoltDialect.V1_HESSIAN2, 1));
        try {
            BoltRouteRequest request = new BoltRouteRequest(frame);
            assertThat(request.authority()).isEmpty();
            assertThat(request.path()).isEqualTo("//");
        } finally {
            frame.release();
        }
    }
}
