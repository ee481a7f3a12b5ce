package io.tollgate.benchmarks.http1;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandler;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.DefaultHttpRequest;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.tollgate.protocols.http1.Http1Decoders;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Measures what encoding one request head for an HTTP/1.1 upstream costs: the head of a GET as
 * the proxy forwards it (an h2load request converted from HTTP/2 plus the forwarding headers),
 * then its empty last content, written through the upstream codec and the bytes released.
 * {@code tollgate} is the gateway's codec, {@code netty} Netty's {@link HttpClientCodec}, which
 * the gateway used before.
 *
 * <p>Both codecs remember each request's method until its response arrives, and none does here,
 * so every {@link #REQUESTS_PER_CODEC} requests the codec is replaced by a fresh one, like a
 * keep-alive connection that carries that many requests.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class RequestHeadEncodeBenchmark {

    static final int REQUESTS_PER_CODEC = 64;

    @Param({"tollgate", "netty"})
    public String codec;

    private final HttpRequest head = forwardedGet();
    private Supplier<ChannelHandler> codecs;
    private EmbeddedChannel channel;
    private int requestsOnCodec;

    @Setup
    public void setUp() {
        codecs = codec.equals("tollgate")
                ? () -> Http1Decoders.clientCodec(8192, 65536)
                : () -> new HttpClientCodec(8192, 65536, 65536);
        channel = new EmbeddedChannel(codecs.get());
    }

    @TearDown
    public void tearDown() {
        // removed first: closing with the codec in place reports every response as missing
        channel.pipeline().removeFirst();
        channel.finishAndReleaseAll();
    }

    /** Encodes one head and its end; returns the bytes written. */
    @Benchmark
    public int encodeOneRequest() {
        if (++requestsOnCodec == REQUESTS_PER_CODEC) {
            requestsOnCodec = 0;
            channel.pipeline().replace(channel.pipeline().first(), null, codecs.get());
        }
        channel.write(head);
        channel.writeAndFlush(LastHttpContent.EMPTY_LAST_CONTENT);
        int bytes = 0;
        ByteBuf written;
        while ((written = channel.readOutbound()) != null) {
            bytes += written.readableBytes();
            written.release();
        }
        return bytes;
    }

    private static HttpRequest forwardedGet() {
        HttpRequest request = new DefaultHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.GET, "/");
        request.headers()
                .add("accept", "*/*")
                .add("accept-encoding", "gzip, deflate")
                .add("user-agent", "h2load nghttp2/1.52.0")
                .add("host", "127.0.0.1:18100")
                .add("x-forwarded-for", "127.0.0.1")
                .add("x-forwarded-proto", "http")
                .add("x-request-id", "5f0c2a9e-6c1d-4b7a-9d43-0e8f2b71c3aa");
        return request;
    }
}
