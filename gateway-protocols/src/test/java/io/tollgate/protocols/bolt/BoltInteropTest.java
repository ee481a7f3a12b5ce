package io.tollgate.protocols.bolt;

import static io.tollgate.protocols.bolt.BoltVectors.ECHO_REQUEST;
import static io.tollgate.protocols.bolt.BoltVectors.decodeOne;
import static io.tollgate.protocols.bolt.BoltVectors.read;
import static io.tollgate.protocols.bolt.BoltVectors.withFrame;
import static org.assertj.core.api.Assertions.assertThat;

import com.alipay.remoting.CommandDecoder;
import com.alipay.remoting.Connection;
import com.alipay.remoting.config.switches.ProtocolSwitch;
import com.alipay.remoting.rpc.HeartbeatAckCommand;
import com.alipay.remoting.rpc.HeartbeatCommand;
import com.alipay.remoting.rpc.RpcCommand;
import com.alipay.remoting.rpc.protocol.RpcCommandDecoder;
import com.alipay.remoting.rpc.protocol.RpcCommandDecoderV2;
import com.alipay.remoting.rpc.protocol.RpcCommandEncoderV2;
import com.alipay.remoting.rpc.protocol.RpcRequestCommand;
import com.alipay.remoting.rpc.protocol.RpcResponseCommand;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.handler.codec.MessageToByteEncoder;
import java.io.Serializable;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/** Checks our frames against SOFA Bolt's own codec (1.6.12), the reference every SOFA peer runs. */
class BoltInteropTest {

    private static final ByteBufAllocator ALLOC = ByteBufAllocator.DEFAULT;
    private static final BoltDialect V2_CRC = BoltDialect.v2(BoltProtocol.CODEC_HESSIAN2, true);

    static Stream<BoltDialect> dialects() {
        return Stream.of(BoltDialect.V1_HESSIAN2, BoltDialect.v2(BoltProtocol.CODEC_HESSIAN2, false), V2_CRC);
    }

    @ParameterizedTest
    @EnumSource(BoltStatus.class)
    void boltReadsOurV1StatusResponses(BoltStatus status) {
        RpcCommand command = decodeWithBolt(BoltResponses.status(ALLOC, BoltDialect.V1_HESSIAN2, 77, status));

        assertThat(command).isInstanceOf(RpcResponseCommand.class);
        assertThat(command.getId()).isEqualTo(77);
        assertThat(((RpcResponseCommand) command).getResponseStatus().getValue()).isEqualTo((short) status.code());
    }

    @Test
    void boltVerifiesTheCrcOfOurV2Responses() {
        RpcCommand command = decodeWithBolt(BoltResponses.status(ALLOC, V2_CRC, 78, BoltStatus.CODEC_EXCEPTION));

        assertThat(command).isInstanceOf(RpcResponseCommand.class);
        assertThat(command.getId()).isEqualTo(78);
        assertThat(command.getProtocolSwitch().isOn(ProtocolSwitch.CRC_SWITCH_INDEX)).isTrue();
    }

    @ParameterizedTest
    @MethodSource("dialects")
    void boltReadsOurHeartbeatsAndTheirAcknowledgements(BoltDialect dialect) {
        ByteBuf heartbeat = BoltHeartbeats.request(ALLOC, dialect, 5);
        BoltFrame ours = decodeOne(heartbeat.retainedDuplicate());
        ByteBuf ack;
        try {
            ack = BoltHeartbeats.ack(ALLOC, ours);
        } finally {
            ours.release();
        }

        RpcCommand boltHeartbeat = decodeWithBolt(heartbeat);
        RpcCommand boltAck = decodeWithBolt(ack);

        assertThat(boltHeartbeat).isInstanceOf(HeartbeatCommand.class);
        assertThat(boltHeartbeat.getId()).isEqualTo(5);
        assertThat(boltAck).isInstanceOf(HeartbeatAckCommand.class);
        assertThat(boltAck.getId()).isEqualTo(5);
    }

