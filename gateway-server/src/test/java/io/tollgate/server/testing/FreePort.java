package io.tollgate.server.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A loopback port nothing listens on (it was free a moment ago): a server to start there, or an
 * upstream that is down.
 *
 * <p>Between the pick and the bind the port is free, so something else may take it. Under
 * Surefire's parallel forks ({@code tollgate.test.fork} set to the fork's number) each fork takes
 * its ports in turn from a range of its own below the kernel's ephemeral range (32768-60999 by
 * default): neither another fork's pick nor any client socket's ephemeral port can land there.
 * Each JVM starts at a random place in its range, so that two builds of the same tree side by side
 * rarely meet. Without a fork number (an IDE run) the kernel picks, as {@code bind(0)} does.
 */
public final class FreePort {

    private static final int FIRST = 10_000;
    private static final int PER_FORK = 4_000;
    private static final int FORK_RANGES = 5;
    private static final AtomicInteger NEXT = new AtomicInteger(ThreadLocalRandom.current().nextInt(PER_FORK));

    private FreePort() {
    }

    public static int pick() {
        String fork = System.getProperty("tollgate.test.fork", "");
        if (!fork.matches("[1-9][0-9]*")) {
            return bind(0);
        }
        int base = FIRST + (Integer.parseInt(fork) - 1) % FORK_RANGES * PER_FORK;
        for (int tries = 0; tries < PER_FORK; tries++) {
            int port = base + Math.floorMod(NEXT.getAndIncrement(), PER_FORK);
            try {
                return bind(port);
            } catch (UncheckedIOException inUse) {
                // taken by some other process: the next one
            }
        }
        throw new IllegalStateException("no free port in " + base + "-" + (base + PER_FORK - 1));
    }

    private static int bind(int port) {
        try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
