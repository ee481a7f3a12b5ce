package io.tollgate.server.cli;

import io.tollgate.core.config.ConfigException;
import io.tollgate.core.config.ConfigLoader;
import io.tollgate.core.extension.ExtensionRegistryException;
import io.tollgate.core.config.GatewayConfig;
import io.tollgate.server.Gateway;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * Runs the gateway in the foreground until the process is told to stop; with {@code -c FILE},
 * SIGHUP (or the admin API's {@code POST /config/reload}) applies the file again.
 */
@Command(name = "run", mixinStandardHelpOptions = true,
        description = {"Run the gateway from the -c file (SIGHUP reloads it), or on the built-in configuration:",
            "HTTP/1.1 and h2c on 127.0.0.1:8080 to a demo upstream on 8081, SOFA Bolt on 12200 to 12201,",
            "Dubbo on 20880 to 20881, admin API on 9901."})
final class RunCommand implements Callable<Integer> {

    @Option(names = {"-c", "--config"}, description = "YAML configuration file")
    private Path config;

    @Spec
    private CommandSpec spec;

    @Override
    public Integer call() throws InterruptedException {
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
        Gateway gateway = Gateway.start(gatewayConfig, config);
        if (config != null) {
            HangupReload.install(gateway);
        }
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            gateway.close();
            stopped.countDown();
        }, "tollgate-shutdown"));
        stopped.await();
        return 0;
    }
}
