package io.tollgate.protocols.bolt;

import io.netty.buffer.ByteBuf;
import io.netty.channel.embedded.EmbeddedChannel;
import io.tollgate.protocols.rpc.RpcCodecFixtures;
import io.tollgate.protocols.rpc.RpcFrameDecoder;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * The captured SOFARPC frames under {@code vectors/bolt}, and the {@link RpcCodecFixtures} that
 * decode them with a {@link RpcFrameDecoder} of {@link BoltCodec#DEFAULTS}.
 */
final class BoltVectors {

    static final String ECHO_REQUEST = "sofarpc-echo.request.bin";
    static final String ECHO_RESPONSE = "sofarpc-echo.response.bin";
    static final String PIPELINED_REQUESTS = "sofarpc-pipelined-30.requests.bin";
    static final String PIPELINED_RESPONSES = "sofarpc-pipelined.responses.bin";

    /** Reads the captures and decodes with a new {@link RpcFrameDecoder} of {@link BoltCodec#DEFAULTS} each time. */
    static final RpcCodecFixtures<BoltFrame> FIXTURES = new RpcCodecFixtures<>(BoltProtocol.NAME,
            () -> new RpcFrameDecoder(BoltCodec.DEFAULTS));

    /** A frame reduced to what must not depend on how the bytes arrived, its id the int32 Bolt carries. */
    record Decoded(BoltFrame.Kind kind, int requestId, byte[] bytes) {
    }

    private BoltVectors() {
    }

    /** Every capture file, for tests that run on each. */
    static Stream<String> all() {
        return Stream.of(
                "sofarpc-app-exception.request.bin", "sofarpc-app-exception.response.bin",
                "sofarpc-echo-1kb.request.bin", "sofarpc-echo-1kb.response.bin",
                ECHO_REQUEST, ECHO_RESPONSE,
                "sofarpc-no-such-service.request.bin", "sofarpc-no-such-service.response.bin",
                "sofarpc-oneway.request.bin", PIPELINED_REQUESTS, PIPELINED_RESPONSES);
    }

    /** See {@link RpcCodecFixtures#read}. */
    static byte[] read(String name) {
        return FIXTURES.read(name);
    }

    /** See {@link RpcCodecFixtures#withFrame}. */
    static void withFrame(ByteBuf buf, Consumer<BoltFrame> check) {
        FIXTURES.withFrame(buf, check);
    }

    /** See {@link RpcCodecFixtures#decodeOne}. */
    static BoltFrame decodeOne(ByteBuf buf) {
        return FIXTURES.decodeOne(buf);
    }

    /** See {@link RpcCodecFixtures#decodeChunks}. */
    static List<Decoded> decodeChunks(List<byte[]> chunks) {
        return narrow(FIXTURES.decodeChunks(chunks));
    }

    /** See {@link RpcCodecFixtures#reduce}. */
    static List<Decoded> reduce(EmbeddedChannel channel) {
        return narrow(RpcCodecFixtures.reduce(channel));
    }

    private static List<Decoded> narrow(List<RpcCodecFixtures.Decoded> frames) {
        return frames.stream().map(f -> new Decoded(f.kind(), (int) f.requestId(), f.bytes())).toList();
    }
}
