package io.tollgate.server.cli;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where the build put what it ships: the runnable jar ({@code package} phase) and the launcher
 * committed beside the modules. Integration tests over them run in {@code verify}; run alone
 * before packaging, they are skipped, saying why.
 */
final class PackagedGateway {

    private PackagedGateway() {
    }

    private static Path moduleDir() {
        return Path.of(System.getProperty("basedir", ".")).toAbsolutePath().normalize();
    }

    /** {@code gateway-server/target/tollgate.jar}; the test is skipped when it has not been built. */
    static Path jar() {
        Path jar = moduleDir().resolve("target").resolve("tollgate.jar");
        assumeTrue(Files.isRegularFile(jar), jar + " is not built (it is made in the package phase: ./mvnw -B verify)");
        return jar;
    }

    /** The production launcher, {@code bin/tollgate} at the repository's root. */
    static Path launcher() {
        return moduleDir().getParent().resolve("bin").resolve("tollgate");
    }
}
