package io.tollgate.server.listener;

import io.netty.channel.ChannelPipeline;
import io.tollgate.core.protocol.ProtocolDetector;

/**
 * A protocol as a listener serves it: how to recognise it and which handlers to install once it
 * is recognised. One per protocol, made per listener by {@link DownstreamProtocols}.
 */
public interface DownstreamProtocol {

    ProtocolDetector detector();

    /** Installs the protocol's handlers at the end of a new connection's pipeline. */
    void configure(ChannelPipeline pipeline);
}
