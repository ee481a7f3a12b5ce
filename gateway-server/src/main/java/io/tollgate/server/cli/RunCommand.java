package io.tollgate.server.cli;

import io.tollgate.core.config.ConfigException;
import io.tollgate.core.config.ConfigLoader;
import io.tollgate.core.extension.ExtensionRegistryException;
import io.tollgate.core.config.GatewayConfig;
import io.tollgate.server.Gateway;
import io.tollgate.server.Launch;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * Runs the gateway in the foreground until the process is told to stop; with {@code -c FILE},
 * SIGHUP (or the admin API's {@code POST /config/reload}) applies the file again. SIGTERM (or the
 * admin API's {@code POST /quitquitquit}) drains it, then the process exits; a second SIGTERM ends
 * the drain at once.
 */
@Command(name = "run", mixinStandardHelpOptions = true,
        description = {"Run the gateway from the -c file (SIGHUP reloads it, SIGTERM drains it and exits), or on the"
            + " built-in configuration:",
            "HTTP/1.1 and h2c on 127.0.0.1:8080 to a demo upstream on 8081, SOFA Bolt on 12200 to 12201,",
            "Dubbo on 20880 to 20881, admin API on 9901."})
final class RunCommand implements Callable<Integer> {

    @Option(names = {"-c", "--config"}, description = "YAML configuration file")
    private Path config;

    @Spec
    private CommandSpec spec;

    @Override
    public Integer call() throws InterruptedException, ExecutionException {
        GatewayConfig gatewayConfig;
        try {
            gatewayConfig = config == null ? ConfigLoader.defaults() : ConfigLoader.load(config);
        } catch (ConfigException e) {
            spec.commandLine().getErr().println("invalid configuration: " + e.getMessage());
            return 2;
        } catch (ExtensionRegistryException e) {
            spec.commandLine().getErr().println("cannot load the gateway's extensions: " + e.getMessage());
            return 2;
        }
        Gateway gateway = Gateway.start(gatewayConfig,
                Launch.fresh(config, spec.commandLine().getParseResult().originalArgs()));
        if (config != null) {
            HangupReload.install(gateway);
        }
        TerminationSignals.install(gateway);
        // Any other way out of the JVM still closes the gateway (after a drain under way, if any).
        Runtime.getRuntime().addShutdownHook(new Thread(gateway::close, "tollgate-shutdown"));
        gateway.terminated().get();
        return 0;
    }
}
