package io.tollgate.xds.transport;

import com.google.protobuf.Any;
import io.tollgate.xds.translation.ResourceType;
import io.tollgate.xds.translation.XdsResponse;
import java.util.List;
import java.util.Map;

/**
 * One response of the control plane, whichever ADS protocol carried it, as the client applies it:
 * resources of one type added or changed, and the names of those removed.
 *
 * @param version the response's version: {@code version_info} (state of the world) or
 *     {@code system_version_info} (incremental), as logs show it
 * @param nonce the response's nonce, which its ACK or NACK repeats
 * @param resources the resources it carries, packed
 * @param resourceVersions each resource's own version, by name (incremental only; empty otherwise)
 * @param removed the names of resources removed (incremental only)
 * @param complete whether {@code resources} are every resource of the type, those not among them
 *     removed (a state-of-the-world response of a wildcard type)
 */
record XdsUpdate(ResourceType type, String version, String nonce, List<Any> resources,
        Map<String, String> resourceVersions, List<String> removed, boolean complete) implements XdsResponse {

    XdsUpdate {
        resources = List.copyOf(resources);
        resourceVersions = Map.copyOf(resourceVersions);
        removed = List.copyOf(removed);
    }

    /** The version {@code /config_dump} shows for resource {@code name} of this update. */
    String versionOf(String name) {
        return resourceVersions.getOrDefault(name, version);
    }

    /**
     * What tells this update's content from another's without keeping its resources: a control
     * plane sending a refused update again sends the same versions.
     */
    List<Object> fingerprint() {
        return List.of(version, resourceVersions, removed);
    }
}
