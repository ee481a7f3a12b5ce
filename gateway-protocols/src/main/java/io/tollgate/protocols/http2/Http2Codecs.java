package io.tollgate.protocols.http2;

import static java.util.Objects.requireNonNull;

import io.netty.handler.codec.http2.AbstractHttp2ConnectionHandlerBuilder;
import io.netty.handler.codec.http2.DefaultHttp2Connection;
import io.netty.handler.codec.http2.DefaultHttp2RemoteFlowController;
import io.netty.handler.codec.http2.Http2CodecUtil;
import io.netty.handler.codec.http2.Http2Connection;
import io.netty.handler.codec.http2.Http2ConnectionDecoder;
import io.netty.handler.codec.http2.Http2ConnectionEncoder;
import io.netty.handler.codec.http2.Http2ConnectionHandler;
import io.netty.handler.codec.http2.Http2Settings;
import io.netty.handler.codec.http2.UniformStreamByteDistributor;
import io.tollgate.core.config.Http2Options;

/**
 * Builds Netty's HTTP/2 codecs with every protection Netty 4.2 offers set explicitly, so that no
 * limit depends on a library default changing under us: the decoder and encoder of the downstream
 * and the upstream connection handlers. Each call returns a new codec.
 *
 * <table>
 *   <caption>Protections of the server codec</caption>
 *   <tr><th>attack</th><th>protection</th></tr>
 *   <tr><td>rapid reset (CVE-2023-44487)</td><td>more than {@code maxResetsPerWindow} RST_STREAM per
 *       {@code resetWindow}: GOAWAY ENHANCE_YOUR_CALM</td></tr>
 *   <tr><td>HPACK bomb, huge header blocks</td><td>SETTINGS_MAX_HEADER_LIST_SIZE enforced while
 *       decoding; past it the stream is refused, far past it the connection</td></tr>
 *   <tr><td>CONTINUATION flood</td><td>at most {@code maxSmallContinuationFrames} tiny CONTINUATION
 *       frames per block, and the header list limit counts every fragment</td></tr>
 *   <tr><td>settings, ping and reset floods</td><td>at most {@code maxQueuedControlFrames} control
 *       frames queued for a peer that does not read</td></tr>
 *   <tr><td>empty DATA flood</td><td>at most {@value #MAX_EMPTY_DATA_FRAMES} empty DATA frames in a row</td></tr>
 *   <tr><td>too many streams</td><td>SETTINGS_MAX_CONCURRENT_STREAMS; streams past it are refused</td></tr>
 * </table>
 *
 * <p>The client codec has the same protections but for the two that concern what a client opens
 * (rapid reset, too many streams), and refuses server push (SETTINGS_ENABLE_PUSH 0).
 */
public final class Http2Codecs {

    /** Empty DATA frames tolerated in a row; more is a connection error. */
    static final int MAX_EMPTY_DATA_FRAMES = 2;
    /** The connection window of both sides, as a multiple of the stream window. */
    private static final int CONNECTION_WINDOW_STREAMS = 4;

    private Http2Codecs() {
    }

    /**
     * The downstream handler of one client connection: {@code factory} makes it from the decoder
     * and encoder built here, with every protection of the table above, so the handler only adds
     * what to do with the frames. Each call builds a new connection.
     */
    public static <T extends Http2ConnectionHandler> T server(Http2Options options, HandlerFactory<T> factory) {
        requireNonNull(options, "options");
        requireNonNull(factory, "factory");
        return new Builder<>(options, factory, true).build();
    }

    /**
     * The upstream handler of one connection to a host, made by {@code factory} like {@link #server}'s:
     * no server push, the same stream window and header list limit as downstream, the same CONTINUATION,
     * empty DATA and control frame limits, and no queueing of streams past the host's
     * SETTINGS_MAX_CONCURRENT_STREAMS (the pool counts them and opens another connection instead).
     */
    public static <T extends Http2ConnectionHandler> T client(Http2Options options, HandlerFactory<T> factory) {
        requireNonNull(options, "options");
        requireNonNull(factory, "factory");
        return new Builder<>(options, factory, false).build();
    }

    /**
     * How much to widen a new connection's window (65,535 bytes by the RFC, changeable only by
     * WINDOW_UPDATE) so that one paused stream cannot stall the others: to
     * {@value #CONNECTION_WINDOW_STREAMS} stream windows.
     */
    public static int connectionWindowIncrement(Http2Options options) {
        long target = (long) options.initialWindowBytes() * CONNECTION_WINDOW_STREAMS;
        long increment = Math.min(Integer.MAX_VALUE, target) - Http2CodecUtil.DEFAULT_WINDOW_SIZE;
        return (int) Math.max(0, increment);
    }

    /** Makes a connection handler from the codec halves {@link #server} or {@link #client} configured. */
    @FunctionalInterface
    public interface HandlerFactory<T extends Http2ConnectionHandler> {

        /** A new handler; MUST pass the three arguments to {@link Http2ConnectionHandler}'s constructor. */
        T newHandler(Http2ConnectionDecoder decoder, Http2ConnectionEncoder encoder, Http2Settings initialSettings);
    }

    /**
     * Netty's builder, whose settings are protected: it sets them once, from the options, for one
     * side, and hands the built codec halves to the factory.
     */
    private static final class Builder<T extends Http2ConnectionHandler>
            extends AbstractHttp2ConnectionHandlerBuilder<T, Builder<T>> {

        private final HandlerFactory<T> factory;

        Builder(Http2Options options, HandlerFactory<T> factory, boolean server) {
            this.factory = factory;
            connection(newConnection(server))
                    .validateHeaders(true)
                    .decoderEnforceMaxSmallContinuationFrames(options.maxSmallContinuationFrames())
                    .decoderEnforceMaxConsecutiveEmptyDataFrames(MAX_EMPTY_DATA_FRAMES)
                    .encoderEnforceMaxQueuedControlFrames(options.maxQueuedControlFrames())
                    // Closing does not wait for open streams: a drain waits for them itself, with its own deadline.
                    .gracefulShutdownTimeoutMillis(0);
            Http2Settings settings = Http2Settings.defaultSettings()
                    .initialWindowSize(options.initialWindowBytes())
                    .maxHeaderListSize(options.maxHeaderListBytes());
            if (server) {
                initialSettings(settings.maxConcurrentStreams(options.maxConcurrentStreams())
                        .maxFrameSize(options.maxFrameBytes()))
                        .decoderEnforceMaxRstFramesPerWindow(options.maxResetsPerWindow(),
                                (int) Math.max(1, options.resetWindow().toSeconds()));
                return;
            }
            initialSettings(settings.pushEnabled(false))
                    .encoderEnforceMaxConcurrentStreams(false);
        }

        /**
         * A connection whose outgoing bytes are shared out by {@link UniformStreamByteDistributor}
         * rather than Netty's default weighted fair queue: RFC 9113 deprecates the priority signals
         * that queue honours, peers rarely send them, and keeping its priority tree up to date
         * costs a visible share of every request.
         */
        private static Http2Connection newConnection(boolean server) {
            Http2Connection connection = new DefaultHttp2Connection(server);
            connection.remote().flowController(
                    new DefaultHttp2RemoteFlowController(connection, new UniformStreamByteDistributor(connection)));
            return connection;
        }

        /** Widened so that {@link Http2Codecs} may call it. */
        @Override
        public T build() {
            return super.build();
        }

        @Override
        protected T build(Http2ConnectionDecoder decoder, Http2ConnectionEncoder encoder, Http2Settings initialSettings) {
            return factory.newHandler(decoder, encoder, initialSettings);
        }
    }
}
