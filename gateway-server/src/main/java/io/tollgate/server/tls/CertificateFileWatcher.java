package io.tollgate.server.tls;

import io.netty.util.concurrent.DefaultThreadFactory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Looks at certificate, key and CA files every interval from one control thread shared by the
 * process, and when any of them has a new modification time or size, calls the owner back on
 * that thread to build and publish new TLS contexts. Event loops never wait for it: they only
 * read what the owner published.
 */
public final class CertificateFileWatcher {

    private static final Logger log = LoggerFactory.getLogger(CertificateFileWatcher.class);
    private static final ScheduledExecutorService CONTROL = Executors.newSingleThreadScheduledExecutor(
            new DefaultThreadFactory("tollgate-tls-files", true));
    private static final Set<Watch> WATCHES = ConcurrentHashMap.newKeySet();

    private CertificateFileWatcher() {
    }

    /**
     * Watches {@code files}; {@code onChange} runs on the control thread after any of them
     * changed. A callback that throws is logged and tried again at the next change.
     *
     * @return cancels the watch; idempotent
     */
    public static AutoCloseable watch(String owner, List<Path> files, Duration interval, Runnable onChange) {
        List<Path> watched = List.copyOf(files);
        Watch watch = new Watch(owner, watched, onChange, stamps(watched));
        long nanos = interval.toNanos();
        ScheduledFuture<?> task = CONTROL.scheduleWithFixedDelay(watch::check, nanos, nanos, TimeUnit.NANOSECONDS);
        WATCHES.add(watch);
        return () -> {
            WATCHES.remove(watch);
            task.cancel(false);
        };
    }

    /**
     * Looks at every watched file now rather than at the next interval, for files that were just
     * replaced (an SDS secret's new version); returns at once, the check runs on the control thread.
     */
    public static void checkNow() {
        CONTROL.execute(() -> WATCHES.forEach(Watch::check));
    }

    private static List<Object> stamps(List<Path> files) {
        List<Object> stamps = new ArrayList<>(files.size());
        for (Path file : files) {
            try {
                BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class);
                stamps.add(Arrays.asList(attributes.lastModifiedTime(), attributes.size(), attributes.fileKey()));
            } catch (IOException e) {
                stamps.add("missing");
            }
        }
        return stamps;
    }

    /** One owner's files and the stamps they had when last read. */
    private static final class Watch {

        private final String owner;
        private final List<Path> files;
        private final Runnable onChange;
        private List<Object> seen;

        Watch(String owner, List<Path> files, Runnable onChange, List<Object> seen) {
            this.owner = owner;
            this.files = files;
            this.onChange = onChange;
            this.seen = seen;
        }

        void check() {
            List<Object> now = stamps(files);
            if (Objects.equals(now, seen) || now.contains("missing")) {
                return;
            }
            try {
                onChange.run();
                seen = now;
                log.info("{}: certificate files changed, new handshakes use them", owner);
            } catch (RuntimeException e) {
                log.warn("{}: certificate files changed but cannot be used, keeping the previous ones: {}", owner,
                        e.getMessage());
                seen = now;
            }
        }
    }
}
