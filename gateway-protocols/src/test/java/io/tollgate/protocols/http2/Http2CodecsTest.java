package io.tollgate.protocols.http2;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http2.Http2CodecUtil;
import io.netty.handler.codec.http2.Http2ConnectionDecoder;
import io.netty.handler.codec.http2.Http2ConnectionEncoder;
import io.netty.handler.codec.http2.Http2ConnectionHandler;
import io.netty.handler.codec.http2.Http2FrameAdapter;
import io.netty.handler.codec.http2.Http2Settings;
import io.tollgate.core.config.Http2Options;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class Http2CodecsTest {

    private static final int SETTINGS = 0x4;
    private static final int ENABLE_PUSH = 0x2;
    private static final int MAX_CONCURRENT_STREAMS = 0x3;
    private static final int INITIAL_WINDOW_SIZE = 0x4;
    private static final int MAX_HEADER_LIST_SIZE = 0x6;

    @Test
    void clientRefusesPushAndAnnouncesTheStreamWindowAndHeaderListLimit() {
        Http2Options options = Http2Options.DEFAULTS;
        Map<Integer, Long> settings = firstSettings(Http2Codecs.client(options, Http2CodecsTest::handler), true);

        assertThat(settings).containsEntry(ENABLE_PUSH, 0L)
                .containsEntry(INITIAL_WINDOW_SIZE, (long) options.initialWindowBytes())
                .containsEntry(MAX_HEADER_LIST_SIZE, (long) options.maxHeaderListBytes());
    }

    @Test
    void serverAnnouncesItsStreamLimitAndNoPushSetting() {
        Http2Options options = Http2Options.DEFAULTS;
        Map<Integer, Long> settings = firstSettings(Http2Codecs.server(options, Http2CodecsTest::handler), false);

        assertThat(settings).containsEntry(MAX_CONCURRENT_STREAMS, (long) options.maxConcurrentStreams())
                .containsEntry(INITIAL_WINDOW_SIZE, (long) options.initialWindowBytes())
                .doesNotContainKey(ENABLE_PUSH);
    }

    @Test
    void connectionWindowIncrementMakesFourStreamWindows() {
        Http2Options options = Http2Options.DEFAULTS;

        assertThat(Http2Codecs.connectionWindowIncrement(options) + Http2CodecUtil.DEFAULT_WINDOW_SIZE)
                .isEqualTo(4 * options.initialWindowBytes());
    }

    /** A handler that does nothing with the frames it reads. */
    private static Http2ConnectionHandler handler(Http2ConnectionDecoder decoder, Http2ConnectionEncoder encoder,
            Http2Settings initialSettings) {
        decoder.frameListener(new Http2FrameAdapter());
        return new Http2ConnectionHandler(decoder, encoder, initialSettings) { };
    }

    /** The settings of the first SETTINGS frame {@code handler} writes, after the client preface when {@code client}. */
    private static Map<Integer, Long> firstSettings(Http2ConnectionHandler handler, boolean client) {
        EmbeddedChannel channel = new EmbeddedChannel(handler);
        CompositeByteBuf written = Unpooled.compositeBuffer();
        try {
            ByteBuf part;
            while ((part = channel.readOutbound()) != null) {
                written.addComponent(true, part);
            }
            if (client) {
                written.skipBytes(Http2CodecUtil.connectionPrefaceBuf().readableBytes());
            }
            int length = written.readUnsignedMedium();
            assertThat(written.readUnsignedByte()).isEqualTo((short) SETTINGS);
            written.skipBytes(5);
            Map<Integer, Long> settings = new HashMap<>();
            for (int read = 0; read < length; read += 6) {
                settings.put(written.readUnsignedShort(), written.readUnsignedInt());
            }
            return settings;
        } finally {
            written.release();
            channel.finishAndReleaseAll();
        }
    }
}
