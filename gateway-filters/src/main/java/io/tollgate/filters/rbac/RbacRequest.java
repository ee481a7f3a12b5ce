package io.tollgate.filters.rbac;

import io.tollgate.core.filter.StreamFilterContext;

/**
 * One request as the rules of one {@code rbac} filter read it: the filter context, and the client's
 * address read from its text once, when a {@code source_ip} rule first asks for it.
 */
final class RbacRequest {

    final StreamFilterContext context;
    private IpAddress client;
    private boolean clientRead;

    RbacRequest(StreamFilterContext context) {
        this.context = context;
    }

    /** The client's address, or null when unknown or unreadable. */
    IpAddress client() {
        if (!clientRead) {
            client = IpAddress.parse(context.clientAddress());
            clientRead = true;
        }
        return client;
    }
}
