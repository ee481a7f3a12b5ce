package io.tollgate.server.cli;

import io.tollgate.server.Gateway;
import io.tollgate.server.drain.DrainTrigger;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * SIGTERM (and SIGINT, Ctrl-C) stop the gateway gracefully: the first drains it (requests in
 * flight finish, up to {@code drain.timeout}) and the process exits as soon as nothing is left in
 * flight; a second ends the drain at once. Handled with {@code sun.misc.Signal}, because the JVM's
 * own handling runs the shutdown hooks and ignores any further signal, so a stuck drain could not
 * be cut short.
 */
final class TerminationSignals {

    private static final Logger log = LoggerFactory.getLogger(TerminationSignals.class);

    private TerminationSignals() {
    }

    /** From now on, SIGTERM and SIGINT drain and close {@code gateway}; a second one ends the drain at once. */
    static void install(Gateway gateway) {
        AtomicInteger received = new AtomicInteger();
        SignalHandler handler = signal -> {
            if (received.getAndIncrement() == 0) {
                log.info("SIG{} received: draining, then exiting (send it again to end the drain at once)",
                        signal.getName());
                gateway.drainAndClose(DrainTrigger.SIGTERM);
                return;
            }
            log.info("SIG{} received again: ending the drain at once", signal.getName());
            gateway.endDrain();
        };
        Signal.handle(new Signal("TERM"), handler);
        Signal.handle(new Signal("INT"), handler);
    }
}
