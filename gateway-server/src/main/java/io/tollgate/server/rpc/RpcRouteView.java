package io.tollgate.server.rpc;

import io.tollgate.core.filter.FilterHeaders;
import io.tollgate.protocols.rpc.RpcFrame;
import io.tollgate.server.dispatch.RequestContext;
import io.tollgate.server.filter.FilterRun;
import java.util.List;
import java.util.Map;
import java.util.Locale;

/**
 * The routing view of an RPC request as a listener's route table expects it: the service lower-cased
 * as authority, because configured domains are stored lower case, so that a virtual host whose
 * domains are service names is found by one exact lookup; {@code /service/method} as path, with the
 * service's case kept, so that RPC routes match like HTTP ones; headers from the frame's lazy
 * headers or attachments. The body is never read. It is also the call's context on its way through
 * the dispatcher and its stream filters: a filter's answer is the protocol's error status with the
 * caller's id, and going on is the route's action, with the headers filters changed.
 */
final class RpcRouteView extends RequestContext {

    private final RpcDownstreamHandler downstream;
    private RpcFrame frame;
    /** The headers as filters see them, null until a filter asks. */
    private RpcFilterHeaders headers;
    private String authority;
    private String path;

    /**
     * A view of {@code frame}, which MUST stay unreleased while the view is used.
     *
     * @param downstream where the call came in, which its filters go on with or answer through
     * @param clientAddress the caller's IP address as text, or null when unknown
     */
    RpcRouteView(RpcDownstreamHandler downstream, RpcFrame frame, String clientAddress) {
        super(clientAddress);
        this.downstream = downstream;
        this.frame = frame;
    }

    /** The request frame: the downstream owns it until it goes upstream or is answered. */
    RpcFrame frame() {
        return frame;
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

    /**
     * Does what the route says with the call its filters let through, as the frame with the headers
     * they changed, if they changed any.
     */
    void forward() {
        Map<String, String> changes = headers == null ? null : headers.changes();
        if (changes != null) {
            // same service and method, so what the view read of the old frame holds
            frame = downstream.withHeaders(frame, changes);
        }
        downstream.act(this);
    }

    /**
     * The call is forwarded now, before its frame is sent: the copies filters asked for start, each
     * the whole frame (an RPC call has no separate body, so no body limit applies).
     */
    void forwarding() {
        List<FilterRun.MirrorRequest> mirrors = filters().takeMirrors();
        if (mirrors == null) {
            return;
        }
        for (FilterRun.MirrorRequest mirror : mirrors) {
            downstream.shadow(mirror.cluster(), mirror.listener(), snapshot(), route(), frame, this);
        }
    }

    @Override
    public void filtersPassed() {
        downstream.filtersPassed(this);
        forward();
    }

    @Override
    public void filtersAnswered(int httpStatus, int grpcStatus, String reason) {
        downstream.filtersPassed(this);
        downstream.filterAnswered(this, httpStatus, reason == null ? "filter_answer" : reason);
    }

    @Override
    public void afterFiltersAsync() {
        downstream.loop().flush();
    }

    @Override
    public void filtersEnded() {
    }

    @Override
    public String protocol() {
        return frame.protocolName();
    }

    @Override
    public boolean rpc() {
        return true;
    }

    @Override
    public boolean grpc() {
        return false;
    }

    @Override
    public String method() {
        return frame.method();
    }

    @Override
    public String service() {
        return frame.service();
    }

    @Override
    public FilterHeaders newFilterHeaders() {
        headers = new RpcFilterHeaders(this, frame.headersRewritable());
        return headers;
    }

    @Override
    public String sni() {
        return downstream.serverName();
    }

    @Override
    public String peerIdentity() {
        return downstream.peerIdentity();
    }

    /** The record has the frame's id already. */
    @Override
    public String protocolRequestId() {
        return null;
    }
}
