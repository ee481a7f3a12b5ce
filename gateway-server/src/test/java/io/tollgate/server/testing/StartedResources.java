package io.tollgate.server.testing;

import static java.util.Objects.requireNonNull;

import java.util.ArrayDeque;
import java.util.Deque;

/**
 * What a test class starts for all its tests (upstreams, a gateway, clients), closed by one call in
 * its {@code @AfterAll}, last started first. Every close runs even when an earlier one fails, and a
 * {@code @BeforeAll} that failed half way leaves exactly what did start to close.
 *
 * <pre>{@code
 * private static final StartedResources started = new StartedResources();
 *
 * @BeforeAll
 * static void start() throws Exception {
 *     provider = started.add(DubboProvider.named("main").start());
 *     gateway = started.add(TestGateway.start(CONFIG, Map.of("MAIN", provider.port())));
 * }
 *
 * @AfterAll
 * static void stop() {
 *     started.close();
 * }
 * }</pre>
 */
public final class StartedResources implements AutoCloseable {

    private final Deque<AutoCloseable> started = new ArrayDeque<>();

    /** Keeps {@code resource} to be closed before everything added earlier, and returns it. */
    public <T extends AutoCloseable> T add(T resource) {
        started.push(requireNonNull(resource, "resource"));
        return resource;
    }

    /**
     * Closes everything added, last first, and forgets it; then throws the first failure, with the
     * later ones suppressed, a checked one wrapped in an {@link IllegalStateException}.
     */
    @Override
    public void close() {
        RuntimeException failure = null;
        for (AutoCloseable resource; (resource = started.poll()) != null; ) {
            try {
                resource.close();
            } catch (Exception e) {
                if (e instanceof InterruptedException) {
                    Thread.currentThread().interrupt();
                }
                RuntimeException unchecked = e instanceof RuntimeException r ? r
                        : new IllegalStateException("closing " + resource + " failed", e);
                if (failure == null) {
                    failure = unchecked;
                } else {
                    failure.addSuppressed(unchecked);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }
}
