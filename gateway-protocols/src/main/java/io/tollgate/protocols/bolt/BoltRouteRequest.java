package io.tollgate.protocols.bolt;

import static java.util.Objects.requireNonNull;

import io.tollgate.core.route.RouteRequest;

/**
 * Shows a Bolt request to the router: the {@code service} header as authority and
 * {@code /service/method} as path, so that Bolt routes match like HTTP ones. Headers come from the
 * frame's lazy header map; the Hessian body is never read.
 *
 * <p>It does not retain the frame: it is valid only while the frame is.
 */
public final class BoltRouteRequest implements RouteRequest {

    private final BoltFrame frame;
    private String path;

    /** A view of {@code frame}, which MUST stay unreleased while this view is used. */
    public BoltRouteRequest(BoltFrame frame) {
        this.frame = requireNonNull(frame, "frame");
    }

    /** The {@code service} header, or the empty string when the request has none. */
    @Override
    public String authority() {
        return orEmpty(frame.service());
    }

    /** {@code "/" + service + "/" + method}, missing parts empty. */
    @Override
    public String path() {
        if (path == null) {
            path = "/" + authority() + "/" + orEmpty(frame.method());
        }
        return path;
    }

    /** Always {@code null}: Bolt has no query. */
    @Override
    public String query() {
        return null;
    }

    @Override
    public String header(String name) {
        return frame.header(name);
    }

    private static String orEmpty(String s) {
        return s == null ? "" : s;
    }
}
