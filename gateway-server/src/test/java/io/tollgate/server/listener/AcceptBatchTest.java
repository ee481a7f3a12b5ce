package io.tollgate.server.listener;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.tollgate.server.testing.Await;
import io.tollgate.server.transport.Transport;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Real connections queued in the kernel while the accepting loop is held busy, then counted per
 * wake-up once it is released: how many connections one wake-up accepts.
 */
class AcceptBatchTest {

    private final Transport transport = Transport.best();
    private final List<Integer> batches = new CopyOnWriteArrayList<>();
    private final List<Socket> clients = new ArrayList<>();
    private EventLoopGroup loop;
    private Channel server;

    @BeforeEach
    void bind() throws InterruptedException {
        loop = transport.newGroup(1, "accept-batch-test");
        server = new ServerBootstrap()
                .group(loop)
                .channel(transport.serverChannel())
                .option(ChannelOption.SO_BACKLOG, 1024)
                .option(ChannelOption.RCVBUF_ALLOCATOR, AcceptBatch.allocator())
                .handler(new BatchCounter(batches))
                .childHandler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                    }
                })
                .bind("127.0.0.1", 0).sync().channel();
    }

    @AfterEach
    void close() throws IOException {
        for (Socket client : clients) {
            client.close();
        }
        server.close().syncUninterruptibly();
        loop.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
    }

    @Test
    void acceptsEveryPendingConnectionInOneWakeUp() throws Exception {
        queueConnectionsWhileTheLoopIsBusy(100);

        Await.until("100 connections accepted", Duration.ofSeconds(10), () -> accepted() == 100);
        assertThat(batches).containsExactly(100);
    }

    @Test
    void leavesConnectionsPastTheCapToTheNextWakeUp() throws Exception {
        int count = AcceptBatch.MAX_PER_WAKE_UP + 44;
        queueConnectionsWhileTheLoopIsBusy(count);

        Await.until(count + " connections accepted", Duration.ofSeconds(10), () -> accepted() == count);
        assertThat(batches).containsExactly(AcceptBatch.MAX_PER_WAKE_UP, 44);
    }

    /** Holds the loop in a task while {@code count} clients connect, then lets it go. */
    private void queueConnectionsWhileTheLoopIsBusy(int count) throws IOException, InterruptedException {
        CountDownLatch busy = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        loop.execute(() -> {
            busy.countDown();
            try {
                release.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        assertThat(busy.await(10, TimeUnit.SECONDS)).as("the loop took the holding task").isTrue();
        InetSocketAddress address = (InetSocketAddress) server.localAddress();
        for (int i = 0; i < count; i++) {
            clients.add(new Socket(address.getAddress(), address.getPort()));
        }
        release.countDown();
    }

    private int accepted() {
        return batches.stream().mapToInt(Integer::intValue).sum();
    }

    /** Counts the connections a server channel reads between two read-complete events. */
    private static final class BatchCounter extends ChannelInboundHandlerAdapter {

        private final List<Integer> batches;
        private int current;

        BatchCounter(List<Integer> batches) {
            this.batches = batches;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            current++;
            ctx.fireChannelRead(msg);
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            if (current > 0) {
                batches.add(current);
                current = 0;
            }
            ctx.fireChannelReadComplete();
        }
    }
}
