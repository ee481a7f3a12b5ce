package io.tollgate.server.upgrade;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.tollgate.server.inheritance.CounterValue;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The messages of a hot restart's conversation over the Unix domain socket. The new process asks,
 * the old one answers, strictly one at a time, because a descriptor (SCM_RIGHTS, one per message)
 * must arrive while the new process reads descriptors and a message while it reads bytes: the new
 * process switches its read mode before each request that a descriptor answers.
 *
 * <pre>
 * new -> old                      old -> new
 * Hello                           Info (epoch, listeners, admin, counters) | Refused
 * TakeListener(name), TakeAdmin   the socket's descriptor
 * Serving                         (nothing: the old process stops accepting and starts draining)
 * Next                            Moving(connections: id, listener, protocol) | Done(counter increments)
 * TakeConnections                 each connection's descriptor, in that order
 * Adopted(id and served, each)    (nothing: the old process closes its descriptors)
 * </pre>
 *
 * Framed by a 4-byte length; each message starts with its type byte. Strings are UTF-8 with a
 * 4-byte length.
 */
sealed interface HandoverMessage {

    /** Raised the version when the conversation changes incompatibly. */
    int VERSION = 1;

    /** The largest frame either side accepts. */
    int MAX_FRAME_BYTES = 16 * 1024 * 1024;

    /** The new process introduces itself. */
    record Hello(int version) implements HandoverMessage {
    }

    /**
     * The old process says what it can hand over, its restart epoch and when epoch 0 started.
     */
    record Info(long epoch, long firstEpochStartedMillis, List<ListenerSocket> listeners, AdminSocket admin,
            List<CounterValue> counters) implements HandoverMessage {
    }

    /** A listener of the old process as configured; the new process takes it when its own is configured the same. */
    record ListenerSocket(String name, String address, int port) {
    }

    /** The old process's admin socket as configured; null in {@link Info} when it cannot be handed over. */
    record AdminSocket(String address, int port) {
    }

    /** The old process cannot hand over now (another hot restart is under way, or a version it does not speak). */
    record Refused(String reason) implements HandoverMessage {
    }

    record TakeListener(String name) implements HandoverMessage {
    }

    record TakeAdmin() implements HandoverMessage {
    }

    /** The new process serves on every socket it took: the old one stops accepting and drains. */
    record Serving() implements HandoverMessage {
    }

    /** The new process waits for the next connection that moves, or for the end. */
    record Next() implements HandoverMessage {
    }

    /** Idle connections ready to move, as many as were ready, in the order their descriptors follow. */
    record Moving(List<MovingConnection> connections) implements HandoverMessage {
    }

    /**
     * A connection ready to move.
     *
     * @param protocol the protocol it speaks, empty while it was not yet known
     */
    record MovingConnection(long id, String listener, String protocol, boolean firstFrameSeen) {
    }

    /** Asks for the descriptors of the connections of the last {@link Moving}. */
    record TakeConnections() implements HandoverMessage {
    }

    /**
     * The new process took the connections' descriptors (and serves each, unless it had closed on
     * the way): the old one may close its own.
     */
    record Adopted(List<AdoptedConnection> connections) implements HandoverMessage {
    }

    record AdoptedConnection(long id, boolean served) {
    }

    /** The old process has nothing left: what its counters grew by since {@link Info}. */
    record Done(List<CounterValue> increments) implements HandoverMessage {
    }

