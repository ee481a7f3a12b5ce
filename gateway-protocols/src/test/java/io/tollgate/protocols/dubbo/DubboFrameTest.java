package io.tollgate.protocols.dubbo;

import static io.tollgate.protocols.dubbo.DubboVectors.ECHO_ID;
import static io.tollgate.protocols.dubbo.DubboVectors.ECHO_REQUEST;
import static io.tollgate.protocols.dubbo.DubboVectors.assertNoRoutingView;
import static io.tollgate.protocols.dubbo.DubboVectors.frame;
import static io.tollgate.protocols.dubbo.DubboVectors.read;
import static io.tollgate.protocols.dubbo.DubboVectors.withFrame;
import static io.tollgate.protocols.rpc.RpcCodecFixtures.pooled;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.util.IllegalReferenceCountException;
import io.tollgate.protocols.rpc.RpcError;
import io.tollgate.protocols.rpc.RpcFrame;
import io.tollgate.protocols.rpc.RpcFrameEncoder;
import java.util.Arrays;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class DubboFrameTest {

    @ParameterizedTest
    @ValueSource(longs = {Long.MAX_VALUE, 0, 1, -1, 0x0102030405060708L})
    void rewritesTheRequestIdInPlaceAndKeepsEveryOtherByte(long newId) {
        byte[] echo = read(ECHO_REQUEST);
        withFrame(pooled(echo), frame -> {
            assertThat(frame.service()).isEqualTo("demo.Echoer");
            frame.requestId(newId);

            assertThat(frame.requestId()).isEqualTo(newId);
            byte[] rewritten = ByteBufUtil.getBytes(frame.bytes());
            assertThat(Arrays.copyOfRange(rewritten, 4, 12)).isEqualTo(longBytes(newId));
            assertThat(Arrays.copyOf(rewritten, 4)).isEqualTo(Arrays.copyOf(echo, 4));
            assertThat(Arrays.copyOfRange(rewritten, 12, rewritten.length))
                    .isEqualTo(Arrays.copyOfRange(echo, 12, echo.length));

            EmbeddedChannel out = new EmbeddedChannel(RpcFrameEncoder.INSTANCE);
            try {
                out.writeOutbound(frame.retain());
                withFrame(out.readOutbound(), again -> {
                    assertThat(again.requestId()).isEqualTo(newId);
                    assertThat(again.kind()).isEqualTo(RpcFrame.Kind.REQUEST);
                    assertThat(again.service()).isEqualTo("demo.Echoer");
                    assertThat(again.timeoutMillis()).isEqualTo(3000);
                });
            } finally {
                out.finishAndReleaseAll();
            }
        });
    }

    @ParameterizedTest
    @CsvSource({
        "0xc2, REQUEST", "0x82, ONEWAY", "0xe2, HEARTBEAT", "0xa2, ONEWAY",
        "0x02, RESPONSE", "0x42, RESPONSE", "0x22, HEARTBEAT_ACK", "0x62, HEARTBEAT_ACK", "0xd7, REQUEST"})
    void takesItsKindFromTheFlagAlone(String flag, RpcFrame.Kind kind) {
        int value = Integer.decode(flag);
        withFrame(pooled(frame(value, 20, 5, new byte[] {'N'})), frame -> {
            assertThat(frame.kind()).isEqualTo(kind);
            assertThat(frame.flag()).isEqualTo((byte) value);
            assertThat(frame.serializationId()).isEqualTo(value & 0x1f);
            assertThat(frame.isEvent()).isEqualTo((value & 0x20) != 0);
        });
    }

    @Test
    void readsAReadonlyEventAsAOnewayRequestWithoutRoutingView() {
        withFrame(pooled(frame(0xa2, 0, 6, new byte[] {0x01, 'R'})), frame -> {
            assertThat(frame.kind()).isEqualTo(RpcFrame.Kind.ONEWAY);
            assertThat(frame.kind().expectsResponse()).isFalse();
            assertThat(frame.isEvent()).isTrue();
            assertNoRoutingView(frame);
        });
    }

    @Test
    void readsATwoWayEventWithABodyAsAHeartbeatSinceItsSenderWaitsForAnAnswer() {
        withFrame(pooled(frame(0xe2, 0, 7, new byte[] {0x01, 'R'})), frame -> {
            assertThat(frame.kind()).isEqualTo(RpcFrame.Kind.HEARTBEAT);
            assertThat(frame.service()).isNull();
        });
    }

    @Test
    void readsTheRoutingViewOnceAndKeepsIt() {
        withFrame(pooled(read(ECHO_REQUEST)), frame -> {
            DubboInvocation first = frame.invocation();
            ByteBuf bytes = frame.bytes();
            for (int i = DubboProtocol.HEADER_LENGTH; i < frame.frameLength(); i++) {
                bytes.setByte(bytes.readerIndex() + i, 0x40);
            }
            assertThat(frame.invocation()).isSameAs(first);
            assertThat(frame.service()).isEqualTo("demo.Echoer");
            assertThat(frame.method()).isEqualTo("echo");
            assertThat(frame.timeoutMillis()).isEqualTo(3000);
        });
    }

    @Test
    void stepsOverArgumentsOfEveryShapeToReachTheAttachments() {
        byte[] body = Hessian2Bytes.call("demo.Shapes", "draw", "IJD[BLjava/util/Map;[Ljava/lang/String;Ljava/lang/Object;Z")
                .bytes(0xd4, 0x01, 0x00)                                  // int 256
                .bytes('L', 0, 0, 0, 1, 0, 0, 0, 0)                       // long 2^32
                .bytes(0x5f, 0, 0, 0x05, 0xdc)                            // double 1.5 as thousandths
                .bytes('A', 0, 2, 1, 2).bytes(0x22, 3, 4)                 // byte[] in two chunks
                .bytes('H').string("k").bytes('W', 0x90, 'N', 'Z').bytes('Z') // {k: [0, null]}
                .bytes(0x72).string("[string").string("a").string("b")    // String[] {a, b}
                .bytes('C').string("demo.Point").bytes(0x92).string("x").string("y")
                .bytes(0x60, 0x91, 0x92)                                  // Point(1, 2)
                .bytes('T')
                .bytes('H').string("interface").string("demo.Shapes").string("timeout").string("250 ")
                .string("group").string("g1").string("weight").bytes(0x9a).string("trace").bytes('N')
                .string("point").bytes('O', 0x90, 0x93, 0x94).bytes('Z')
                .toByteArray();
        withFrame(pooled(frame(0xc2, 0, 8, body)), frame -> {
            assertThat(frame.service()).isEqualTo("demo.Shapes");
            assertThat(frame.method()).isEqualTo("draw");
            assertThat(frame.attachments()).isEqualTo(Map.of("interface", "demo.Shapes", "timeout", "250 ",
                    "group", "g1"));
            assertThat(frame.header("group")).isEqualTo("g1");
            assertThat(frame.timeoutMillis()).isEqualTo(250);
        });
    }

    @Test
    void fallsBackToTheBodyForVersionPathAndDubboVersionAsTheProviderDoes() {
        byte[] noAttachments = Hessian2Bytes.call("demo.Body", "m", "").bytes('H', 'Z').toByteArray();
        withFrame(pooled(frame(0xc2, 0, 9, noAttachments)), frame -> {
            assertThat(frame.service()).as("the path when there is no interface").isEqualTo("demo.Body");
            assertThat(frame.header("version")).isEqualTo("1.0");
            assertThat(frame.header("path")).isEqualTo("demo.Body");
            assertThat(frame.header("dubbo")).isEqualTo("2.0.2");
            assertThat(frame.header("group")).isNull();
            assertThat(frame.timeoutMillis()).isZero();
        });
        byte[] attached = Hessian2Bytes.call("demo.Body", "m", "").bytes('H').string("version").string("2.0")
                .string("interface").string("demo.Interface").string("timeout").string("soon").bytes('Z')
                .toByteArray();
        withFrame(pooled(frame(0xc2, 0, 10, attached)), frame -> {
            assertThat(frame.service()).isEqualTo("demo.Interface");
            assertThat(frame.header("version")).isEqualTo("2.0");
            assertThat(frame.invocation().version()).isEqualTo("1.0");
            assertThat(frame.timeoutMillis()).as("not a number").isZero();
        });
    }

    @Test
    void readsANullServiceVersionAndNoAttachmentsAtAll() {
        byte[] body = new Hessian2Bytes().string("2.0.2").string("demo.Plain").bytes('N').string("ping").string("")
                .toByteArray();
        withFrame(pooled(frame(0x82, 0, 11, body)), frame -> {
            assertThat(frame.kind()).isEqualTo(RpcFrame.Kind.ONEWAY);
            assertThat(frame.invocation()).isEqualTo(new DubboInvocation("2.0.2", "demo.Plain", null, "ping", "",
                    Map.of()));
            assertThat(frame.header("version")).isNull();
        });
    }

    @Test
    void hasNoRoutingViewForABodyInAnotherSerialization() {
        byte[] hessian2Body = Arrays.copyOfRange(read(ECHO_REQUEST), DubboProtocol.HEADER_LENGTH, 167);
        withFrame(pooled(frame(0xc0 | 3, 0, 12, hessian2Body)), frame -> {
            assertThat(frame.kind()).isEqualTo(RpcFrame.Kind.REQUEST);
            assertThat(frame.replyForm()).isEqualTo(3);
            assertNoRoutingView(frame);
        });
    }

    @ParameterizedTest
    @CsvSource({
        "20, 200,", "25, 500,", "30, 504, TIMEOUT", "31, 504, TIMEOUT", "40, 400,", "50, 502,", "60, 503,",
        "70, 500,", "80, 500,", "90, 500,", "100, 503, OVERFLOW", "99, 500,", "200, 500,"})
    void mapsEveryResponseStatusToItsHttpMeaningAndRetryCondition(int status, int httpStatus, RpcError error) {
        withFrame(pooled(frame(0x02, status, 13, new byte[] {0x00})), frame -> {
            assertThat(frame.status()).isEqualTo(status);
            assertThat(frame.httpStatus()).isEqualTo(httpStatus);
            assertThat(frame.statusError()).isEqualTo(error);
        });
    }

    @Test
    void exposesTheBodyAsASliceAndDescribesItself() {
        withFrame(pooled(read(DubboVectors.ECHO_RESPONSE)), frame -> {
            assertThat(frame.body().readableBytes()).isEqualTo(18);
            assertThat(frame.body().getByte(0)).isEqualTo((byte) 0x94);
            assertThat(frame.refCnt()).isEqualTo(1);
            assertThat(frame).hasToString("DubboFrame(RESPONSE id=" + ECHO_ID + " flag=0x2 length=34)");
        });
        DubboFrame released = DubboVectors.decodeOne(pooled(read(ECHO_REQUEST)));
        released.release();
        assertThat(released).hasToString("DubboFrame(REQUEST, released)");
        assertThatThrownBy(released::requestId).isInstanceOf(IllegalReferenceCountException.class);
    }

    private static byte[] longBytes(long value) {
        byte[] bytes = new byte[8];
        for (int i = 7; i >= 0; i--) {
            bytes[i] = (byte) value;
            value >>>= 8;
        }
        return bytes;
    }
}
