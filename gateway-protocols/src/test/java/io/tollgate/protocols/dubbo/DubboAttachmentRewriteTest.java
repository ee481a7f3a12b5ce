package io.tollgate.protocols.dubbo;

import static io.tollgate.protocols.dubbo.DubboVectors.ECHO_1KB_REQUEST;
import static io.tollgate.protocols.dubbo.DubboVectors.ECHO_REQUEST;
import static io.tollgate.protocols.dubbo.DubboVectors.read;
import static io.tollgate.protocols.dubbo.DubboVectors.withFrame;
import static io.tollgate.protocols.rpc.RpcCodecFixtures.pooled;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.alibaba.com.caucho.hessian.io.Hessian2Input;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link DubboFrame#withHeaders} on the requests a real Dubbo 3.3.6 consumer sent: the attachments
 * changed, everything before them the same bytes, the body length right, and hessian-lite (what
 * Dubbo reads with) reading the new body whole.
 */
class DubboAttachmentRewriteTest {

    private static final String TRACEPARENT = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

    @ParameterizedTest
    @ValueSource(strings = {ECHO_REQUEST, ECHO_1KB_REQUEST})
    void setsReplacesAndRemovesAttachments(String capture) {
        byte[] original = read(capture);
        withFrame(pooled(original), frame -> {
            Map<String, String> before = frame.attachments();
            String replaced = before.keySet().stream().filter(k -> !k.equals("interface")).findFirst().orElseThrow();
            Map<String, String> changes = new LinkedHashMap<>();
            changes.put("traceparent", TRACEPARENT);
            changes.put(replaced, "changed");
            changes.put("interface", null);
            DubboFrame rewritten = frame.withHeaders(ByteBufAllocator.DEFAULT, changes);
            byte[] bytes;
            try {
                bytes = ByteBufUtil.getBytes(rewritten.bytes());
                assertThat(rewritten.requestId()).isEqualTo(frame.requestId());
            } finally {
                rewritten.release();
            }

            Map<String, String> expected = new HashMap<>(before);
            expected.put("traceparent", TRACEPARENT);
            expected.put(replaced, "changed");
            expected.remove("interface");
            withFrame(pooled(bytes), again -> {
                assertThat(again.attachments()).isEqualTo(expected);
                assertThat(again.method()).isEqualTo(frame.method());
                assertThat(again.timeoutMillis()).isEqualTo(
                        replaced.equals("timeout") ? 0 : frame.timeoutMillis());
            });
            assertThat(readInt(bytes, DubboProtocol.BODY_LENGTH_OFFSET)).isEqualTo(bytes.length - 16);
            assertThat(Arrays.copyOf(bytes, 12)).isEqualTo(Arrays.copyOf(original, 12));
            assertThat(hessianLiteAttachments(bytes, frame.invocation().parameterTypes())).isEqualTo(expected);
        });
    }

    @Test
    void addsAnAttachmentsMapToABodyWithout() {
        byte[] frame = DubboVectors.frame(0xc2, 0, 9, Hessian2Bytes.call("demo.Echoer", "ping", "").toByteArray());
        withFrame(pooled(frame), request -> {
            DubboFrame rewritten = request.withHeaders(ByteBufAllocator.DEFAULT, Map.of("traceparent", TRACEPARENT));
            try {
                assertThat(rewritten.attachments()).isEqualTo(Map.of("traceparent", TRACEPARENT));
                assertThat(rewritten.method()).isEqualTo("ping");
            } finally {
                rewritten.release();
            }
        });
    }

    @Test
    void refusesFramesWithoutAttachments() {
        withFrame(pooled(read(DubboVectors.ECHO_RESPONSE)), response -> {
            assertThat(response.headersRewritable()).isFalse();
            assertThatThrownBy(() -> response.withHeaders(ByteBufAllocator.DEFAULT, Map.of("a", "b")))
                    .isInstanceOf(UnsupportedOperationException.class);
        });
    }

    private static int readInt(byte[] bytes, int at) {
        return ((bytes[at] & 0xff) << 24) | ((bytes[at + 1] & 0xff) << 16) | ((bytes[at + 2] & 0xff) << 8)
                | (bytes[at + 3] & 0xff);
    }

    /** Reads the body as Dubbo's decoder does, with hessian-lite, and returns its attachments. */
    @SuppressWarnings("unchecked")
    private static Map<String, String> hessianLiteAttachments(byte[] frame, String descriptor) {
        try {
            Hessian2Input in = new Hessian2Input(new ByteArrayInputStream(frame, 16, frame.length - 16));
            in.readString();
            in.readString();
            in.readString();
            in.readString();
            in.readString();
            for (int i = 0; i < DubboInvocationReader.argumentCount(descriptor); i++) {
                in.readObject();
            }
            Map<String, String> attachments = (Map<String, String>) in.readObject(Map.class);
            assertThat(in.read()).isEqualTo(-1);
            return attachments;
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }
}
