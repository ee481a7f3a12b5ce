package io.tollgate.server.rpc;

import io.tollgate.core.route.RouteRequest;
import io.tollgate.protocols.rpc.RpcFrame;
import java.util.Locale;

/**
 * The routing view of an RPC request as a listener's route table expects it: the service lower-cased
 * as authority, because configured domains are stored lower case, so that a virtual host whose
 * domains are service names is found by one exact lookup; {@code /service/method} as path, with the
 * service's case kept, so that RPC routes match like HTTP ones; headers from the frame's lazy
 * headers or attachments. The body is never read.
 */
final class RpcRouteView implements RouteRequest {

    private RpcFrame frame;
    private final String clientAddress;
    private String authority;
    private String path;

    /**
     * A view of {@code frame}, which MUST stay unreleased while the view is used.
     *
     * @param clientAddress the caller's IP address as text, or null when unknown
     */
    RpcRouteView(RpcFrame frame, String clientAddress) {
        this.frame = frame;
        this.clientAddress = clientAddress;
    }

    /**
     * Views {@code rewritten} from now on, the frame that replaced the viewed one when filters
     * changed its headers: same service and method, so what was read of the old one holds.
     */
    void frame(RpcFrame rewritten) {
        this.frame = rewritten;
    }

    @Override
    public String clientAddress() {
        return clientAddress;
    }

    /** The service lower-cased, or the empty string when the request names none. */
    @Override
    public String authority() {
        if (authority == null) {
            authority = orEmpty(frame.service()).toLowerCase(Locale.ROOT);
        }
        return authority;
    }

    /** {@code "/" + service + "/" + method}, missing parts empty. */
    @Override
    public String path() {
        if (path == null) {
            path = pathOf(frame.service(), frame.method());
        }
        return path;
    }

    /** Always {@code null}: RPC requests have no query. */
    @Override
    public String query() {
        return null;
    }

    @Override
    public String header(String name) {
        return frame.header(name);
    }

    /** The path of a call to {@code method} of {@code service}, either of which may be null. */
    private static String pathOf(String service, String method) {
        return "/" + orEmpty(service) + "/" + orEmpty(method);
    }

    private static String orEmpty(String s) {
        return s == null ? "" : s;
    }
}
