package io.tollgate.server.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The test gateway as a JUnit 5 extension: it starts a gateway from YAML (and whatever upstreams
 * and clients the test adds beside it) and stops all of it, last started first, when the scope
 * it was started in ends, then checks that the gateway let go of everything.
 *
 * <p>What is started from a {@code @BeforeAll} method lives for the class and stops after it;
 * what is started from a test or a {@code @BeforeEach} method stops after that test. On
 * stopping, every event loop of the gateway must have terminated within 5 s (a loop still
 * running is a task or a channel the gateway forgot). Buffer leaks are found by the suite's
 * {@code LeakDetectionExtension} (paranoid leak detection), whose check runs after this
 * extension stopped the class's gateway, so that a buffer the gateway drops while stopping
 * fails the class that started it.
 *
 * <pre>{@code
 * @RegisterExtension
 * static final GatewayExtension gateway = new GatewayExtension();
 *
 * @BeforeAll
 * static void start() throws Exception {
 *     DubboProvider provider = gateway.add(DubboProvider.named("main").start());
 *     gateway.start(CONFIG, Map.of("MAIN", provider.port()));
 * }
 *
 * @Test
 * void answers() {
 *     ... gateway.port("dubbo") ...
 * }
 * }</pre>
 *
 * Register it on a static field; on an instance field it works per test only.
 */
public final class GatewayExtension implements BeforeEachCallback, AfterEachCallback, AfterAllCallback {

    private static final Duration LOOPS_TERMINATED = Duration.ofSeconds(5);

    private final StartedResources perClass = new StartedResources();
    private final StartedResources perTest = new StartedResources();
    private volatile boolean inTest;
    private volatile TestGateway classGateway;
    private volatile TestGateway testGateway;

    /** Keeps {@code resource} (an upstream, a client) to be closed with the scope it was added in; returns it. */
    public <T extends AutoCloseable> T add(T resource) {
        return (inTest ? perTest : perClass).add(resource);
    }

    /**
     * Starts a gateway on {@code yaml} with every {@code ${KEY}} replaced by its value (see
     * {@link TestGateway#start}); it becomes {@link #gateway()} and stops with its scope.
     */
    public TestGateway start(String yaml, Map<String, ?> values) throws InterruptedException {
        TestGateway started = TestGateway.start(yaml, values);
        add(() -> stop(started));
        if (inTest) {
            testGateway = started;
        } else {
            classGateway = started;
        }
        return started;
    }

    /** The gateway the running test started, else the one started for the class. */
    public TestGateway gateway() {
        TestGateway gateway = testGateway != null ? testGateway : classGateway;
        if (gateway == null) {
            throw new IllegalStateException("no gateway started: call start(yaml, values) first");
        }
        return gateway;
    }

    /** The port of {@link #gateway()}'s listener {@code listener}. */
    public int port(String listener) {
        return gateway().port(listener);
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        inTest = true;
    }

    @Override
    public void afterEach(ExtensionContext context) {
        inTest = false;
        testGateway = null;
        perTest.close();
    }

    @Override
    public void afterAll(ExtensionContext context) {
        classGateway = null;
        perClass.close();
    }

    /** Closes {@code started} and checks that its event loops ended. */
    private static void stop(TestGateway started) throws InterruptedException {
        started.close();
        assertThat(started.gateway().terminated()).as("gateway terminated").isDone();
        assertThat(started.gateway().eventLoops().awaitTermination(LOOPS_TERMINATED.toMillis(), TimeUnit.MILLISECONDS))
                .as("the gateway's event loops ended within %s", LOOPS_TERMINATED).isTrue();
    }
}
