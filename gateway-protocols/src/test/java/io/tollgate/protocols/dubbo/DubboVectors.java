package io.tollgate.protocols.dubbo;

import static io.tollgate.protocols.rpc.RpcCodecFixtures.drain;
import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.embedded.EmbeddedChannel;
import io.tollgate.protocols.rpc.RpcCodecFixtures;
import io.tollgate.protocols.rpc.RpcFrameDecoder;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * The captured Dubbo 3.3.6 frames under {@code vectors/dubbo}, the {@link RpcCodecFixtures} that
 * decode them with {@link DubboCodec#DEFAULTS}, and small Dubbo helpers for tests.
 */
final class DubboVectors {

    static final String ECHO_REQUEST = "dubbo-echo.request.bin";
    static final String ECHO_RESPONSE = "dubbo-echo.response.bin";
    static final String ECHO_1KB_REQUEST = "dubbo-echo-1kb.request.bin";
    static final String ECHO_1KB_RESPONSE = "dubbo-echo-1kb.response.bin";
    static final String APP_EXCEPTION_REQUEST = "dubbo-app-exception.request.bin";
    static final String APP_EXCEPTION_RESPONSE = "dubbo-app-exception.response.bin";
    static final String NO_SUCH_SERVICE_REQUEST = "dubbo-no-such-service.request.bin";
    static final String NO_SUCH_SERVICE_RESPONSE = "dubbo-no-such-service.response.bin";
    static final String PIPELINED_REQUESTS = "dubbo-pipelined-30.requests.bin";
    static final String PIPELINED_RESPONSES = "dubbo-pipelined.responses.bin";

    /** The id of the echo call in the echo captures. */
    static final long ECHO_ID = 0x1acc461706e22bc3L;

    /** Reads the captures and decodes with a new decoder of {@link DubboCodec#DEFAULTS} each time. */
    static final RpcCodecFixtures<DubboFrame> FIXTURES =
            new RpcCodecFixtures<>(DubboProtocol.NAME, () -> new RpcFrameDecoder(DubboCodec.DEFAULTS));

    private DubboVectors() {
    }

    /** Every capture file, for tests that run on each. */
    static Stream<String> all() {
        return Stream.of(ECHO_REQUEST, ECHO_RESPONSE, ECHO_1KB_REQUEST, ECHO_1KB_RESPONSE, APP_EXCEPTION_REQUEST,
                APP_EXCEPTION_RESPONSE, NO_SUCH_SERVICE_REQUEST, NO_SUCH_SERVICE_RESPONSE, PIPELINED_REQUESTS,
                PIPELINED_RESPONSES);
    }

    /** The capture files of requests, each of whose frames has a routing view. */
    static Stream<String> requests() {
        return Stream.of(ECHO_REQUEST, ECHO_1KB_REQUEST, APP_EXCEPTION_REQUEST, NO_SUCH_SERVICE_REQUEST,
                PIPELINED_REQUESTS);
    }

    /** See {@link RpcCodecFixtures#read}. */
    static byte[] read(String name) {
        return FIXTURES.read(name);
    }

    /** A hessian2 reader over {@code frame}'s body. */
    static Hessian2Reader bodyReader(DubboFrame frame) {
        ByteBuf body = frame.body();
        return new Hessian2Reader(body, body.readerIndex(), body.readableBytes(), DubboProtocol.MAX_HESSIAN2_DEPTH);
    }

    /** Checks that {@code frame} has no routing view: no invocation, service, method, attachment or timeout. */
    static void assertNoRoutingView(DubboFrame frame) {
        assertThat(frame.invocation()).isNull();
        assertThat(frame.service()).isNull();
        assertThat(frame.method()).isNull();
        for (String name : new String[] {"interface", "path", "version", "group", "dubbo", "timeout"}) {
            assertThat(frame.header(name)).as(name).isNull();
        }
        assertThat(frame.attachments()).isEmpty();
        assertThat(frame.timeoutMillis()).isZero();
    }

    /** A whole frame: a header with {@code flag}, {@code status} and {@code requestId}, then {@code body}. */
    static byte[] frame(int flag, int status, long requestId, byte[] body) {
        ByteBuf buf = ByteBufAllocator.DEFAULT.buffer();
        buf.writeShort(DubboProtocol.MAGIC).writeByte(flag).writeByte(status).writeLong(requestId)
                .writeInt(body.length).writeBytes(body);
        return drain(buf);
    }

    /** A channel that decodes with the default codec. */
    static EmbeddedChannel channel() {
        return FIXTURES.channel();
    }

    static EmbeddedChannel channel(DubboCodec codec) {
        return new EmbeddedChannel(new RpcFrameDecoder(codec));
    }

    /** See {@link RpcCodecFixtures#forEachFrame}. */
    static void forEachFrame(byte[] bytes, Consumer<DubboFrame> check) {
        FIXTURES.forEachFrame(bytes, check);
    }

    /** See {@link RpcCodecFixtures#withFrame}. */
    static void withFrame(ByteBuf buf, Consumer<DubboFrame> check) {
        FIXTURES.withFrame(buf, check);
    }

    /** See {@link RpcCodecFixtures#decodeOne}. */
    static DubboFrame decodeOne(ByteBuf buf) {
        return FIXTURES.decodeOne(buf);
    }
}
