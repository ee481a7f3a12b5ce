package io.tollgate.server.rpc;

import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/** The provider side of {@link EchoService}. */
public class EchoServiceImpl implements EchoService {

    final BlockingQueue<String> recorded = new LinkedBlockingQueue<>();
    final CountDownLatch releaseSlow = new CountDownLatch(1);

    @Override
    public String echo(String message) {
        return message;
    }

    @Override
    public String fail(String message) {
        throw new IllegalStateException(message);
    }

    @Override
    public String slow(String message) {
        try {
            releaseSlow.await(3, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return message;
    }

    @Override
    public void record(String message) {
        recorded.add(message);
    }
}
