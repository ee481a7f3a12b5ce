package io.tollgate.server.rpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tollgate.server.testing.Await;
import io.tollgate.server.testing.StartedResources;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.apache.dubbo.rpc.RpcException;
import org.apache.dubbo.rpc.model.FrameworkModel;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The Dubbo harness itself, with no gateway: real consumers call real providers directly, several
 * of each in one JVM, so that the gateway's Dubbo tests can trust what the harness reports.
 */
class DubboHarnessTest {

    private static final StartedResources started = new StartedResources();
    private static List<FrameworkModel> modelsBefore;
    private static DubboProvider provider;
    private static DubboConsumer consumer;

    @BeforeAll
    static void start() {
        modelsBefore = FrameworkModel.getAllInstances();
        provider = started.add(DubboProvider.named("main").start());
        consumer = started.add(DubboConsumer.to(provider.port()).connect());
    }

    @AfterAll
    static void stop() {
        started.close();
        assertThat(FrameworkModel.getAllInstances()).as("Dubbo models left running").isEqualTo(modelsBefore);
    }

    @Test
    void syncEchoIsExact() {
        assertThat(consumer.service().echo("hello")).isEqualTo("hello");
        assertThat(consumer.service().tagged("hello")).isEqualTo("main:hello");
    }

    @Test
    void kilobyteAndMegabyteBytesComeBackWhole() {
        byte[] kilobyte = randomBytes(1024);
        byte[] megabyte = randomBytes(1024 * 1024);
        assertThat(consumer.service().echoBytes(kilobyte)).isEqualTo(kilobyte);
        assertThat(consumer.service().echoBytes(megabyte)).isEqualTo(megabyte);
    }

    @Test
    void providerExceptionReachesTheConsumerWithItsMessage() {
        assertThatThrownBy(() -> consumer.service().fail("broken on purpose"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("broken on purpose");
    }

    @Test
    void slowAnswerTimesOutAtTheConsumersTimeout() {
        try (DubboConsumer impatient = DubboConsumer.to(provider.port()).timeout(Duration.ofMillis(300)).connect()) {
            long start = System.nanoTime();
            assertThatThrownBy(() -> impatient.service().slow("too slow", 3_000))
                    .isInstanceOfSatisfying(RpcException.class, e -> assertThat(e.isTimeout()).isTrue());
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofMillis(2_000));
        }
    }

    @Test
    void asyncCallsComplete() throws Exception {
        assertThat(consumer.service().echoAsync("later").get(5, TimeUnit.SECONDS)).isEqualTo("later");
        try (DubboConsumer async = DubboConsumer.to(provider.port()).async().connect()) {
            List<CompletableFuture<String>> answers = IntStream.range(0, 100)
                    .mapToObj(i -> async.async(s -> s.echo("message-" + i))).toList();
            for (int i = 0; i < answers.size(); i++) {
                assertThat(answers.get(i).get(5, TimeUnit.SECONDS)).isEqualTo("message-" + i);
            }
            assertThat(async.service().echoAsync("async too").get(5, TimeUnit.SECONDS)).isEqualTo("async too");
        }
    }

    @Test
    void providersOfDifferentGroupsAndVersionsAnswerTheirOwnConsumers() {
        try (DubboProvider blue = DubboProvider.named("blue").group("blue").version("1.0").start();
                DubboProvider green = DubboProvider.named("green").group("green").version("2.0").start();
                DubboConsumer toBlue = DubboConsumer.to(blue.port()).group("blue").version("1.0").connect();
                DubboConsumer toGreen = DubboConsumer.to(green.port()).group("green").version("2.0").connect()) {
            assertThat(toBlue.service().tagged("hi")).isEqualTo("blue:hi");
            assertThat(toGreen.service().tagged("hi")).isEqualTo("green:hi");
            try (DubboConsumer wrongGroup = DubboConsumer.to(blue.port()).group("green").version("2.0").connect()) {
                assertThatThrownBy(() -> wrongGroup.service().echo("anyone?"))
                        .isInstanceOf(RpcException.class)
                        .hasMessageContaining("Fail to decode request");
            }
            assertThat(blue.service().calls()).isEqualTo(1);
        }
    }

    @Test
    void providerStartsOnAGivenPort() {
        int port;
        try (DubboProvider first = DubboProvider.named("first").start()) {
            port = first.port();
        }
        try (DubboProvider again = DubboProvider.named("again").port(port).start();
                DubboConsumer client = DubboConsumer.to(port).connect()) {
            assertThat(again.port()).isEqualTo(port);
            assertThat(client.service().tagged("same port")).isEqualTo("again:same port");
        }
    }

    /** What the consumer reports: a dubbo connection dropped, a Triple stream cancelled. */
    @ParameterizedTest
    @CsvSource({"dubbo, is inactive", "tri, CANCELLED"})
    void killedProviderFailsTheCallsInFlightAtOnce(String protocol, String failure) throws Exception {
        try (DubboProvider doomed = DubboProvider.named("doomed").protocol(protocol).start();
                DubboConsumer client = DubboConsumer.to(doomed.port()).protocol(protocol)
                        .timeout(Duration.ofSeconds(20)).async().connect()) {
            List<CompletableFuture<String>> inFlight = IntStream.range(0, 3)
                    .mapToObj(i -> client.async(s -> s.slow("held-" + i, 10_000))).toList();
            Await.until("3 calls at the provider", Duration.ofSeconds(5), () -> doomed.service().calls() == 3);
            long start = System.nanoTime();
            doomed.kill();
            for (CompletableFuture<String> call : inFlight) {
                assertThatThrownBy(() -> call.get(5, TimeUnit.SECONDS))
                        .isInstanceOf(ExecutionException.class)
                        .hasMessageContaining(failure);
            }
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(3));
        }
    }

    @Test
    void tripleConsumerCallsTripleProvider() {
        try (DubboProvider tri = DubboProvider.named("tri").protocol("tri").start();
                DubboConsumer client = DubboConsumer.to(tri.port()).protocol("tri").connect()) {
            assertThat(client.service().echo("hello")).isEqualTo("hello");
            assertThat(client.service().tagged("hello")).isEqualTo("tri:hello");
            assertThatThrownBy(() -> client.service().fail("broken on purpose"))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessage("broken on purpose");
        }
    }

    @Test
    void closingATripleConsumerLeavesTheTripleProvidersServing() {
        try (DubboProvider tri = DubboProvider.named("tri").protocol("tri").start()) {
            try (DubboConsumer first = DubboConsumer.to(tri.port()).protocol("tri").connect()) {
                assertThat(first.service().echo("first")).isEqualTo("first");
            }
            try (DubboConsumer second = DubboConsumer.to(tri.port()).protocol("tri").connect()) {
                assertThat(second.service().echo("second")).isEqualTo("second");
            }
        }
    }

    private static byte[] randomBytes(int length) {
        byte[] bytes = new byte[length];
        ThreadLocalRandom.current().nextBytes(bytes);
        return bytes;
    }
}
