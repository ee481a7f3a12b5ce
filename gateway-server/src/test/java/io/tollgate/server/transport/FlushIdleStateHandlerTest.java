package io.tollgate.server.transport;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.timeout.IdleState;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.util.concurrent.MockTicker;
import io.netty.util.concurrent.Ticker;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class FlushIdleStateHandlerTest {

    private final List<Boolean> voidPromises = new ArrayList<>();
    private final List<Object> events = new ArrayList<>();
    private final MockTicker time = Ticker.newMockTicker();
    private final EmbeddedChannel channel = EmbeddedChannel.builder().ticker(time).handlers(
            new ChannelOutboundHandlerAdapter() {
                @Override
                public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
                    voidPromises.add(promise.isVoid());
                    ctx.write(msg, promise);
                }
            },
            new FlushIdleStateHandler(1000, TimeUnit.MILLISECONDS),
            new ChannelInboundHandlerAdapter() {
                @Override
                public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
                    events.add(evt);
                }
            }).build();

    @Test
    void aWriteGoesOnWithItsVoidPromise() {
        channel.write("frame", channel.voidPromise());
        channel.flush();

        assertThat(voidPromises).containsExactly(true);
        assertThat((String) channel.readOutbound()).isEqualTo("frame");
    }

    @Test
    void allIdleRunsFromTheLastFlush() {
        time.advance(600, TimeUnit.MILLISECONDS);
        channel.writeAndFlush("frame", channel.voidPromise());
        time.advance(600, TimeUnit.MILLISECONDS);
        channel.runScheduledPendingTasks();
        assertThat(events).isEmpty();

        time.advance(401, TimeUnit.MILLISECONDS);
        channel.runScheduledPendingTasks();
        assertThat(events).hasSize(1);
        assertThat(((IdleStateEvent) events.get(0)).state()).isEqualTo(IdleState.ALL_IDLE);
        channel.finishAndReleaseAll();
    }

    @Test
    void allIdleWithoutReadsOrFlushes() {
        time.advance(999, TimeUnit.MILLISECONDS);
        channel.runScheduledPendingTasks();
        assertThat(events).isEmpty();

        time.advance(2, TimeUnit.MILLISECONDS);
        channel.runScheduledPendingTasks();
        assertThat(events).hasSize(1);
        channel.finishAndReleaseAll();
    }
}
