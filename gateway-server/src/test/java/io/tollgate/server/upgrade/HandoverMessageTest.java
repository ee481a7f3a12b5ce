package io.tollgate.server.upgrade;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.tollgate.server.inheritance.CounterValue;
import io.tollgate.server.upgrade.HandoverMessage.AdminSocket;
import io.tollgate.server.upgrade.HandoverMessage.AdoptedConnection;
import io.tollgate.server.upgrade.HandoverMessage.ListenerSocket;
import io.tollgate.server.upgrade.HandoverMessage.MovingConnection;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Every message of the hot restart conversation reads back as written; a damaged one is refused, not guessed. */
class HandoverMessageTest {

    private static final CounterValue REQUESTS = new CounterValue("tollgate.downstream.rq",
            List.of("listener", "http", "status_class", "2xx"), "requests answered", "", 12);

    @Test
    void everyMessageReadsBackAsWritten() {
        List<HandoverMessage> messages = List.of(
                new HandoverMessage.Hello(HandoverMessage.VERSION),
                new HandoverMessage.Info(3, 1_795_000_000_000L, List.of(new ListenerSocket("bolt", "127.0.0.1", 12200)),
                        new AdminSocket("127.0.0.1", 9901), List.of(REQUESTS)),
                new HandoverMessage.Info(0, 0, List.of(), null, List.of()),
                new HandoverMessage.Refused("this gateway is draining"),
                new HandoverMessage.TakeListener("bolt"),
                new HandoverMessage.TakeAdmin(),
                new HandoverMessage.Serving(),
                new HandoverMessage.Next(),
                new HandoverMessage.Moving(List.of(new MovingConnection(1, "bolt", "bolt", true),
                        new MovingConnection(2, "http", "", false))),
                new HandoverMessage.TakeConnections(),
                new HandoverMessage.Adopted(List.of(new AdoptedConnection(1, true), new AdoptedConnection(2, false))),
                new HandoverMessage.Done(List.of(REQUESTS)));
        for (HandoverMessage message : messages) {
            ByteBuf wire = HandoverMessage.encode(ByteBufAllocator.DEFAULT, message);
            try {
                assertThat(HandoverMessage.decode(wire)).isEqualTo(message);
                assertThat(wire.isReadable()).isFalse();
            } finally {
                wire.release();
            }
        }
    }

    @Test
    void anUnknownTypeOrAnImpossibleLengthIsRefused() {
        ByteBuf unknown = Unpooled.buffer().writeByte(99);
        ByteBuf tooLong = Unpooled.buffer().writeByte(4).writeInt(1000).writeByte('x');
        ByteBuf tooMany = Unpooled.buffer().writeByte(8).writeInt(Integer.MAX_VALUE);
        try {
            assertThatThrownBy(() -> HandoverMessage.decode(unknown)).hasMessageContaining("type 99");
            assertThatThrownBy(() -> HandoverMessage.decode(tooLong)).hasMessageContaining("string of 1000 bytes");
            assertThatThrownBy(() -> HandoverMessage.decode(tooMany)).hasMessageContaining("list of 2147483647");
        } finally {
            unknown.release();
            tooLong.release();
            tooMany.release();
        }
    }

    @Test
    void incrementsAreWhatEachCounterGrewBy() {
        CounterValue errors = new CounterValue("tollgate.downstream.rq.error", List.of("reason", "no_route"), "", "", 1);
        List<CounterValue> later = List.of(
                new CounterValue(REQUESTS.name(), REQUESTS.tags(), REQUESTS.description(), "", 20),
                new CounterValue(errors.name(), errors.tags(), "", "", 1),
                new CounterValue("tollgate.upstream.rq.retry", List.of(), "", "", 2));

        assertThat(CounterValue.increments(List.of(REQUESTS, errors), later)).containsExactly(
                new CounterValue(REQUESTS.name(), REQUESTS.tags(), REQUESTS.description(), "", 8),
                new CounterValue("tollgate.upstream.rq.retry", List.of(), "", "", 2));
    }
}
