package io.tollgate.protocols.dubbo;

import static io.tollgate.protocols.dubbo.DubboVectors.assertNoRoutingView;
import static io.tollgate.protocols.dubbo.DubboVectors.frame;
import static io.tollgate.protocols.dubbo.DubboVectors.read;
import static io.tollgate.protocols.dubbo.DubboVectors.withFrame;
import static io.tollgate.protocols.rpc.RpcCodecFixtures.pooled;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * The routing view of a call in fastjson2 (serialization id 23), which a Dubbo consumer sends when
 * the provider it found in the registry prefers fastjson2. {@code dubbo-fastjson2.request.bin}'s
 * body was written by Dubbo 3.3.6's own {@code FastJson2Serialization} (fastjson2 2.0.56): the five
 * strings of {@code DubboEchoService.tagged(String, int)} (version 1.0), its two arguments, then
 * attachments in a LinkedHashMap (so with its class, {@code LM}, before the object) with strings (one of them UTF-16: {@code 数据}), a long, a boolean and a nested map
 * holding a typed list between them; the 16-byte header (id 0x1234567890) was put in front of it.
 */
class DubboFastjson2Test {

    private static final String CAPTURE = "dubbo-fastjson2.request.bin";
    private static final String SERVICE = "io.tollgate.server.dubbo.DubboEchoService";

    @Test
    void readsTheFieldsAndStringAttachmentsOfAFastjson2Call() {
        withFrame(pooled(read(CAPTURE)), frame -> {
            assertThat(frame.serializationId()).isEqualTo(DubboProtocol.SERIALIZATION_FASTJSON2);
            assertThat(frame.service()).isEqualTo(SERVICE);
            assertThat(frame.method()).isEqualTo("tagged");
            assertThat(frame.header("group")).isEqualTo("blue");
            assertThat(frame.header("version")).isEqualTo("1.0");
            assertThat(frame.header("name")).isEqualTo("数据");
            assertThat(frame.timeoutMillis()).isEqualTo(3000);
            DubboInvocation invocation = frame.invocation();
            assertThat(invocation.dubboVersion()).isEqualTo("2.0.2");
            assertThat(invocation.parameterTypes()).isEqualTo("Ljava/lang/String;I");
            // the entries after the long, the nested map and the boolean are read: those were stepped over
            assertThat(frame.attachments()).containsOnlyKeys("path", "group", "timeout", "name", "interface", "version");
            assertThat(frame.headersRewritable()).isFalse();
        });
    }

    @Test
    void aBodyCutShortIsAnErrorOfTheRequest() {
        byte[] whole = read(CAPTURE);
        byte[] body = Arrays.copyOfRange(whole, DubboProtocol.HEADER_LENGTH, whole.length);
        // the first value (the dubbo version) claims more bytes than the body has
        byte[] cut = Arrays.copyOf(body, 8);
        withFrame(pooled(frame(0xc0 | DubboProtocol.SERIALIZATION_FASTJSON2, 0, 9, cut)), frame ->
                assertThatThrownBy(frame::service).isInstanceOf(DubboCodecException.class)
                        .hasMessageContaining("fastjson2 body"));
    }

    @Test
    void aFastjson2HeartbeatHasNoRoutingView() {
        withFrame(pooled(frame(0xe0 | DubboProtocol.SERIALIZATION_FASTJSON2, 0, 9, new byte[] {(byte) 0xaf})),
                DubboVectors::assertNoRoutingView);
    }

    @Test
    void anotherSerializationStillHasNoRoutingView() {
        byte[] whole = read(CAPTURE);
        byte[] body = Arrays.copyOfRange(whole, DubboProtocol.HEADER_LENGTH, whole.length);
        withFrame(pooled(frame(0xc0 | 3, 0, 9, body)), frame -> assertNoRoutingView(frame));
    }
}
