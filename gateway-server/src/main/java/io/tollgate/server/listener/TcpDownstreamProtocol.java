package io.tollgate.server.listener;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelPipeline;
import io.tollgate.core.config.ListenerConfig;
import io.tollgate.core.protocol.Detection;
import io.tollgate.core.protocol.ProtocolDetector;
import io.tollgate.server.network.tcpproxy.TcpProxy;
import io.tollgate.server.transport.PipelineNames;

/**
 * The {@code tcp} protocol of a listener: no protocol, the bytes forwarded as they are by the TCP
 * proxy, which keeps its own idle timeout. A {@code tcp} listener serves nothing else, so its
 * detector accepts any bytes.
 */
record TcpDownstreamProtocol(TcpProxy proxy) implements DownstreamProtocol, ProtocolDetector {

    @Override
    public ProtocolDetector detector() {
        return this;
    }

    @Override
    public String protocol() {
        return ListenerConfig.TCP;
    }

    @Override
    public Detection detect(ByteBuf in) {
        return Detection.MATCH;
    }

    @Override
    public void configure(ChannelPipeline pipeline) {
        pipeline.addLast(PipelineNames.PROXY, proxy.newHandler());
    }
}
