package io.tollgate.server.bolt;

import io.tollgate.core.route.RouteRequest;
import io.tollgate.protocols.bolt.BoltFrame;
import io.tollgate.protocols.bolt.BoltRouteRequest;
import java.util.Locale;

/**
 * The routing view of a Bolt request as a listener's route table expects it: the {@code service}
 * header lower-cased as authority, because configured domains are stored lower case, so that a
 * virtual host whose domains are service names is found by one exact lookup. Path and headers
 * are those of {@link BoltRouteRequest}; the path keeps the service's case.
 */
final class BoltRouteView implements RouteRequest {

    private final BoltRouteRequest request;
    private final String clientAddress;
    private String authority;

    /**
     * A view of {@code frame}, which MUST stay unreleased while the view is used.
     *
     * @param clientAddress the caller's IP address as text, or null when unknown
     */
    BoltRouteView(BoltFrame frame, String clientAddress) {
        this.request = new BoltRouteRequest(frame);
        this.clientAddress = clientAddress;
    }

    @Override
    public String clientAddress() {
        return clientAddress;
    }

    @Override
    public String authority() {
        if (authority == null) {
            authority = request.authority().toLowerCase(Locale.ROOT);
        }
        return authority;
    }

    @Override
    public String path() {
        return request.path();
    }

    @Override
    public String query() {
        return null;
    }

    @Override
    public String header(String name) {
        return request.header(name);
    }
}
