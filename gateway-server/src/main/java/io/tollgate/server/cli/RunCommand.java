package io.tollgate.server.cli;

import io.tollgate.core.config.ConfigException;
import io.tollgate.core.config.GatewayConfig;
import io.tollgate.core.config.read.ConfigLoader;
import io.tollgate.core.extension.ExtensionRegistryException;
import io.tollgate.server.Gateway;
import io.tollgate.server.Launch;
import io.tollgate.server.inheritance.Inheritance;
import io.tollgate.server.transport.Transport;
import io.tollgate.server.upgrade.HandoverServer;
import io.tollgate.server.upgrade.HotRestart;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * Runs the gateway in the foreground until the process is told to stop; with {@code -c FILE},
 * SIGHUP (or the admin API's {@code POST /config/reload}) applies the file again. SIGTERM (or the
 * admin API's {@code POST /quitquitquit}) drains it, then the process exits; a second SIGTERM ends
 * the drain at once. With {@code --upgrade} it takes over from the gateway running at
 * {@code upgrade.socket_path} (a hot restart); on epoll it waits there for its own successor, and
 * exits once it handed everything over.
 */
@Command(name = "run", mixinStandardHelpOptions = true,
        description = {"Run the gateway from the -c file (SIGHUP reloads it, SIGTERM drains it and exits), or on the"
            + " built-in configuration:",
            "HTTP/1.1 and h2c on 127.0.0.1:8080 to a demo upstream on 8081, SOFA Bolt on 12200 to 12201,",
            "Dubbo on 20880 to 20881, admin API on 9901."})
final class RunCommand implements Callable<Integer> {

    private static final Logger log = LoggerFactory.getLogger(RunCommand.class);

    /** How long the new process waits for the running one to hand its sockets over. */
    private static final Duration HANDOVER_TIMEOUT = Duration.ofSeconds(10);

    @Option(names = {"-c", "--config"}, description = "YAML configuration file")
    private Path config;

    @Option(names = "--upgrade", description = {"Hot restart: take the listening sockets, idle connections and counters",
        "of the gateway running at upgrade.socket_path, which then drains and exits (needs epoll)."})
    private boolean upgrade;

    @Option(names = "--upgrade-socket", paramLabel = "PATH",
            description = "The hot restart socket, instead of the file's upgrade.socket_path")
    private Path upgradeSocket;

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
        Path socket = upgradeSocket != null ? upgradeSocket : gatewayConfig.upgrade().socketPath();
        List<String> args = spec.commandLine().getParseResult().originalArgs();
        HotRestart restart = null;
        if (upgrade) {
            try {
                restart = HotRestart.connect(socket, gatewayConfig, HANDOVER_TIMEOUT);
            } catch (IllegalStateException e) {
                spec.commandLine().getErr().println("cannot upgrade: " + e.getMessage());
                return 1;
            }
        }
        Gateway gateway = start(gatewayConfig, restart == null ? Launch.fresh(config, args) : restart.launch(config, args),
                restart);
        if (config != null) {
            HangupReload.install(gateway);
        }
        TerminationSignals.install(gateway);
        AtomicReference<HandoverServer> successors = new AtomicReference<>();
        // Any other way out of the JVM still closes the gateway (after a drain under way, if any).
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            HandoverServer server = successors.get();
            if (server != null) {
                server.close();
            }
            gateway.close();
        }, "tollgate-shutdown"));
        if (restart == null) {
            successors.set(awaitSuccessor(gateway, socket));
        } else {
            restart.serving(gateway);
            restart.finished().thenRun(() -> successors.set(awaitSuccessor(gateway, socket)));
        }
        gateway.terminated().get();
        return 0;
    }

    /** Starts the gateway; when that fails in a hot restart, the running gateway is left serving. */
    private static Gateway start(GatewayConfig config, Launch launch, HotRestart restart) throws InterruptedException {
        try {
            return Gateway.start(config, launch, restart == null ? Inheritance.NONE : restart.inheritance());
        } catch (Exception e) { // also a BindException, which Netty throws undeclared
            if (restart != null) {
                log.error("hot restart abandoned: this process failed to start; the running gateway serves on");
                restart.close();
            }
            throw e;
        }
    }

    /** Waits at {@code socket} for a successor, on epoll; the gateway closes once one took over. */
    private static HandoverServer awaitSuccessor(Gateway gateway, Path socket) {
        if (gateway.transport() != Transport.EPOLL) {
            log.info("hot restart unavailable: it needs the native epoll transport");
            return null;
        }
        try {
            return HandoverServer.listen(gateway, socket);
        } catch (IllegalStateException e) {
            log.warn("hot restart unavailable: {}", e.getMessage());
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }
}
