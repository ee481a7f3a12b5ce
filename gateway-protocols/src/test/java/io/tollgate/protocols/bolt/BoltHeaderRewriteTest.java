package io.tollgate.protocols.bolt;

import static io.tollgate.protocols.bolt.BoltVectors.ECHO_REQUEST;
import static io.tollgate.protocols.bolt.BoltVectors.ECHO_RESPONSE;
import static io.tollgate.protocols.bolt.BoltVectors.read;
import static io.tollgate.protocols.bolt.BoltVectors.withFrame;
import static io.tollgate.protocols.rpc.RpcCodecFixtures.pooled;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link BoltFrame#withHeaders} on the frames a real SOFARPC consumer and provider sent: the
 * header map changed, its length fixed, class name and content the same bytes.
 */
class BoltHeaderRewriteTest {

    private static final String RPC_ID = "rpc_trace_context.sofaRpcId";

    @ParameterizedTest
    @ValueSource(strings = {ECHO_REQUEST, "sofarpc-echo-1kb.request.bin", "sofarpc-oneway.request.bin", ECHO_RESPONSE})
    void setsReplacesAndRemovesHeaders(String capture) {
        withFrame(pooled(read(capture)), frame -> {
            Map<String, String> before = frame.headers();
            Map<String, String> changes = new LinkedHashMap<>();
            changes.put("traceparent", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01");
            changes.put(RPC_ID, "0.1.1");
            String removed = before.keySet().stream().filter(k -> !k.equals(RPC_ID)).findFirst().orElse("absent");
            changes.put(removed, null);
            byte[] bytes;
            BoltFrame rewritten = frame.withHeaders(ByteBufAllocator.DEFAULT, changes);
            try {
                bytes = ByteBufUtil.getBytes(rewritten.bytes());
            } finally {
                rewritten.release();
            }

            Map<String, String> expected = new HashMap<>(before);
            expected.put("traceparent", changes.get("traceparent"));
            expected.put(RPC_ID, "0.1.1");
            expected.remove(removed);
            withFrame(pooled(bytes), again -> {
                assertThat(again.headers()).isEqualTo(expected);
                assertThat(again.kind()).isEqualTo(frame.kind());
                assertThat(again.requestId()).isEqualTo(frame.requestId());
                assertThat(ByteBufUtil.getBytes(again.className())).isEqualTo(ByteBufUtil.getBytes(frame.className()));
                assertThat(ByteBufUtil.getBytes(again.content())).isEqualTo(ByteBufUtil.getBytes(frame.content()));
                if (frame.kind().isRequest()) {
                    assertThat(again.timeout()).isEqualTo(frame.timeout());
                }
            });
        });
    }

    @Test
    void refusesAHeaderMapLongerThanBoltsLengthField() {
        withFrame(pooled(read(ECHO_REQUEST)), frame -> assertThatThrownBy(() -> frame.withHeaders(
                ByteBufAllocator.DEFAULT, Map.of("big", "x".repeat(Short.MAX_VALUE))))
                .isInstanceOf(BoltCodecException.class)
                .hasMessageContaining("expected: <= 32767"));
    }
}
