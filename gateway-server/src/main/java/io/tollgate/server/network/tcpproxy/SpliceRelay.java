package io.tollgate.server.network.tcpproxy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.IoEvent;
import io.netty.channel.IoEventLoop;
import io.netty.channel.IoRegistration;
import io.netty.channel.epoll.EpollIoEvent;
import io.netty.channel.epoll.EpollIoHandle;
import io.netty.channel.epoll.EpollIoOps;
import io.netty.channel.epoll.Native;
import io.netty.channel.unix.FileDescriptor;
import io.netty.channel.unix.UnixChannel;
import io.netty.util.concurrent.Future;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Moves one TCP proxy connection's bytes between its two sockets with Linux {@code splice(2)},
 * through one pipe per direction, so that they never enter the JVM. Netty's own
 * {@code spliceTo} is not used: it reports no count of the bytes it moved, switches the source's
 * {@code autoRead} itself, and once a peer's FIN is seen shuts the socket's input after a single
 * splice batch (Netty 4.2.18).
 *
 * <p>While it runs, the relay owns both descriptors: the session deregisters its two channels from
 * their event loop, and the relay registers its own handles for the same descriptors on that loop
 * (Netty 4.2's public {@link IoEventLoop#register(io.netty.channel.IoHandle)}), level-triggered
 * like Netty's epoll channels. Per direction it reads a socket only while that direction's pipe is
 * empty: one splice fills a pipe (at most {@link #PIPE_BYTES}), a second empties it into the
 * other socket; when that socket cannot take it all, the rest waits in the pipe for
 * {@code EPOLLOUT} and the source is not read meanwhile, so a slow reader throttles the sender
 * through TCP's own window, with at most one pipe of bytes held per direction, none on the heap.
 * Pipes come from the loop's {@link SplicePipes} and go back as soon as they are empty.
 *
 * <p>A relay may start after one side's input ended and its FIN was passed on (a client that sent
 * its request and half-closed, then reads a bulk answer): it then moves the other direction only,
 * and never reads the side that ended.
 *
 * <p>Anything else is left to the session's buffer path: at the end of either side's input, on an
 * error or a hang-up, and before any close, the relay {@link #handBack hands back}: it cancels its
 * registrations, reads what the pipes still hold into buffers for the session to write, gives the
 * pipes back, and the session registers its channels again, so half-close, errors and closing run
 * their usual, tested course. All of it runs on the connection's event loop.
 */
final class SpliceRelay {

    private static final Logger log = LoggerFactory.getLogger(SpliceRelay.class);
    /** Bytes asked of one splice into a pipe: a Linux pipe's default capacity (16 pages). */
    static final int PIPE_BYTES = 64 * 1024;
    /** Pipe loads moved per readiness event before the loop serves other connections (epoll re-reports the rest). */
    private static final int ROUNDS = 16;
    /** Linux's {@code EPOLLHUP}, which Netty's {@link Native} does not name; reported whatever the interest. */
    private static final int EPOLLHUP = 0x10;

    private final TcpProxySession session;
    private final Channel downstream;
    private final Channel upstream;
    private final Direction toUpstream;
    private final Direction toDownstream;
    private final Side client;
    private final Side host;
    private boolean active;

    /**
     * A relay for the two channels, which MUST be native epoll socket channels on the same event
     * loop, moving the directions whose source's input has not ended ({@code clientEnded},
     * {@code hostEnded}: at most one of them).
     */
    SpliceRelay(TcpProxySession session, Channel downstream, Channel upstream, boolean clientEnded, boolean hostEnded) {
        this.session = session;
        this.downstream = downstream;
        this.upstream = upstream;
        FileDescriptor clientSocket = ((UnixChannel) downstream).fd();
        FileDescriptor hostSocket = ((UnixChannel) upstream).fd();
        this.toUpstream = new Direction(true, clientSocket, hostSocket, !clientEnded);
        this.toDownstream = new Direction(false, hostSocket, clientSocket, !hostEnded);
        this.client = new Side(clientSocket, toUpstream, toDownstream);
        this.host = new Side(hostSocket, toDownstream, toUpstream);
    }

    /**
     * Starts relaying, on the channels' event loop, once both channels are deregistered from it;
     * false when the loop refused a registration.
     */
    boolean start() {
        IoEventLoop loop = (IoEventLoop) downstream.eventLoop();
        try {
            client.registration = register(loop, client);
            host.registration = register(loop, host);
            client.submitInterest();
            host.submitInterest();
        } catch (Exception e) {
            log.warn("cannot splice a tcp proxy connection: {}", e.toString());
            for (Side side : new Side[] {client, host}) {
                if (side.registration != null) {
                    side.registration.cancel();
                }
            }
            return false;
        }
        active = true;
        return true;
    }

    /**
     * Stops relaying, once: cancels the relay's registrations, reads what the pipes still hold into
     * buffers, gives the pipes back and passes the buffers to the session, which takes the channels back.
     */
    void handBack() {
        handBack(false);
    }

    /** {@link #handBack()}, telling the session whether the relay stopped only because an input ended. */
    private void handBack(boolean inputEnded) {
        if (!active) {
            return;
        }
        active = false;
        client.registration.cancel();
        host.registration.cancel();
        ByteBuf leftForUpstream = null;
        ByteBuf leftForDownstream = null;
        boolean intact = true;
        try {
            leftForUpstream = toUpstream.contents(downstream.alloc());
            leftForDownstream = toDownstream.contents(downstream.alloc());
        } catch (IOException e) {
            log.warn("tcp proxy connection {}: cannot read back a splice pipe, closing it: {}", downstream, e.toString());
            intact = false;
            if (leftForUpstream != null) {
                leftForUpstream.release();
                leftForUpstream = null;
            }
        } finally {
            toUpstream.releasePipe();
            toDownstream.releasePipe();
        }
        session.handedBack(leftForUpstream, leftForDownstream, intact, inputEnded);
    }

    private void ready(Side side, int ops) {
        if (!active) {
            return;
        }
        try {
            if ((ops & (Native.EPOLLERR | EPOLLHUP)) != 0) {
                handBack();
                return;
            }
            if ((ops & Native.EPOLLOUT) != 0) {
                side.writes.drain();
            }
            if ((ops & (Native.EPOLLIN | Native.EPOLLRDHUP)) != 0 && side.reads.open
                    && !pump(side.reads, (ops & Native.EPOLLRDHUP) != 0)) {
                handBack(true);
                return;
            }
            client.submitInterest();
            host.submitInterest();
        } catch (IOException | UncheckedIOException e) {
            // the session's buffer path meets the same error on its own read or write, and closes as usual
            log.debug("tcp proxy connection {}: splice failed: {}", downstream, e.toString());
            handBack();
        }
    }

    /**
     * Moves what {@code direction}'s source holds, a pipe load at a time, while its pipe empties.
     *
     * @param peerFinished whether the event said the source's peer sent its FIN
     * @return false at the end of the source's input
     */
    private boolean pump(Direction direction, boolean peerFinished) throws IOException {
        long moved = 0;
        try {
            for (int round = 0; round < ROUNDS && direction.inPipe == 0; round++) {
                // the pipe is empty, so nothing read means no data (EAGAIN) or, after a FIN, the end
                int n = direction.fill();
                if (n == 0) {
                    return !peerFinished;
                }
                moved += n;
                direction.drain();
            }
            return true;
        } finally {
            if (moved > 0) {
                // counted as read, like the buffer path's bytes, even when a splice failed after
                session.spliced(direction.fromClient, moved);
            }
        }
    }

    /** The event loop is shutting down with this relay running: closes its pipes and both sockets. */
    private void loopClosing() {
        if (!active) {
            return;
        }
        active = false;
        toUpstream.closePipe();
        toDownstream.closePipe();
        downstream.unsafe().close(downstream.voidPromise());
        upstream.unsafe().close(upstream.voidPromise());
    }

    private static IoRegistration register(IoEventLoop loop, Side side) throws Exception {
        Future<IoRegistration> registered = loop.register(side);
        if (!registered.isDone()) {
            // on its own loop a registration completes at once; anything else is a bug of ours
            registered.cancel(false);
            throw new IllegalStateException("registration not done on the event loop");
        }
        if (!registered.isSuccess()) {
            throw new IOException("registration failed", registered.cause());
        }
        return registered.getNow();
    }

    /**
     * One direction: a source socket, a destination socket, and while bytes are in flight a pipe
     * from the loop's {@link SplicePipes} with the count of bytes waiting in it.
     */
    private static final class Direction {

        final boolean fromClient;
        final FileDescriptor from;
        final FileDescriptor to;
        /** False when the source's input ended before the relay started: this direction is not moved. */
        final boolean open;
        /** The pipe, {read end, write end}, or null while no byte is in flight. */
        private FileDescriptor[] pipe;
        int inPipe;

        Direction(boolean fromClient, FileDescriptor from, FileDescriptor to, boolean open) {
            this.fromClient = fromClient;
            this.from = from;
            this.to = to;
            this.open = open;
        }

        /** Splices what the source has (at most {@link #PIPE_BYTES}) into an empty pipe; the bytes moved. */
        int fill() throws IOException {
            if (pipe == null) {
                pipe = SplicePipes.take();
            }
            inPipe = Native.splice(from.intValue(), -1, pipe[1].intValue(), -1, PIPE_BYTES);
            if (inPipe == 0) {
                releasePipe();
            }
            return inPipe;
        }

        /** Splices the pipe's bytes into the destination until it is empty (the pipe goes back) or the destination is full. */
        void drain() throws IOException {
            while (inPipe > 0) {
                int n = Native.splice(pipe[0].intValue(), -1, to.intValue(), -1, inPipe);
                if (n == 0) {
                    return;
                }
                inPipe -= n;
            }
            releasePipe();
        }

        /** The pipe's bytes in a new buffer, which the caller releases; null when there are none. */
        ByteBuf contents(ByteBufAllocator alloc) throws IOException {
            if (inPipe == 0) {
                return null;
            }
            ByteBuf buffer = alloc.directBuffer(inPipe);
            try {
                while (buffer.writerIndex() < inPipe) {
                    ByteBuffer target = buffer.internalNioBuffer(buffer.writerIndex(), inPipe - buffer.writerIndex());
                    int n = pipe[0].read(target, target.position(), target.limit());
                    if (n <= 0) {
                        throw new IOException("pipe gave " + buffer.writerIndex() + " of its " + inPipe + " bytes");
                    }
                    buffer.writerIndex(buffer.writerIndex() + n);
                }
            } catch (IOException | RuntimeException e) {
                buffer.release();
                throw e;
            }
            inPipe = 0;
            return buffer;
        }

        /** Gives the pipe back to the loop's pool when it is empty, else closes it with its bytes. */
        void releasePipe() {
            if (pipe == null) {
                return;
            }
            if (inPipe == 0) {
                SplicePipes.giveBack(pipe);
            } else {
                SplicePipes.close(pipe);
            }
            pipe = null;
        }

        /** Closes the pipe, on a loop that is shutting down. */
        void closePipe() {
            if (pipe != null) {
                SplicePipes.close(pipe);
                pipe = null;
            }
        }
    }

    /** One socket as the relay registers it: the direction it is read for and the one it is written by. */
    private final class Side implements EpollIoHandle {

        private final FileDescriptor socket;
        final Direction reads;
        final Direction writes;
        IoRegistration registration;
        private int interest;

        Side(FileDescriptor socket, Direction reads, Direction writes) {
            this.socket = socket;
            this.reads = reads;
            this.writes = writes;
        }

        /**
         * Asks epoll for input while the pipe it fills is empty (never after the input ended), for
         * output while the pipe it drains is not. Never for nothing: Netty 4.2.18 removes a descriptor whose interest
         * becomes empty from epoll and then cannot add it back, so {@code EPOLLERR} (reported
         * anyway) stands for "nothing".
         */
        void submitInterest() {
            int wanted = (reads.open && reads.inPipe == 0 ? Native.EPOLLIN | Native.EPOLLRDHUP : 0)
                    | (writes.inPipe > 0 ? Native.EPOLLOUT : 0);
            if (wanted == 0) {
                wanted = Native.EPOLLERR;
            }
            if (wanted != interest) {
                registration.submit(EpollIoOps.valueOf(wanted));
                interest = wanted;
            }
        }

        @Override
        public FileDescriptor fd() {
            return socket;
        }

        @Override
        public void handle(IoRegistration registration, IoEvent event) {
            ready(this, ((EpollIoEvent) event).ops().value());
        }

        @Override
        public void close() {
            loopClosing();
        }
    }
}
