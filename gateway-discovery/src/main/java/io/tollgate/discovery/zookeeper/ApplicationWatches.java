package io.tollgate.discovery.zookeeper;

import io.tollgate.discovery.dubbo.MetadataFetcher;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.Executor;
import org.apache.curator.framework.CuratorFramework;

/**
 * The {@link ApplicationWatch}es of one registry, one per application however many subscribed
 * interfaces map to it (an application of 40 interfaces is read, and its revisions resolved,
 * once); closed when the last subscription using it lets go. Control thread only.
 */
final class ApplicationWatches {

    private final CuratorFramework client;
    private final Executor control;
    private final MetadataFetcher fetcher;
    private final ZookeeperRegistry.Counters counters;
    private final Map<String, ApplicationWatch> byApplication = new HashMap<>();

    ApplicationWatches(CuratorFramework client, Executor control, MetadataFetcher fetcher,
            ZookeeperRegistry.Counters counters) {
        this.client = client;
        this.control = control;
        this.fetcher = fetcher;
        this.counters = counters;
    }

    /** The watch of {@code application}, started on first use; {@link #release} it when done. */
    ApplicationWatch acquire(String application) {
        ApplicationWatch watch = byApplication.computeIfAbsent(application,
                a -> new ApplicationWatch(client, a, control, fetcher, counters).start());
        watch.users++;
        return watch;
    }

    /** Lets go of {@code watch}; the last user closes it. */
    void release(ApplicationWatch watch) {
        if (--watch.users == 0) {
            byApplication.remove(watch.application());
            watch.close();
        }
    }
}
