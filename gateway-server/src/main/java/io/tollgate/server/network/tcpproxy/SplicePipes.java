package io.tollgate.server.network.tcpproxy;

import io.netty.channel.unix.FileDescriptor;
import io.netty.util.concurrent.FastThreadLocal;
import java.io.IOException;
import java.util.ArrayDeque;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The empty pipes of one event loop's thread, lent to its splicing connections only while bytes
 * sit in them (HAProxy's pipe pool): a spliced connection holds a pipe per direction only while
 * the other side is slower, so pipes (descriptors and the per-user pipe memory Linux caps) follow
 * the bytes in flight, not the connections. At most {@link #KEEP} idle pipes are kept; the rest
 * close, and those kept close when the thread ends.
 */
final class SplicePipes {

    private static final Logger log = LoggerFactory.getLogger(SplicePipes.class);
    /** Idle pipes kept per event loop. */
    static final int KEEP = 16;

    private static final FastThreadLocal<ArrayDeque<FileDescriptor[]>> IDLE = new FastThreadLocal<>() {
        @Override
        protected ArrayDeque<FileDescriptor[]> initialValue() {
            return new ArrayDeque<>();
        }

        @Override
        protected void onRemoval(ArrayDeque<FileDescriptor[]> idle) {
            FileDescriptor[] pipe;
            while ((pipe = idle.poll()) != null) {
                close(pipe);
            }
        }
    };

    private SplicePipes() {
    }

    /** An empty pipe, {read end, write end}, for the calling event loop's thread; given back with {@link #giveBack}. */
    static FileDescriptor[] take() throws IOException {
        FileDescriptor[] pipe = IDLE.get().poll();
        return pipe != null ? pipe : FileDescriptor.pipe();
    }

    /** Takes back a pipe from {@link #take}, which MUST be empty, on the same thread. */
    static void giveBack(FileDescriptor[] pipe) {
        ArrayDeque<FileDescriptor[]> idle = IDLE.get();
        if (idle.size() < KEEP) {
            idle.push(pipe);
        } else {
            close(pipe);
        }
    }

    /** Closes a pipe that may hold bytes, or whose thread is ending. */
    static void close(FileDescriptor[] pipe) {
        for (FileDescriptor end : pipe) {
            try {
                end.close();
            } catch (IOException e) {
                log.debug("closing pipe {}: {}", end, e.toString());
            }
        }
    }
}
