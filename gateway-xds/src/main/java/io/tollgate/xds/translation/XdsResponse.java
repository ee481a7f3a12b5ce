package io.tollgate.xds.translation;

import com.google.protobuf.Any;
import java.util.List;

/**
 * What translation reads of one response of the control plane, whichever ADS protocol carried it:
 * the transport's update implements it, so that translation does not depend on the stream.
 */
public interface XdsResponse {

    /** The type of every resource of the response. */
    ResourceType type();

    /** The resources it carries, packed. */
    List<Any> resources();

    /** The names of resources removed (incremental only). */
    List<String> removed();

    /**
     * Whether {@link #resources()} are every resource of the type, those not among them removed
     * (a state-of-the-world response of a wildcard type).
     */
    boolean complete();
}
