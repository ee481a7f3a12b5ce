package io.tollgate.benchmarks.http1;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;
import io.tollgate.protocols.http1.Http1Decoders;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
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
import org.openjdk.jmh.infra.Blackhole;

/**
 * Measures what decoding one HTTP/1.1 request costs the gateway: the bytes of a whole request,
 * as one socket read would deliver them, go through the listener's server codec and every
 * decoded message is released, as the proxy handler would.
 *
 * <p>The codec remembers the method of each request until its response is written and refuses
 * more than 128 outstanding requests. No response is written here, so every
 * {@link #REQUESTS_PER_CODEC} requests the codec is replaced by a fresh one, like a keep-alive
 * connection that carries that many requests; its set-up cost is part of the figure.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class RequestHeadParseBenchmark {

    static final int REQUESTS_PER_CODEC = 64;

    /** A browser's GET of an API resource with a session cookie: 400 bytes. */
    static final String BROWSER_GET = "GET /api/v1/orders/4821?include=items,customer&lang=en HTTP/1.1\r\n"
            + "Host: shop.example.com\r\n"
            + "User-Agent: Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36\r\n"
            + "Accept: application/json, text/plain, */*\r\n"
            + "Accept-Language: en-US,en;q=0.9\r\n"
            + "Accept-Encoding: gzip, deflate, br\r\n"
            + "Cookie: session=7f3a9c2e41b84d0f9a6e5c3b2d1f0e9a; theme=dark\r\n"
            + "Connection: keep-alive\r\n"
            + "\r\n";

    /** A small JSON POST with a fixed-length body, as an RPC-style client sends it. */
    static final String SMALL_POST = "POST /api/v1/orders HTTP/1.1\r\n"
            + "Host: shop.example.com\r\n"
            + "Content-Type: application/json\r\n"
            + "Content-Length: 37\r\n"
            + "\r\n"
            + "{\"sku\":\"A-1001\",\"qty\":2,\"gift\":false}";

    @Param({"browserGet", "smallPost"})
    public String request;

    private ByteBuf wire;
    private EmbeddedChannel channel;
    private int requestsOnCodec;

    @Setup
    public void setUp() {
        String text = request.equals("browserGet") ? BROWSER_GET : SMALL_POST;
        byte[] bytes = text.getBytes(StandardCharsets.US_ASCII);
        wire = PooledByteBufAllocator.DEFAULT.directBuffer(bytes.length).writeBytes(bytes);
        channel = new EmbeddedChannel(Http1Decoders.serverCodec(8192, 65536));
        checkDecodesCleanly();
    }

    @TearDown
    public void tearDown() {
        channel.finishAndReleaseAll();
        wire.release();
    }

    /** Decodes one whole request; returns the number of messages it produced. */
    @Benchmark
    public int decodeOneRequest(Blackhole blackhole) {
        if (++requestsOnCodec == REQUESTS_PER_CODEC) {
            requestsOnCodec = 0;
            channel.pipeline().replace(channel.pipeline().first(), null, Http1Decoders.serverCodec(8192, 65536));
        }
        channel.writeInbound(wire.retainedDuplicate());
        int messages = 0;
        Object msg;
        while ((msg = channel.readInbound()) != null) {
            blackhole.consume(msg);
            ReferenceCountUtil.release(msg);
            messages++;
        }
        return messages;
    }

    /** Fails the run when the request does not decode into a valid head and its last content. */
    private void checkDecodesCleanly() {
        channel.writeInbound(wire.retainedDuplicate());
        Object head = channel.readInbound();
        Object last = head instanceof LastHttpContent ? head : channel.readInbound();
        try {
            boolean valid = head instanceof HttpRequest && ((HttpObject) head).decoderResult().isSuccess()
                    && last instanceof LastHttpContent && channel.inboundMessages().isEmpty();
            if (!valid) {
                throw new IllegalStateException("request '" + request + "' decoded into " + head + " and " + last
                        + ", expected a valid request head and its last content");
            }
        } finally {
            ReferenceCountUtil.release(head);
            if (last != head) {
                ReferenceCountUtil.release(last);
            }
        }
        requestsOnCodec = 1;
    }
}
