package io.tollgate.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What {@code bin/tollgate} derives from {@code TOLLGATE_MEMORY} (docs/operations.md, "What it
 * derives, and why"), read from its dry run ({@code TOLLGATE_DRY_RUN=1}: it prints the flags and
 * starts nothing): the heap sized to what the gateway holds, direct memory within what the JVM's
 * own memory and the heap leave, and a budget too small for the JVM refused. {@link LauncherIT}
 * starts the built jar through the same flags.
 */
class LauncherFlagsTest {

    /** The JVM's own memory at its peak (class metadata, JIT code and compilers, libjvm), as the launcher counts it. */
    private static final int JVM_OWN_MIB = 96;

    private static final Pattern SIZES = Pattern.compile("-Xms(\\d+)m -Xmx(\\d+)m -XX:MaxDirectMemorySize=(\\d+)m"
            + " -XX:MaxMetaspaceSize=(\\d+)m");

    @TempDir
    Path dir;

    @Test
    void sizesTheHeapToWhatTheGatewayHoldsAndGivesBuffersTheRest() throws Exception {
        assertThat(flags("256m")).isEqualTo(new Sizes(32, 64, 64));
        assertThat(flags("160m")).as("the smallest budget").isEqualTo(new Sizes(32, 32, 64));
        assertThat(flags("512m")).isEqualTo(new Sizes(120, 128, 64));
        assertThat(flags("1g")).isEqualTo(new Sizes(312, 256, 128));
        assertThat(flags(Long.toString(300L << 20))).as("bytes").isEqualTo(new Sizes(40, 75, 64));
    }

    @Test
    void heapDirectMemoryAndTheJvmsOwnFitInEveryBudget() throws Exception {
        for (int mib = 160; mib <= 8192; mib = mib * 5 / 4) {
            Sizes sizes = flags(mib + "m");
            assertThat(JVM_OWN_MIB + sizes.heap() + sizes.direct()).as("%d MiB: %s", mib, sizes).isLessThanOrEqualTo(mib);
            assertThat(sizes.direct()).as("%d MiB: %s", mib, sizes).isGreaterThanOrEqualTo(32);
        }
    }

    @Test
    void refusesABudgetTheJvmAloneWouldFill() throws Exception {
        Run run = dryRun("128m");
        assertThat(run.exit).isEqualTo(1);
        assertThat(run.output).contains("128 MiB (TOLLGATE_MEMORY=128m) is too little: the gateway needs at least 160m");
        assertThat(dryRun("lots").output).contains("TOLLGATE_MEMORY='lots' is not a size");
    }

    private Sizes flags(String memory) throws IOException, InterruptedException {
        Run run = dryRun(memory);
        assertThat(run.exit).as(run.output).isZero();
        Matcher m = SIZES.matcher(run.output);
        assertThat(m.find()).as("sizes printed:\n%s", run.output).isTrue();
        assertThat(m.group(1)).as("a fixed heap").isEqualTo(m.group(2));
        Sizes sizes = new Sizes(Integer.parseInt(m.group(2)), Integer.parseInt(m.group(3)), Integer.parseInt(m.group(4)));
        assertThat(run.output).as("the summary line").contains("heap " + sizes.heap() + "m, direct memory " + sizes.direct() + "m");
        return sizes;
    }

    private Run dryRun(String memory) throws IOException, InterruptedException {
        Path jar = Files.write(dir.resolve("tollgate.jar"), new byte[0]);
        Path log = dir.resolve("launcher.log");
        ProcessBuilder builder = new ProcessBuilder("sh", PackagedGateway.launcher().toString(), "run", "-c", "gateway.yaml")
                .redirectErrorStream(true).redirectOutput(log.toFile());
        builder.environment().putAll(Map.of("TOLLGATE_DRY_RUN", "1", "TOLLGATE_MEMORY", memory, "TOLLGATE_CDS", "off",
                "TOLLGATE_JAR", jar.toString(), "JAVA_HOME", System.getProperty("java.home")));
        Process process = builder.start();
        assertThat(process.waitFor(30, TimeUnit.SECONDS)).as("launcher's dry run ends").isTrue();
        return new Run(process.exitValue(), Files.readString(log, StandardCharsets.UTF_8));
    }

    private record Sizes(int heap, int direct, int metaspace) {
    }

    private record Run(int exit, String output) {
    }
}
