package io.tollgate.server.cli;

import io.tollgate.core.config.ConfigException;
import io.tollgate.server.Gateway;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * Reloads the gateway's configuration file when the process receives SIGHUP, the Unix
 * convention for "read your configuration again". {@code sun.misc.Signal} is the JDK's only
 * signal hook. The reload runs on its own thread, never on the signal dispatcher, and one at a
 * time. (With {@code config_watch} the gateway also reloads the file when it changes:
 * {@link io.tollgate.server.configwatch.ConfigFileWatch}.)
 */
final class HangupReload {

    private static final Logger log = LoggerFactory.getLogger(HangupReload.class);

    private HangupReload() {
    }

    /**
     * From now on, SIGHUP reloads {@code gateway}; a rejected file is logged by the gateway and
     * changes nothing. A process started with SIGHUP ignored ({@code nohup}) keeps ignoring it: the
     * JVM installs no handler then, which is logged with the way to reload instead.
     */
    static void install(Gateway gateway) {
        ExecutorService reloader = Executors.newSingleThreadExecutor(task -> {
            Thread thread = new Thread(task, "tollgate-reload");
            thread.setDaemon(true);
            return thread;
        });
        SignalHandler before = Signal.handle(new Signal("HUP"),
                signal -> reloader.execute(() -> reloadLoggingRejection(gateway)));
        if (before == SignalHandler.SIG_IGN) {
            reloader.shutdown();
            log.warn("SIGHUP is ignored by this process (started under nohup?), so it does not reload the configuration;"
                    + " reload with POST /config/reload on the admin API");
        }
    }

    private static void reloadLoggingRejection(Gateway gateway) {
        try {
            gateway.reload();
        } catch (ConfigException e) {
            // Gateway.reload logged the rejection with the field path; the running configuration stays.
            return;
        }
    }
}
