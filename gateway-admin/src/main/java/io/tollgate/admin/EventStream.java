package io.tollgate.admin;

import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The subscribers of {@code GET /stats/stream}, a server-sent-events stream: each gets every
 * event the console publishes once a second. Used on the admin thread alone. A subscriber whose
 * socket does not take the events (a browser tab in the background) misses them rather than
 * queuing them; at most {@link #MAX_SUBSCRIBERS} at once, others get 503.
 */
final class EventStream {

    static final String PATH = "/stats/stream";
    static final int MAX_SUBSCRIBERS = 16;
    /** How long a browser waits before it reconnects a broken stream. */
    private static final int RETRY_MILLIS = 2000;

    private final List<Channel> subscribers = new ArrayList<>();

    /** Answers the request on {@code channel} with the stream's head, or 503 when too many listen. */
    void subscribe(Channel channel) {
        if (subscribers.size() >= MAX_SUBSCRIBERS) {
            HttpResponse busy = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.SERVICE_UNAVAILABLE);
            busy.headers().set(HttpHeaderNames.CONTENT_LENGTH, 0).set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
            channel.writeAndFlush(busy).addListener(ChannelFutureListener.CLOSE);
            return;
        }
        HttpResponse head = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
        head.headers()
                .set(HttpHeaderNames.CONTENT_TYPE, "text/event-stream; charset=utf-8")
                .set(HttpHeaderNames.CACHE_CONTROL, HttpHeaderValues.NO_CACHE)
                .set(HttpHeaderNames.TRANSFER_ENCODING, HttpHeaderValues.CHUNKED);
        channel.write(head);
        channel.writeAndFlush(chunk("retry: " + RETRY_MILLIS + "\n\n"));
        subscribers.add(channel);
        channel.closeFuture().addListener(f -> subscribers.remove(channel));
    }

    /** How many subscribe now. */
    int size() {
        return subscribers.size();
    }

    /** Sends one event, its data a line of JSON, to every subscriber that can take it now. */
    void publish(String event, String json) {
        if (subscribers.isEmpty()) {
            return;
        }
        String text = "event: " + event + "\ndata: " + json + "\n\n";
        for (Channel channel : subscribers) {
            if (channel.isWritable()) {
                channel.writeAndFlush(chunk(text));
            }
        }
    }

    private static DefaultHttpContent chunk(String text) {
        return new DefaultHttpContent(Unpooled.copiedBuffer(text, StandardCharsets.UTF_8));
    }
}
