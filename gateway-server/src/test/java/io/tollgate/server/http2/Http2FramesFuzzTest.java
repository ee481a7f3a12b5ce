package io.tollgate.server.http2;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http2.Http2CodecUtil;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2FrameTypes;
import io.tollgate.core.config.GatewayConfig;
import io.tollgate.core.config.read.ConfigLoader;
import io.tollgate.core.metrics.GatewayMetrics;
import io.tollgate.server.exchange.LoopDeadlines;
import io.tollgate.server.http.HttpProxy;
import io.tollgate.server.overload.OverloadGuard;
import io.tollgate.server.snapshot.Snapshot;
import io.tollgate.server.transport.Transport;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Fuzzes a downstream HTTP/2 connection as an h2c listener serves it: the client's connection
 * preface, then fuzzed bytes, into the one handler {@code Http2DownstreamProtocol} installs (Netty's
 * connection handler with every limit {@code Http2Codecs.server} sets, serving streams itself).
 * Routes answer from the gateway (a direct response, a redirect, no route), so no upstream is
 * needed; a route to a cluster without a reachable host answers 503.
 *
 * <p>Malformed frames are the codec's to answer with RST_STREAM or GOAWAY and a protocol error
 * code. A failure is: an exception out of the pipeline; a GOAWAY or RST_STREAM with
 * INTERNAL_ERROR, which Netty sends when a handler of ours threw; outgoing bytes that are not
 * whole frames; a buffer of the input left with a reference once the connection closed. Seeds:
 * requests, bodies, settings, pings, resets, window updates and CONTINUATION, in
 * {@code Http2FramesFuzzTestInputs}.
 */
class Http2FramesFuzzTest {

    private static final String CONFIG = """
            listeners:
              - name: h2
                port: 8080
                protocols: [h2c]
                http2:
                  max_concurrent_streams: 8
                  max_header_list_bytes: 4096
                route_config:
                  virtual_hosts:
                    - name: all
                      domains: ["*"]
                      routes:
                        - match: { prefix: /direct }
                          direct_response: { status: 200, body: "ok" }
                        - match: { prefix: /moved }
                          redirect: { path: /direct }
                        - match: { prefix: /upstream }
                          route: { cluster: nowhere, timeout: 1s }
            clusters:
              - name: nowhere
                endpoints:
                  - { address: 127.0.0.1, port: 9 }
            """;

    private static final GatewayConfig GATEWAY = ConfigLoader.parse(CONFIG);
    private static final GatewayMetrics METRICS = new GatewayMetrics(new SimpleMeterRegistry());
    /** The control thread's work (ejections, health changes) runs on the fuzzing thread, which is the event loop. */
    private static final Snapshot SNAPSHOT = Snapshot.compile(GATEWAY, METRICS, Runnable::run);
    private static final int FRAME_HEADER_BYTES = 9;

    @FuzzTest(maxDuration = "2m")
    void servesOrRefusesAnyFramesAfterThePreface(byte[] input) {
        // Upstream pools and deadlines are kept per event loop, and each channel has its own: a
        // proxy per input, so that millions of inputs do not pile them up.
        HttpProxy proxy = new HttpProxy(GATEWAY.listeners().get(0), () -> SNAPSHOT, Transport.NIO,
                HttpProxy.newPoolMap(), new LoopDeadlines(), METRICS, null, OverloadGuard.none());
        EmbeddedChannel channel = new EmbeddedChannel(proxy.newHttp2ConnectionHandler(false));
        List<ByteBuf> reads = new ArrayList<>();
        try {
            reads.add(ByteBufAllocator.DEFAULT.buffer().writeBytes(Http2CodecUtil.connectionPrefaceBuf()));
            reads.add(ByteBufAllocator.DEFAULT.buffer(Math.max(1, input.length)).writeBytes(input));
            for (ByteBuf read : reads) {
                if (channel.isOpen()) {
                    channel.writeInbound(read);
                } else {
                    read.release();
                }
                channel.runPendingTasks();
                checkWritten(channel);
            }
            channel.close();
            channel.runPendingTasks();
            checkWritten(channel);
        } finally {
            channel.finishAndReleaseAll();
        }
        for (ByteBuf read : reads) {
            assertThat(read.refCnt()).as("references left on a read").isZero();
        }
    }

    /** Reads every buffer the connection wrote, checks it is whole frames none of which reports an internal error. */
    private static void checkWritten(EmbeddedChannel channel) {
        ByteBuf written = Unpooled.buffer();
        try {
            for (ByteBuf out; (out = channel.readOutbound()) != null; ) {
                written.writeBytes(out);
                out.release();
            }
            while (written.isReadable()) {
                assertThat(written.readableBytes()).as("a whole frame header")
                        .isGreaterThanOrEqualTo(FRAME_HEADER_BYTES);
                int length = written.readUnsignedMedium();
                byte type = written.readByte();
                written.skipBytes(1);
                int streamId = written.readInt() & Integer.MAX_VALUE;
                assertThat(written.readableBytes()).as("a whole frame payload").isGreaterThanOrEqualTo(length);
                ByteBuf payload = written.readSlice(length);
                if (type == Http2FrameTypes.GO_AWAY) {
                    assertThat(payload.getUnsignedInt(4)).as("GOAWAY error code, debug data '%s'",
                                    payload.toString(8, length - 8, StandardCharsets.UTF_8))
                            .isNotEqualTo(Http2Error.INTERNAL_ERROR.code());
                } else if (type == Http2FrameTypes.RST_STREAM) {
                    assertThat(payload.getUnsignedInt(0)).as("RST_STREAM error code on stream " + streamId)
                            .isNotEqualTo(Http2Error.INTERNAL_ERROR.code());
                }
            }
        } finally {
            written.release();
        }
    }
}
