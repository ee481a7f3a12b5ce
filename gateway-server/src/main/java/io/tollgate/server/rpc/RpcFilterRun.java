package io.tollgate.server.rpc;

import io.tollgate.core.filter.FilterHeaders;
import io.tollgate.protocols.rpc.RpcFrame;
import io.tollgate.router.route.Route;
import io.tollgate.server.Snapshot;
import io.tollgate.server.exchange.ExchangeRecord;
import io.tollgate.server.filter.FilterRun;
import io.tollgate.server.filter.StreamFilterChain;

/**
 * A Bolt, Dubbo or plug-in call passing its stream filters: filters read its routing view (the
 * service as authority, {@code /service/method} as path, the frame's headers), an answer is the
 * protocol's error status with the caller's id, and going on is the route's action. Holds the
 * frame until the chain let it through or answered it.
 */
final class RpcFilterRun extends FilterRun {

    private final RpcDownstreamHandler downstream;
    private final RpcFrame frame;
    private final RpcRouteView view;
    private final Snapshot snapshot;

    RpcFilterRun(StreamFilterChain chain, RpcDownstreamHandler downstream, RpcFrame frame, RpcRouteView view,
            ExchangeRecord record, Route route, Snapshot snapshot, RpcLoop loop, String listenerName) {
        super(chain, view, record, route, loop.deadlines(), loop.eventLoop(), listenerName);
        this.downstream = downstream;
        this.frame = frame;
        this.view = view;
        this.snapshot = snapshot;
    }

    @Override
    protected void proceed() {
        downstream.filtersPassed(this);
        downstream.act(this, frame, view, record, route, snapshot);
    }

    @Override
    protected void reply(int httpStatus, int grpcStatus, String reason) {
        downstream.filtersPassed(this);
        downstream.filterAnswered(this, frame, record, httpStatus, reason);
    }

    @Override
    protected void afterAsync() {
        downstream.loop().flush();
    }

    /** The held frame, for the connection to let go of when it closes. */
    RpcFrame frame() {
        return frame;
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
    protected FilterHeaders newRequestHeaders() {
        return new RpcFilterHeaders(view);
    }

    @Override
    public String sni() {
        return downstream.serverName();
    }

    @Override
    public String peerIdentity() {
        return downstream.peerIdentity();
    }
}
