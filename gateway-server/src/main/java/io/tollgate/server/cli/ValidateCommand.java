package io.tollgate.server.cli;

import io.tollgate.core.config.ConfigException;
import io.tollgate.core.config.read.ConfigLoader;
import io.tollgate.core.extension.ExtensionRegistryException;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** Checks a configuration file without starting anything; exits 1 with the reason when it is bad. */
@Command(name = "validate", mixinStandardHelpOptions = true, description = "Validate a configuration file and exit.")
final class ValidateCommand implements Callable<Integer> {

    @Option(names = {"-c", "--config"}, required = true, description = "YAML configuration file")
    private Path config;

    @Spec
    private CommandSpec spec;

    @Override
    public Integer call() {
        try {
            ConfigLoader.load(config);
        } catch (ConfigException e) {
            spec.commandLine().getErr().println(e.getMessage());
            return 1;
        } catch (ExtensionRegistryException e) {
            spec.commandLine().getErr().println("cannot load the gateway's extensions: " + e.getMessage());
            return 1;
        }
        spec.commandLine().getOut().println(config + ": valid");
        return 0;
    }
}
