package io.tollgate.server.transport;

import io.netty.channel.IoEventLoop;
import io.netty.channel.IoEventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SingleThreadIoEventLoop;
import java.util.concurrent.Executor;
import java.util.concurrent.ThreadFactory;

/**
 * An event loop group whose loops close every connection still registered on them when they shut
 * down, whenever the shutdown begins. Netty 4.2.18's {@link SingleThreadIoEventLoop} closes them
 * ({@code IoHandler.prepareToDestroy()}) only in a loop turn that starts after the shutdown began:
 * a shutdown without quiet period that begins while the loop runs its tasks ends the loop without
 * it, and the connections (a TCP proxy's, spliced or not, HTTP, RPC) stay open with their
 * descriptors after the gateway stopped. Here each shutdown check closes what is registered first;
 * the events of those closes run in the check's own tasks.
 */
final class ClosingEventLoopGroup extends MultiThreadIoEventLoopGroup {

    ClosingEventLoopGroup(int threads, ThreadFactory threadFactory, IoHandlerFactory factory) {
        super(threads, threadFactory, factory);
    }

    @Override
    protected IoEventLoop newChild(Executor executor, IoHandlerFactory factory, Object... args) {
        return new ClosingEventLoop(this, executor, factory);
    }

    /** A loop that closes its registrations at every shutdown check. */
    private static final class ClosingEventLoop extends SingleThreadIoEventLoop {

        ClosingEventLoop(IoEventLoopGroup parent, Executor executor, IoHandlerFactory factory) {
            super(parent, executor, factory);
        }

        @Override
        protected boolean confirmShutdown() {
            if (isShuttingDown() && inEventLoop()) {
                ioHandler().prepareToDestroy();
            }
            return super.confirmShutdown();
        }
    }
}
