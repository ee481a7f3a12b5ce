package io.tollgate.server.cli;

import io.tollgate.core.config.ConfigException;
import io.tollgate.server.Gateway;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import sun.misc.Signal;

/**
 * Reloads the gateway's configuration file when the process receives SIGHUP, the Unix
 * convention for "read your configuration again". {@code sun.misc.Signal} is the JDK's only
 * signal hook; a file watcher was set aside because editors write files in several steps and a
 * half-written file would be tried. The reload runs on its own thread, never on the signal
 * dispatcher, and one at a time.
 */
final class HangupReload {

    private HangupReload() {
    }

    /** From now on, SIGHUP reloads {@code gateway}; a rejected file is logged by the gateway and changes nothing. */
    static void install(Gateway gateway) {
        ExecutorService reloader = Executors.newSingleThreadExecutor(task -> {
            Thread thread = new Thread(task, "tollgate-reload");
            thread.setDaemon(true);
            return thread;
        });
        Signal.handle(new Signal("HUP"), signal -> reloader.execute(() -> reloadLoggingRejection(gateway)));
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
