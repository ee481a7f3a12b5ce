package io.tollgate.server.configwatch;

import io.tollgate.core.config.ConfigException;
import java.io.IOException;
import java.nio.file.ClosedWatchServiceException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reloads the gateway when its configuration file changes, as users of Envoy's file-based
 * configuration and of a Kubernetes ConfigMap mounted as a volume expect. It watches directories,
 * not the file: the file's own directory (an edit in place, a new file renamed over it, the
 * kubelet swapping the {@code ..data} symlink to a new timestamped directory) and the directory the
 * file resolves to through symbolic links, watched anew after each change. Any change there starts
 * a quiet period ({@code debounce}, restarted by each further change, so that an editor's or a
 * deployment tool's several writes make one reload); then the file is read, and reloaded only when
 * its content differs from the content last loaded or tried (a SHA-256 of the bytes; a touch, a
 * change of mode or another file of the directory reload nothing).
 *
 * <p>One daemon thread blocks on a {@link WatchService} (inotify on Linux) and calls the reload,
 * the same one SIGHUP and {@code POST /config/reload} run; a file that is refused is logged by it,
 * counted as a failed reload, and the running configuration keeps serving. Never on an event loop.
 */
public final class ConfigFileWatch implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ConfigFileWatch.class);

    private final Path file;
    private final Supplier<Duration> debounce;
    private final Runnable reload;
    private final WatchService service;
    /** The directories watched, touched only by the watching thread once it started. */
    private final Map<Path, WatchKey> keys = new HashMap<>();
    private final Thread thread;
    private byte[] loaded;
    private volatile boolean closed;

    private ConfigFileWatch(Path file, Supplier<Duration> debounce, Runnable reload, WatchService service) {
        this.file = file;
        this.debounce = debounce;
        this.reload = reload;
        this.service = service;
        this.loaded = digest(file);
        watchDirectories();
        this.thread = new Thread(this::run, "tollgate-config-watch");
        thread.setDaemon(true);
    }

    /**
     * Starts watching {@code file}: after a change and {@code debounce} of quiet (read at each
     * change), {@code reload} runs on the watching thread when the content differs from what it
     * was when last loaded or tried.
     *
     * @throws IOException when the file system offers no watch service
     */
    public static ConfigFileWatch start(Path file, Supplier<Duration> debounce, Runnable reload) throws IOException {
        Path absolute = file.toAbsolutePath().normalize();
        ConfigFileWatch watch = new ConfigFileWatch(absolute, debounce, reload,
                absolute.getFileSystem().newWatchService());
        watch.thread.start();
        log.info("watching {} for changes (debounce {} ms)", absolute, debounce.get().toMillis());
        return watch;
    }

    /** Stops watching; a reload under way finishes on the watching thread, which then ends. */
    @Override
    public void close() {
        closed = true;
        try {
            service.close();
        } catch (IOException e) {
            log.debug("closing the watch service of {}", file, e);
        }
    }

    private void run() {
        try {
            while (!closed) {
                drain(service.take());
                long quietSince = System.nanoTime();
                long quiet = debounce.get().toNanos();
                for (long left = quiet; left > 0; left = quiet - (System.nanoTime() - quietSince)) {
                    WatchKey more = service.poll(left, TimeUnit.NANOSECONDS);
                    if (more != null) {
                        drain(more);
                        quietSince = System.nanoTime();
                    }
                }
                reloadIfChanged();
                watchDirectories();
            }
        } catch (ClosedWatchServiceException e) {
            log.debug("stopped watching {}", file);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Takes the events of {@code key}, which say only that something changed, and watches on. */
    private void drain(WatchKey key) {
        key.pollEvents();
        if (!key.reset()) {
            keys.values().remove(key); // its directory went away: the kubelet removed an old version
        }
    }

    private void reloadIfChanged() {
        byte[] now = digest(file);
        if (now == null || Arrays.equals(now, loaded)) {
            return;
        }
        loaded = now;
        log.info("configuration file {} changed; reloading it", file);
        try {
            reload.run();
        } catch (ConfigException e) {
            // The reload logged why with every field's path; the running configuration stays.
            return;
        } catch (RuntimeException e) {
            log.warn("reloading the changed configuration file {} failed; the running configuration stays", file, e);
        }
    }

    /** Watches the file's directory and the one it resolves to, and no directory the file left. */
    private void watchDirectories() {
        Set<Path> wanted = new LinkedHashSet<>();
        wanted.add(file.getParent());
        try {
            Path real = file.toRealPath().getParent();
            if (!real.equals(file.getParent().toRealPath())) {
                wanted.add(real);
            }
        } catch (IOException e) {
            log.debug("{} does not resolve now; watching its directory", file, e);
        }
        for (Iterator<Map.Entry<Path, WatchKey>> i = keys.entrySet().iterator(); i.hasNext();) {
            Map.Entry<Path, WatchKey> watched = i.next();
            if (!wanted.contains(watched.getKey())) {
                watched.getValue().cancel();
                i.remove();
            }
        }
        for (Path directory : wanted) {
            if (!keys.containsKey(directory)) {
                try {
                    keys.put(directory, directory.register(service, StandardWatchEventKinds.ENTRY_CREATE,
                            StandardWatchEventKinds.ENTRY_DELETE, StandardWatchEventKinds.ENTRY_MODIFY));
                } catch (IOException e) {
                    log.warn("cannot watch {} for changes of {}: {}", directory, file, e.toString());
                }
            }
        }
    }

    /** The SHA-256 of the file's bytes; null when it cannot be read now (in the middle of a swap). */
    private static byte[] digest(Path file) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file));
        } catch (NoSuchFileException e) {
            log.warn("configuration file {} is missing; the running configuration stays", file);
            return null;
        } catch (IOException e) {
            log.warn("configuration file {} cannot be read; the running configuration stays: {}", file, e.toString());
            return null;
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }
}
