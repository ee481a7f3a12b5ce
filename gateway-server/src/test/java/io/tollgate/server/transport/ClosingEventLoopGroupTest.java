package io.tollgate.server.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import io.netty.channel.Channel;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.epoll.Epoll;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The gateway's event loops close their connections when they shut down, also when the shutdown
 * begins while a loop runs a task (Netty 4.2.18's own loops then end without closing them): one
 * real connection to a plain server socket, whose end must see the close.
 */
class ClosingEventLoopGroupTest {

    @ParameterizedTest
    @EnumSource(Transport.class)
    void aShutdownThatBeginsWhileTheLoopRunsATaskClosesItsConnections(Transport transport) throws Exception {
        assumeThat(transport != Transport.EPOLL || Epoll.isAvailable()).as("native epoll loads here").isTrue();
        EventLoopGroup group = transport.newGroup(1, "closing-test");
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            Channel channel = transport.clientTo(group.next(),
                            new InetSocketAddress(InetAddress.getLoopbackAddress(), server.getLocalPort()), Duration.ofSeconds(5))
                    .handler(new ChannelInboundHandlerAdapter())
                    .connect().syncUninterruptibly().channel();
            try (Socket peer = server.accept()) {
                CountDownLatch running = new CountDownLatch(1);
                CountDownLatch release = new CountDownLatch(1);
                channel.eventLoop().execute(() -> {
                    running.countDown();
                    try {
                        release.await(10, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                });
                assertThat(running.await(10, TimeUnit.SECONDS)).as("the loop runs the task").isTrue();
                io.netty.util.concurrent.Future<?> terminated = group.shutdownGracefully(0, 2, TimeUnit.SECONDS);
                release.countDown();
                assertThat(terminated.await(10, TimeUnit.SECONDS)).as("the loop ended").isTrue();
                assertThat(channel.isOpen()).as("the channel after its loop ended").isFalse();
                peer.setSoTimeout(10_000);
                try {
                    assertThat(peer.getInputStream().read()).as("what the peer reads").isEqualTo(-1);
                } catch (SocketTimeoutException e) {
                    throw new AssertionError("the connection was not closed within 10 s of its loop's end", e);
                }
            }
        } finally {
            group.shutdownGracefully(0, 0, TimeUnit.SECONDS);
        }
    }
}
