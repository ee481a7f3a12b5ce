package io.tollgate.server.rpc;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.tollgate.protocols.bolt.BoltResponses;
import io.tollgate.protocols.bolt.BoltStatus;
import io.tollgate.server.testing.TestGateway;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.zip.CRC32;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Real SOFARPC captures (and a hand-made Bolt v2 frame with CRC) sent over a raw socket through
 * the gateway to an upstream that records the bytes it gets: forwarding changes the request id
 * and nothing else, both ways, and keeps a v2 CRC valid.
 */
class BoltCaptureForwardingTest {

    private static final String CONFIG = BoltConfigs.everyServiceTo("recording", """
              - name: recording
                endpoints: [{ address: 127.0.0.1, port: ${RECORDING} }]
            """);
    private static final int V1_ID_OFFSET = 5;
    private static final int V2_ID_OFFSET = 6;

    private static EventLoopGroup group;
    private static RecordingBoltUpstream upstream;
    private static TestGateway gateway;

    @BeforeAll
    static void start() throws Exception {
        group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        upstream = new RecordingBoltUpstream(group);
        gateway = TestGateway.start(CONFIG, Map.of("RECORDING", upstream.port()));
    }

    @AfterAll
    static void stop() {
        if (gateway != null) {
            gateway.close();
        }
        upstream.close();
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }

    @Test
    void capturedCallCrossesTheGatewayUnchangedApartFromTheRequestIdBothWays() throws Exception {
        byte[] request = capture("sofarpc-echo.request.bin");
        byte[] response = capture("sofarpc-echo.response.bin");
        upstream.answering(1, (index, frame) -> Unpooled.wrappedBuffer(withId(response, (int) frame.requestId())));

        byte[] answered;
        try (Socket client = new Socket("127.0.0.1", gateway.port("bolt"))) {
            client.getOutputStream().write(request);
            answered = BoltFrames.readFrame(new DataInputStream(client.getInputStream()));
        }

        assertThat(upstream.received()).hasSize(1);
        assertThat(apartFrom(upstream.received().get(0), V1_ID_OFFSET, false))
                .isEqualTo(apartFrom(request, V1_ID_OFFSET, false));
        assertThat(idOf(answered, V1_ID_OFFSET)).isEqualTo(idOf(request, V1_ID_OFFSET));
        assertThat(apartFrom(answered, V1_ID_OFFSET, false))
                .isEqualTo(apartFrom(upstream.sent().get(0), V1_ID_OFFSET, false));
    }

    @Test
    void pipelinedCapturedCallsArriveInOrderAndTheirOutOfOrderResponsesFindTheirCallers() throws Exception {
        byte[] pipelined = capture("sofarpc-pipelined-30.requests.bin");
        List<byte[]> requests = BoltFrames.split(pipelined);
        List<byte[]> responses = BoltFrames.split(capture("sofarpc-pipelined.responses.bin"));
        upstream.answering(requests.size(),
                (index, frame) -> Unpooled.wrappedBuffer(withId(responses.get(index), (int) frame.requestId())));

        Map<Integer, byte[]> answeredById = new HashMap<>();
        try (Socket client = new Socket("127.0.0.1", gateway.port("bolt"))) {
            client.getOutputStream().write(pipelined);
            DataInputStream in = new DataInputStream(client.getInputStream());
            for (int i = 0; i < requests.size(); i++) {
                byte[] answered = BoltFrames.readFrame(in);
                answeredById.put(idOf(answered, V1_ID_OFFSET), answered);
            }
        }

        assertThat(upstream.received()).hasSize(requests.size());
        for (int i = 0; i < requests.size(); i++) {
            assertThat(apartFrom(upstream.received().get(i), V1_ID_OFFSET, false))
                    .isEqualTo(apartFrom(requests.get(i), V1_ID_OFFSET, false));
            byte[] answered = answeredById.get(idOf(requests.get(i), V1_ID_OFFSET));
            assertThat(answered).as("response to request %d", i).isNotNull();
            assertThat(apartFrom(answered, V1_ID_OFFSET, false))
                    .isEqualTo(apartFrom(responses.get(i), V1_ID_OFFSET, false));
        }
    }

    @Test
    void boltV2FrameWithCrcIsForwardedWithAValidCrcBothWays() throws Exception {
        ByteBuf built = BoltFrames.v2RequestWithCrc(77, "v2.service:1.0", "checked");
        byte[] request = ByteBufUtil.getBytes(built);
        built.release();
        upstream.answering(1, (index, frame) -> BoltResponses.response(frame.bytes().alloc(), frame.dialect(),
                frame.requestId(), BoltStatus.SUCCESS, null, Map.of("k", "v"),
                Unpooled.wrappedBuffer("answer".getBytes(StandardCharsets.UTF_8))));

        byte[] answered;
        try (Socket client = new Socket("127.0.0.1", gateway.port("bolt"))) {
            client.getOutputStream().write(request);
            answered = BoltFrames.readFrame(new DataInputStream(client.getInputStream()));
        }

        byte[] forwarded = upstream.received().get(0);
        assertThat(crcIsValid(forwarded)).isTrue();
        assertThat(apartFrom(forwarded, V2_ID_OFFSET, true)).isEqualTo(apartFrom(request, V2_ID_OFFSET, true));
        assertThat(idOf(answered, V2_ID_OFFSET)).isEqualTo(77);
        assertThat(crcIsValid(answered)).isTrue();
        assertThat(apartFrom(answered, V2_ID_OFFSET, true))
                .isEqualTo(apartFrom(upstream.sent().get(0), V2_ID_OFFSET, true));
    }

    private static byte[] capture(String name) throws IOException {
        try (InputStream in = BoltCaptureForwardingTest.class.getResourceAsStream("/vectors/bolt/" + name)) {
            assertThat(in).as(name).isNotNull();
            return in.readAllBytes();
        }
    }

    /** A copy of a v1 frame with another request id. */
    private static byte[] withId(byte[] frame, int id) {
        byte[] copy = frame.clone();
        ByteBuffer.wrap(copy).putInt(V1_ID_OFFSET, id);
        return copy;
    }

    private static int idOf(byte[] frame, int idOffset) {
        return ByteBuffer.wrap(frame).getInt(idOffset);
    }

    /** A copy with the request id (and the trailing CRC, when {@code crc}) zeroed. */
    private static byte[] apartFrom(byte[] frame, int idOffset, boolean crc) {
        byte[] copy = frame.clone();
        Arrays.fill(copy, idOffset, idOffset + 4, (byte) 0);
        if (crc) {
            Arrays.fill(copy, copy.length - 4, copy.length, (byte) 0);
        }
        return copy;
    }

    private static boolean crcIsValid(byte[] frame) {
        CRC32 crc = new CRC32();
        crc.update(frame, 0, frame.length - 4);
        return (int) crc.getValue() == ByteBuffer.wrap(frame).getInt(frame.length - 4);
    }
}
