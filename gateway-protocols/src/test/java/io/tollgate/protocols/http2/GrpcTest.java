package io.tollgate.protocols.http2;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.handler.codec.http.DefaultHttpHeaders;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class GrpcTest {

    @Test
    void parsesEveryTimeoutUnit() {
        assertThat(Grpc.timeoutNanos("2H")).isEqualTo(TimeUnit.HOURS.toNanos(2));
        assertThat(Grpc.timeoutNanos("3M")).isEqualTo(TimeUnit.MINUTES.toNanos(3));
        assertThat(Grpc.timeoutNanos("4S")).isEqualTo(TimeUnit.SECONDS.toNanos(4));
        assertThat(Grpc.timeoutNanos("100m")).isEqualTo(TimeUnit.MILLISECONDS.toNanos(100));
        assertThat(Grpc.timeoutNanos("7u")).isEqualTo(7_000);
        assertThat(Grpc.timeoutNanos("99999999n")).isEqualTo(99_999_999);
    }

    @Test
    void ignoresMalformedTimeouts() {
        assertThat(Grpc.timeoutNanos(null)).isEqualTo(-1);
        assertThat(Grpc.timeoutNanos("m")).isEqualTo(-1);
        assertThat(Grpc.timeoutNanos("123456789S")).isEqualTo(-1);
        assertThat(Grpc.timeoutNanos("1x")).isEqualTo(-1);
        assertThat(Grpc.timeoutNanos("-1S")).isEqualTo(-1);
    }

    @Test
    void recognisesGrpcContentTypesOnly() {
        assertThat(Grpc.isGrpc(new DefaultHttpHeaders().set("content-type", "application/grpc"))).isTrue();
        assertThat(Grpc.isGrpc(new DefaultHttpHeaders().set("content-type", "application/grpc+proto"))).isTrue();
        assertThat(Grpc.isGrpc(new DefaultHttpHeaders().set("content-type", "application/grpc-web"))).isFalse();
        assertThat(Grpc.isGrpc(new DefaultHttpHeaders())).isFalse();
    }

    @Test
    void mapsGatewayErrorsToGrpcStatuses() {
        assertThat(GrpcStatus.forGatewayError(503, "no_route")).isEqualTo(GrpcStatus.UNIMPLEMENTED);
        assertThat(GrpcStatus.forGatewayError(504, "upstream_timeout")).isEqualTo(GrpcStatus.DEADLINE_EXCEEDED);
        assertThat(GrpcStatus.forGatewayError(503, "no_healthy_upstream")).isEqualTo(GrpcStatus.UNAVAILABLE);
        assertThat(GrpcStatus.forGatewayError(413, "body_too_large")).isEqualTo(GrpcStatus.RESOURCE_EXHAUSTED);
    }
}