    /** Encodes {@code message} into a new buffer the caller owns, without the length frame. */
    static ByteBuf encode(ByteBufAllocator alloc, HandoverMessage message) {
        ByteBuf out = alloc.buffer();
        if (message instanceof Hello m) {
            out.writeByte(1).writeInt(m.version());
        } else if (message instanceof Info m) {
            out.writeByte(2).writeLong(m.epoch()).writeLong(m.firstEpochStartedMillis()).writeInt(m.listeners().size());
            for (ListenerSocket l : m.listeners()) {
                string(out, l.name());
                string(out, l.address());
                out.writeInt(l.port());
            }
            out.writeBoolean(m.admin() != null);
            if (m.admin() != null) {
                string(out, m.admin().address());
                out.writeInt(m.admin().port());
            }
            counters(out, m.counters());
        } else if (message instanceof Refused m) {
            string(out.writeByte(3), m.reason());
        } else if (message instanceof TakeListener m) {
            string(out.writeByte(4), m.name());
        } else if (message instanceof TakeAdmin) {
            out.writeByte(5);
        } else if (message instanceof Serving) {
            out.writeByte(6);
        } else if (message instanceof Next) {
            out.writeByte(7);
        } else if (message instanceof Moving m) {
            out.writeByte(8).writeInt(m.connections().size());
            for (MovingConnection c : m.connections()) {
                out.writeLong(c.id());
                string(out, c.listener());
                string(out, c.protocol());
                out.writeBoolean(c.firstFrameSeen());
            }
        } else if (message instanceof TakeConnections) {
            out.writeByte(9);
        } else if (message instanceof Adopted m) {
            out.writeByte(10).writeInt(m.connections().size());
            for (AdoptedConnection c : m.connections()) {
                out.writeLong(c.id()).writeBoolean(c.served());
            }
        } else if (message instanceof Done m) {
            counters(out.writeByte(11), m.increments());
        }
        return out;
    }

    /** Decodes one whole frame; the caller still owns {@code in}. */
    static HandoverMessage decode(ByteBuf in) {
        int type = in.readByte();
        return switch (type) {
            case 1 -> new Hello(in.readInt());
            case 2 -> info(in);
            case 3 -> new Refused(string(in));
            case 4 -> new TakeListener(string(in));
            case 5 -> new TakeAdmin();
            case 6 -> new Serving();
            case 7 -> new Next();
            case 8 -> moving(in);
            case 9 -> new TakeConnections();
            case 10 -> adopted(in);
            case 11 -> new Done(counters(in));
            default -> throw new IllegalArgumentException("hot restart message type " + type + " (expected 1 to 11)");
        };
    }

    private static Info info(ByteBuf in) {
        long epoch = in.readLong();
        long firstEpochStarted = in.readLong();
        int n = count(in);
        List<ListenerSocket> listeners = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            listeners.add(new ListenerSocket(string(in), string(in), in.readInt()));
        }
        AdminSocket admin = in.readBoolean() ? new AdminSocket(string(in), in.readInt()) : null;
        return new Info(epoch, firstEpochStarted, listeners, admin, counters(in));
    }

    private static Moving moving(ByteBuf in) {
        int n = count(in);
        List<MovingConnection> connections = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            connections.add(new MovingConnection(in.readLong(), string(in), string(in), in.readBoolean()));
        }
        return new Moving(connections);
    }

    private static Adopted adopted(ByteBuf in) {
        int n = count(in);
        List<AdoptedConnection> connections = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            connections.add(new AdoptedConnection(in.readLong(), in.readBoolean()));
        }
        return new Adopted(connections);
    }

    /** A count of list elements, each at least one byte long. */
    private static int count(ByteBuf in) {
        int n = in.readInt();
        if (n < 0 || n > in.readableBytes()) {
            throw new IllegalArgumentException("hot restart list of " + n + " elements (expected 0 to " + in.readableBytes() + ")");
        }
        return n;
    }

    private static void counters(ByteBuf out, List<CounterValue> counters) {
        out.writeInt(counters.size());
        for (CounterValue c : counters) {
            string(out, c.name());
            out.writeInt(c.tags().size());
            for (String tag : c.tags()) {
                string(out, tag);
            }
            string(out, c.description());
            string(out, c.baseUnit());
            out.writeDouble(c.count());
        }
    }

    private static List<CounterValue> counters(ByteBuf in) {
        int n = count(in);
        List<CounterValue> counters = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            String name = string(in);
            int tagCount = count(in);
            List<String> tags = new ArrayList<>(tagCount);
            for (int t = 0; t < tagCount; t++) {
                tags.add(string(in));
            }
            counters.add(new CounterValue(name, tags, string(in), string(in), in.readDouble()));
        }
        return counters;
    }

    private static ByteBuf string(ByteBuf out, String value) {
        byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
        return out.writeInt(bytes.length).writeBytes(bytes);
    }

    private static String string(ByteBuf in) {
        int length = in.readInt();
        if (length < 0 || length > in.readableBytes()) {
            throw new IllegalArgumentException("hot restart string of " + length + " bytes (expected 0 to " + in.readableBytes() + ")");
        }
        String value = in.toString(in.readerIndex(), length, StandardCharsets.UTF_8);
        in.skipBytes(length);
        return value;
    }
}
