package io.tollgate.server.upstream;

import io.netty.channel.Channel;

/**
 * What an exchange writes its request to and reads its response from: an HTTP/1.1 connection or
 * an HTTP/2 stream, both carrying Netty {@code HttpObject}s both ways.
 */
public interface UpstreamConnection {

    /** The channel to write the request's {@code HttpObject}s to. */
    Channel channel();

    /** Hands the connection to an exchange; MUST be paired with {@link UpstreamPool#release}. */
    void bind(UpstreamListener listener);
}
