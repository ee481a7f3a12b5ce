package io.tollgate.server.rpc;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.dubbo.rpc.RpcContext;

/**
 * The provider side of {@link DubboEchoService}, named so that {@link #tagged} tells providers
 * apart, and counting the calls that reached it so a test can wait until calls are in flight.
 */
public final class DubboEchoServiceImpl implements DubboEchoService {

    private final String name;
    private final AtomicInteger calls = new AtomicInteger();

    public DubboEchoServiceImpl(String name) {
        this.name = name;
    }

    /** The name {@link #tagged} puts before the message. */
    public String name() {
        return name;
    }

    /** How many calls, of any method, reached this provider so far. */
    public int calls() {
        return calls.get();
    }

    @Override
    public String echo(String message) {
        calls.incrementAndGet();
        return message;
    }

    @Override
    public String tagged(String message) {
        calls.incrementAndGet();
        return name + ":" + message;
    }

    @Override
    public String attachment(String name) {
        calls.incrementAndGet();
        return RpcContext.getServerAttachment().getAttachment(name);
    }

    @Override
    public byte[] echoBytes(byte[] payload) {
        calls.incrementAndGet();
        return payload;
    }

    @Override
    public String fail(String message) {
        calls.incrementAndGet();
        throw new IllegalStateException(message);
    }

    @Override
    public String slow(String message, long millis) {
        calls.incrementAndGet();
        try {
            TimeUnit.MILLISECONDS.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return message;
    }

    @Override
    public CompletableFuture<String> echoAsync(String message) {
        calls.incrementAndGet();
        return CompletableFuture.supplyAsync(() -> message);
    }
}
