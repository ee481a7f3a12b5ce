package io.tollgate.server.upstream.http;

import io.netty.handler.codec.http.HttpObject;

/**
 * What an exchange writes its request to and reads its response from: an HTTP/1.1 connection or
 * an HTTP/2 stream, both carrying Netty {@code HttpObject}s both ways. An HTTP/2 stream has no
 * channel of its own, so the exchange sees only these primitives. MUST be used on the pool's
 * event loop.
 */
public interface UpstreamConnection {

    /** Writes a request part without flushing; ownership of {@code msg} passes here. */
    void write(HttpObject msg);

    /** Flushes the request parts written so far (HTTP/2: once per event-loop pass for the whole connection). */
    void flush();

    /** Whether the host takes request bytes now (HTTP/2: the stream's window has room and the socket too). */
    boolean isWritable();

    /** Starts or stops reading the response (HTTP/2: stops returning flow-control credit to the host). */
    void setReading(boolean reading);

    /** Hands the connection to an exchange; MUST be paired with {@link UpstreamPool#release}. */
    void bind(UpstreamListener listener);
}
