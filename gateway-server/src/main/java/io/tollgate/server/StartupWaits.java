package io.tollgate.server;

import io.tollgate.core.config.GatewayConfig;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The bounded waits of a gateway's start, before any listener accepts: for the first DNS answers,
 * the first health verdicts and the first read of the service registries. Each waits at most its
 * bound, then lets the gateway start with what it knows, saying so; a failure stops the start.
 */
final class StartupWaits {

    /** Logs as the gateway, whose start these waits are part of. */
    private static final Logger log = LoggerFactory.getLogger(Gateway.class);

    private StartupWaits() {
    }

    /**
     * Waits for the first health verdict of every checked host (as Envoy's cluster warming does),
     * so that start-up does not meet every host still pending; at most twice the longest health
     * check timeout.
     */
    static void firstVerdicts(CompletableFuture<Void> firstVerdicts, GatewayConfig config) throws InterruptedException {
        long timeoutNanos = config.clusters().stream().flatMap(c -> c.healthCheck().stream())
                .mapToLong(h -> h.timeout().toNanos()).max().orElse(0);
        await(firstVerdicts, 2 * timeoutNanos + TimeUnit.SECONDS.toNanos(1),
                "every host had its first health check; those without one take no traffic yet", "first health checks");
    }

    /**
     * Waits until every registry was read whole once and its providers applied, as long as the
     * slowest registry's connection timeout at most (the rest arrives as it comes).
     */
    static void discovery(CompletableFuture<Void> firstSync, GatewayConfig config) throws InterruptedException {
        long timeoutNanos = config.discovery().registries().stream()
                .mapToLong(r -> r.connectionTimeout().toNanos()).max().orElse(0);
        await(firstSync, timeoutNanos,
                "every service registry was read; discovered clusters fill as registries answer", "service discovery");
    }

    /**
     * Waits at most {@code timeoutNanos} for {@code done}, then starts anyway, saying so: "starting
     * before {@code missing}"; a failure of {@code what} stops the start.
     */
    static void await(CompletableFuture<Void> done, long timeoutNanos, String missing, String what)
            throws InterruptedException {
        try {
            done.get(timeoutNanos, TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            log.warn("starting before {}", missing);
        } catch (ExecutionException e) {
            throw new IllegalStateException(what + " failed", e.getCause());
        }
    }
}