    @Test
    void decodesAV2RequestThatBoltEncodedWithACrc() {
        byte[] echo = read(ECHO_REQUEST);
        RpcRequestCommand command = echoWithCrc(31);

        withFrame(encodeWithBoltV2(command), frame -> {
            assertThat(frame.dialect()).isEqualTo(V2_CRC);
            assertThat(frame.kind()).isEqualTo(BoltFrame.Kind.REQUEST);
            assertThat(frame.requestId()).isEqualTo(31);
            assertThat(frame.timeout()).isEqualTo(3000);
            assertThat(frame.service()).isEqualTo("demo.EchoService:1.0");
            assertThat(frame.method()).isEqualTo("echo");
            assertThat(frame.frameLength()).isEqualTo(echo.length + 2 + BoltProtocol.CRC_LENGTH);
        });
    }

    @Test
    void boltVerifiesTheCrcOfAV2RequestWithChangedHeaders() {
        byte[] echo = read(ECHO_REQUEST);
        RpcRequestCommand command = echoWithCrc(32);

        ByteBuf[] rewritten = new ByteBuf[1];
        withFrame(encodeWithBoltV2(command), frame -> {
            BoltFrame changed = frame.withHeaders(ALLOC, Map.of("traceparent", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"));
            rewritten[0] = changed.bytes().retainedDuplicate();
            changed.release();
        });
        RpcCommand decoded = decodeWithBolt(rewritten[0]);

        assertThat(decoded.getId()).isEqualTo(32);
        assertThat(new String(decoded.getHeader(), StandardCharsets.UTF_8)).contains("traceparent")
                .contains("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01");
        assertThat(decoded.getContent()).isEqualTo(command.getContent());
    }

    /** The captured echo request as a Bolt v2 command with id {@code id} and the CRC switch on. */
    private static RpcRequestCommand echoWithCrc(int id) {
        byte[] echo = read(ECHO_REQUEST);
        RpcRequestCommand command = new RpcRequestCommand();
        command.setType(BoltProtocol.TYPE_REQUEST);
        command.setId(id);
        command.setTimeout(3000);
        command.setProtocolSwitch(ProtocolSwitch.create(new int[] {ProtocolSwitch.CRC_SWITCH_INDEX}));
        int classEnd = BoltProtocol.V1_REQUEST_HEADER_LENGTH + 44;
        int headerEnd = classEnd + 0x170;
        command.setClazz(Arrays.copyOfRange(echo, BoltProtocol.V1_REQUEST_HEADER_LENGTH, classEnd));
        command.setHeader(Arrays.copyOfRange(echo, classEnd, headerEnd));
        command.setContent(Arrays.copyOfRange(echo, headerEnd, echo.length));
        return command;
    }

    /** Decodes one frame (released) with Bolt's decoder for its protocol code. */
    private static RpcCommand decodeWithBolt(ByteBuf frame) {
        CommandDecoder decoder = frame.getByte(0) == BoltProtocol.PROTOCOL_V2
                ? new RpcCommandDecoderV2() : new RpcCommandDecoder();
        EmbeddedChannel channel = new EmbeddedChannel() {
            @Override
            protected SocketAddress remoteAddress0() {
                return new InetSocketAddress(InetAddress.getLoopbackAddress(), 12200);
            }
        };
        channel.pipeline().addLast(new ByteToMessageDecoder() {
            @Override
            protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) throws Exception {
                decoder.decode(ctx, in, out);
            }
        });
        try {
            channel.writeInbound(frame);
            RpcCommand command = channel.readInbound();
            assertThat(channel.inboundMessages()).isEmpty();
            return command;
        } finally {
            channel.finishAndReleaseAll();
        }
    }

    /** Encodes {@code command} with Bolt's v2 encoder on a connection that speaks {@code ver1 = 2}. */
    private static ByteBuf encodeWithBoltV2(RpcCommand command) {
        RpcCommandEncoderV2 encoder = new RpcCommandEncoderV2();
        EmbeddedChannel channel = new EmbeddedChannel(new MessageToByteEncoder<Serializable>() {
            @Override
            protected void encode(ChannelHandlerContext ctx, Serializable msg, ByteBuf out) throws Exception {
                encoder.encode(ctx, msg, out);
            }
        });
        channel.attr(Connection.VERSION).set(BoltProtocol.V2_VERSION_2);
        try {
            channel.writeOutbound(command);
            return channel.readOutbound();
        } finally {
            channel.finishAndReleaseAll();
        }
    }
}
