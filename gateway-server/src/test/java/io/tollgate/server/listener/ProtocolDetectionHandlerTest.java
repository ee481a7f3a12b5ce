package io.tollgate.server.listener;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.embedded.EmbeddedChannel;
import io.tollgate.core.metrics.GatewayMetrics;
import io.tollgate.core.metrics.ListenerMetrics;
import io.tollgate.core.protocol.Detection;
import io.tollgate.core.protocol.ProtocolDetector;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Detection gives up on a connection whose bytes keep a detector asking for more (a plug-in's
 * detector that never decides, or a client feeding it): past {@value ProtocolDetectionHandler#MAX_DETECTION_BYTES}
 * bytes the connection is closed and counted, and nothing it sent is kept.
 */
class ProtocolDetectionHandlerTest {

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final ListenerMetrics metrics = new GatewayMetrics(registry).listener("l");

    @Test
    void closesAndCountsAConnectionThatNamesNoProtocolWithinTheByteCap() {
        EmbeddedChannel channel = new EmbeddedChannel(new ProtocolDetectionHandler(List.of(undecided()),
                TimeUnit.SECONDS.toNanos(10), metrics));
        int sent = 0;
        while (channel.isActive() && sent < 4 * ProtocolDetectionHandler.MAX_DETECTION_BYTES) {
            channel.writeInbound(Unpooled.wrappedBuffer(new byte[100]));
            sent += 100;
        }

        assertThat(channel.isActive()).isFalse();
        assertThat(sent).isLessThanOrEqualTo(ProtocolDetectionHandler.MAX_DETECTION_BYTES + 100);
        assertThat(registry.get("tollgate.downstream.cx.rejected").tag("reason", "detection_bytes").counter().count())
                .isEqualTo(1);
        assertThat(channel.finishAndReleaseAll()).isFalse();
    }

    /** A protocol whose detector always asks for more bytes. */
    private static DownstreamProtocol undecided() {
        return new DownstreamProtocol() {
            @Override
            public ProtocolDetector detector() {
                return new ProtocolDetector() {
                    @Override
                    public String protocol() {
                        return "undecided";
                    }

                    @Override
                    public Detection detect(ByteBuf in) {
                        return Detection.NEED_MORE;
                    }
                };
            }

            @Override
            public void configure(ChannelPipeline pipeline) {
                throw new AssertionError("never detected");
            }
        };
    }
}
