package io.tollgate.server.rpc;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.tollgate.protocols.dubbo.DubboHeartbeats;
import io.tollgate.server.testing.StartedResources;
import io.tollgate.server.testing.TestGateway;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.Socket;
import java.net.SocketException;
import java.nio.ByteBuffer;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * What a Dubbo listener does with frames a real consumer rarely sends, over a raw socket: a
 * heartbeat is answered by the gateway itself, and a malformed or oversized frame closes only the
 * connection that sent it, while a real consumer on another connection carries on.
 */
class DubboRawFramesTest {

    private static final String CONFIG = """
            listeners:
              - name: dubbo
                port: 0
                protocols: [dubbo]
                dubbo: { max_frame_bytes: 4096 }
                route_config:
                  virtual_hosts:
                    - name: all
                      domains: ["*"]
                      routes: [{ match: { prefix: / }, route: { cluster: main } }]
            clusters:
              - name: main
                endpoints: [{ address: 127.0.0.1, port: ${MAIN} }]
            """;

    private static final StartedResources started = new StartedResources();
    private static DubboProvider provider;
    private static TestGateway gateway;
    private static DubboConsumer consumer;

    @BeforeAll
    static void start() throws Exception {
        provider = started.add(DubboProvider.named("main").start());
        gateway = started.add(TestGateway.start(CONFIG, Map.of("MAIN", provider.port())));
        consumer = started.add(DubboConsumer.to(gateway.port("dubbo")).connect());
    }

    @AfterAll
    static void stop() {
        started.close();
    }

    @Test
    void heartbeatIsAnsweredByTheGatewayWithItsId() throws Exception {
        ByteBuf heartbeat = DubboHeartbeats.request(ByteBufAllocator.DEFAULT, 4242L);
        byte[] bytes = ByteBufUtil.getBytes(heartbeat);
        heartbeat.release();
        int callsBefore = provider.service().calls();
        try (Socket client = new Socket("127.0.0.1", gateway.port("dubbo"))) {
            client.getOutputStream().write(bytes);
            byte[] answer = readFrame(new DataInputStream(client.getInputStream()));
            ByteBuffer header = ByteBuffer.wrap(answer);
            assertThat(header.getShort(0)).isEqualTo((short) 0xdabb);
            assertThat(answer[2] & 0xa0).as("an event response").isEqualTo(0x20);
            assertThat(answer[3]).as("status OK").isEqualTo((byte) 20);
            assertThat(header.getLong(4)).isEqualTo(4242L);
        }
        assertThat(provider.service().calls()).as("nothing forwarded").isEqualTo(callsBefore);
    }

    @Test
    void malformedFrameClosesOnlyItsConnection() throws Exception {
        byte[] negativeLength = frameHeader(7L, -1);
        assertClosedAfter(negativeLength);
        assertThat(consumer.service().echo("still served")).isEqualTo("still served");
        assertThat(gateway.count("tollgate.downstream.rq.error", "reason", "dubbo_malformed_frame"))
                .isGreaterThanOrEqualTo(1);
    }

    @Test
    void frameOverTheListenersLimitClosesOnlyItsConnection() throws Exception {
        assertClosedAfter(frameHeader(8L, 8192));
        assertThat(consumer.service().echo("still served")).isEqualTo("still served");
    }

    /** A two-way hessian2 request header declaring {@code bodyLength} bytes. */
    private static byte[] frameHeader(long id, int bodyLength) {
        return ByteBuffer.allocate(16).putShort((short) 0xdabb).put((byte) 0xc2).put((byte) 0).putLong(id)
                .putInt(bodyLength).array();
    }

    /** Sends {@code bytes} and expects the gateway to close the connection (after an error answer, if any). */
    private static void assertClosedAfter(byte[] bytes) throws IOException {
        try (Socket client = new Socket("127.0.0.1", gateway.port("dubbo"))) {
            client.setSoTimeout(5_000);
            client.getOutputStream().write(bytes);
            DataInputStream in = new DataInputStream(client.getInputStream());
            boolean closed = false;
            try {
                while (in.read() >= 0) {
                    // drain a possible error answer
                }
                closed = true;
            } catch (SocketException reset) {
                closed = true;
            }
            assertThat(closed).isTrue();
        }
    }

    private static byte[] readFrame(DataInputStream in) throws IOException {
        byte[] header = new byte[16];
        in.readFully(header);
        int length = ByteBuffer.wrap(header).getInt(12);
        if (length < 0) {
            throw new EOFException("negative body length " + length);
        }
        byte[] frame = new byte[16 + length];
        System.arraycopy(header, 0, frame, 0, 16);
        in.readFully(frame, 16, length);
        return frame;
    }
}
