package io.tollgate.xds.transport;

import io.tollgate.core.config.XdsResourceStatus;
import io.tollgate.xds.translation.ResourceType;
import io.tollgate.xds.translation.XdsResources;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What the admin API shows of each resource received ({@code /config_dump}): its version, when it
 * was last accepted and its last rejection. Written on the xDS control thread; read from any
 * thread through {@link #published()}, an immutable copy made after each change.
 */
final class ResourceStatuses {

    private final Map<String, XdsResourceStatus> statuses = new LinkedHashMap<>();
    private volatile List<XdsResourceStatus> published = List.of();

    /** Every status, as last published. */
    List<XdsResourceStatus> published() {
        return published;
    }

    /** The key of resource {@code name} of {@code type}: {@code Kind/name}. */
    static String key(ResourceType type, String name) {
        return type.kind() + "/" + name;
    }

    /** The resources of {@code type} that {@code resources} hold, with the version each was accepted in. */
    Map<String, String> held(ResourceType type, XdsResources resources) {
        Map<String, String> held = new HashMap<>();
        for (XdsResourceStatus status : statuses.values()) {
            if (status.type().equals(type.kind()) && resources.has(type, status.name()) && !status.version().isEmpty()) {
                held.put(status.name(), status.version());
            }
        }
        return held;
    }

    /**
     * Records that {@code update} was accepted: the resources {@code received} get its versions,
     * and those of its type no longer in {@code kept} are forgotten.
     */
    void accepted(XdsUpdate update, Set<String> kept, List<String> received) {
        ResourceType type = update.type();
        Instant now = Instant.now();
        forget(type, kept);
        for (String name : received) {
            XdsResourceStatus before = statuses.get(key(type, name));
            statuses.put(key(type, name), new XdsResourceStatus(type.kind(), name, update.versionOf(name), now,
                    before == null ? Optional.empty() : before.lastNack()));
        }
        publish();
    }

    /** Records the rejection of resource {@code name} of {@code type}, keeping its accepted version. */
    void nacked(ResourceType type, String name, String detail) {
        XdsResourceStatus before = statuses.get(key(type, name));
        statuses.put(key(type, name), new XdsResourceStatus(type.kind(), name, before == null ? "" : before.version(),
                before == null ? Instant.now() : before.lastUpdated(), Optional.of(detail)));
        publish();
    }

    /** Drops the statuses of the resources of {@code type} other than {@code kept} (and the type-wide one). */
    void forgetBut(ResourceType type, Collection<String> kept) {
        forget(type, kept);
        publish();
    }

    private void forget(ResourceType type, Collection<String> kept) {
        statuses.values().removeIf(s -> s.type().equals(type.kind()) && !s.name().equals("*") && !kept.contains(s.name()));
    }

    private void publish() {
        published = List.copyOf(statuses.values());
    }
}
