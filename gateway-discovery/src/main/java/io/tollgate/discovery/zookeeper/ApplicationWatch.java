package io.tollgate.discovery.zookeeper;

import io.tollgate.discovery.dubbo.DubboInstance;
import io.tollgate.discovery.dubbo.MetadataFetcher;
import io.tollgate.discovery.dubbo.MetadataInfo;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.function.LongConsumer;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.cache.ChildData;
import org.apache.curator.framework.recipes.cache.CuratorCache;
import org.apache.curator.framework.recipes.cache.CuratorCacheListener;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The instances of one Dubbo 3 application registered at application level
 * ({@code /services/{application}/{ip}:{port}}, kept by a Curator {@link CuratorCache}), each with
 * the MetadataInfo of its revision: read from the metadata report
 * ({@code /dubbo/metadata/{application}/{revision}}) when the instance says it is stored remotely,
 * else asked of the instances' own MetadataService through the {@link MetadataFetcher}. Resolved
 * once per revision however many instances serve it, and forgotten once no instance does.
 *
 * <p>Shared by every subscription whose interface maps to the application; confined to the
 * control thread (Curator's events and the fetcher's answers are handed to it).
 */
final class ApplicationWatch {

    private static final Logger log = LoggerFactory.getLogger(ApplicationWatch.class);

    private final String application;
    private final String path;
    private final CuratorFramework client;
    private final CuratorCache cache;
    private final Executor control;
    private final MetadataFetcher fetcher;
    private final ZookeeperRegistry.Counters counters;
    /** Each instance, by node name, in the order first seen. */
    private final Map<String, DubboInstance> instances = new LinkedHashMap<>();
    private final Map<String, MetadataInfo> revisions = new HashMap<>();
    private final Set<String> resolving = new HashSet<>();
    /** Revisions that could not be resolved; tried again when an instance of theirs changes. */
    private final Set<String> failed = new HashSet<>();
    private final List<LongConsumer> listeners = new ArrayList<>();
    private final EventStamps stamps = new EventStamps();
    private boolean synced;
    private final Coalesced notification;
    private boolean closed;
    /** Subscriptions using it; {@link ApplicationWatches} closes it at 0. */
    int users;

    ApplicationWatch(CuratorFramework client, String application, Executor control, MetadataFetcher fetcher,
            ZookeeperRegistry.Counters counters) {
        this.application = application;
        this.path = "/services/" + application;
        this.client = client;
        this.control = control;
        this.fetcher = fetcher;
        this.counters = counters;
        this.cache = CuratorCache.build(client, path);
        this.notification = new Coalesced(control, this::notifyListeners);
    }

    ApplicationWatch start() {
        cache.listenable().addListener(CuratorCacheListener.builder()
                .forAll((type, before, after) -> changed(type == CuratorCacheListener.Type.NODE_DELETED ? before : after,
                        type == CuratorCacheListener.Type.NODE_DELETED))
                .forInitialized(() -> {
                    synced = true;
                    notification.request();
                })
                .build(), stamps.stamping(control));
        cache.start();
        return this;
    }

    String application() {
        return application;
    }

    /**
     * Runs {@code listener} on the control thread after each burst of changes, with when the
     * oldest instance event of the burst was received ({@link System#nanoTime()}, 0 when none).
     */
    void addListener(LongConsumer listener) {
        listeners.add(listener);
    }

    void removeListener(LongConsumer listener) {
        listeners.remove(listener);
    }

    /** Whether the instances were read whole once and no revision of theirs is still being resolved. */
    boolean synced() {
        return synced && resolving.isEmpty();
    }

    /** Each instance whose revision is resolved, with its MetadataInfo, in the order first seen. */
    Map<DubboInstance, MetadataInfo> resolved() {
        Map<DubboInstance, MetadataInfo> resolved = new LinkedHashMap<>();
        for (DubboInstance instance : instances.values()) {
            MetadataInfo metadata = revisions.get(instance.revision());
            if (metadata != null) {
                resolved.put(instance, metadata);
            }
        }
        return resolved;
    }

    private void changed(ChildData node, boolean deleted) {
        if (closed) {
            return;
        }
        counters.event();
        String name = node.getPath().length() > path.length() + 1 ? node.getPath().substring(path.length() + 1) : "";
        if (name.isEmpty() || name.indexOf('/') >= 0) {
            return;
        }
        DubboInstance instance = null;
        if (!deleted) {
            try {
                instance = DubboInstance.parse(node.getData());
            } catch (IllegalArgumentException e) {
                counters.error();
                log.warn("instance {}/{} ignored: {}", path, name, e.getMessage());
            }
        }
        if (instance == null) {
            instances.remove(name);
        } else {
            failed.remove(instance.revision());
            instances.put(name, instance);
        }
        notification.request();
    }

    private void notifyListeners() {
        if (closed) {
            return;
        }
        Map<String, List<DubboInstance>> byRevision = new LinkedHashMap<>();
        for (DubboInstance instance : instances.values()) {
            if (!instance.revision().isEmpty()) {
                byRevision.computeIfAbsent(instance.revision(), r -> new ArrayList<>()).add(instance);
            }
        }
        revisions.keySet().retainAll(byRevision.keySet());
        failed.retainAll(byRevision.keySet());
        byRevision.forEach((revision, serving) -> {
            if (!revisions.containsKey(revision) && !failed.contains(revision) && resolving.add(revision)) {
                resolve(revision, serving);
            }
        });
        long changedAt = stamps.take();
        List.copyOf(listeners).forEach(listener -> listener.accept(changedAt));
    }

    private void resolve(String revision, List<DubboInstance> serving) {
        if (serving.get(0).metadataRemote()) {
            String report = "/dubbo/metadata/" + application + "/" + revision;
            try {
                client.getData().inBackground((c, event) -> {
                    if (event.getResultCode() != 0) {
                        control.execute(() -> resolved(revision, null, "metadata report " + report + ": code "
                                + event.getResultCode()));
                        return;
                    }
                    byte[] data = event.getData();
                    control.execute(() -> {
                        try {
                            resolved(revision, MetadataInfo.fromJson(data), null);
                        } catch (IllegalArgumentException e) {
                            resolved(revision, null, report + ": " + e.getMessage());
                        }
                    });
                }).forPath(report);
            } catch (Exception e) { // Curator declares Exception; a background read fails in its callback
                resolved(revision, null, report + ": " + e);
            }
        } else {
            fetcher.fetch(revision, serving, (metadata, failure) -> control.execute(
                    () -> resolved(revision, metadata, failure == null ? null : failure.getMessage())));
        }
    }

    private void resolved(String revision, MetadataInfo metadata, String failure) {
        resolving.remove(revision);
        if (closed) {
            return;
        }
        if (metadata != null) {
            revisions.put(revision, metadata);
        } else {
            counters.error();
            failed.add(revision);
            log.warn("application {}: revision {} not resolved, its instances left out: {}", application, revision,
                    failure);
        }
        notification.request();
    }

    void close() {
        closed = true;
        listeners.clear();
        cache.close();
    }
}
