package io.tollgate.server.bolt;

import io.netty.util.concurrent.ScheduledFuture;
import io.tollgate.core.accesslog.ResponseFlag;
import io.tollgate.protocols.bolt.BoltDialect;
import io.tollgate.protocols.bolt.BoltFrame;
import io.tollgate.protocols.bolt.BoltStatus;
import io.tollgate.router.cluster.Host;
import io.tollgate.router.outlier.UpstreamFailure;
import io.tollgate.router.outlier.UpstreamOutcomes;
import java.util.concurrent.TimeUnit;

/**
 * One two-way request forwarded upstream and not yet answered: it knows the caller's request id
 * and dialect to answer with, and ends exactly once, by the upstream response, a timeout, the loss
 * of the upstream connection or the close of the downstream one. Every end but the last is
 * reported to the cluster's outlier detection, under the host the request was sent to.
 */
final class BoltCall {

    /** Links of the downstream connection's {@link InFlightCalls}. */
    BoltCall previous;
    BoltCall next;

    private final BoltDownstreamHandler downstream;
    private final BoltRecord record;
    private final BoltHostPool pool;
    private final Host host;
    private final UpstreamOutcomes outcomes;
    private final BoltDialect dialect;
    private final int callerId;
    private BoltUpstreamConnection connection;
    private int upstreamId;
    private ScheduledFuture<?> timeout;
    private boolean done;

    /**
     * @param host the host chosen for this request, of the snapshot that routed it
     * @param outcomes where that snapshot's outlier detection of the cluster learns how it ended
     */
    BoltCall(BoltDownstreamHandler downstream, BoltRecord record, BoltHostPool pool, Host host,
            UpstreamOutcomes outcomes, BoltDialect dialect, int callerId) {
        this.downstream = downstream;
        this.record = record;
        this.pool = pool;
        this.host = host;
        this.outcomes = outcomes;
        this.dialect = dialect;
        this.callerId = callerId;
    }

    /** Called by the connection that took the request, with the id it gave it. */
    void sentOn(BoltUpstreamConnection connection, int upstreamId) {
        this.connection = connection;
        this.upstreamId = upstreamId;
    }

    /** Starts waiting for the response, at most {@code timeoutMillis}. */
    void start(long timeoutMillis) {
        host.requestStarted();
        timeout = pool.loop().eventLoop().schedule(this::timedOut, timeoutMillis, TimeUnit.MILLISECONDS);
    }

    /** The upstream response, whose ownership passes here: the caller's id is restored in place and it goes downstream. */
    void respond(BoltFrame response) {
        if (!end()) {
            response.release();
            return;
        }
        int status = BoltStatus.httpStatusOf(response.status());
        outcomes.responded(host, status);
        pool.metrics().requestCompleted(status, record.elapsedNanos());
        int length = response.frameLength();
        response.requestId(callerId);
        if (downstream.write(response)) {
            record.sent(length);
        } else {
            record.flag(ResponseFlag.DOWNSTREAM_CONNECTION_TERMINATION);
        }
        record.finish(status);
    }

    /**
     * Answers the caller {@link BoltStatus#TIMEOUT} for a {@code TIMEOUT} failure, else
     * {@link BoltStatus#CONNECTION_CLOSED}; the caller of this method flushes.
     */
    void fail(ResponseFlag flag, UpstreamFailure failure) {
        if (!end()) {
            return;
        }
        outcomes.failed(host, failure);
        record.flag(flag);
        if (failure == UpstreamFailure.RESET) {
            pool.metrics().reset();
        }
        downstream.reply(record, dialect, callerId,
                failure == UpstreamFailure.TIMEOUT ? BoltStatus.TIMEOUT : BoltStatus.CONNECTION_CLOSED);
    }

    /** The caller's connection closed: the call ends unanswered and its upstream id is forgotten. */
    void abandon() {
        if (!end()) {
            return;
        }
        connection.forget(upstreamId);
        record.flag(ResponseFlag.DOWNSTREAM_CONNECTION_TERMINATION);
        record.finish(0);
    }

    private void timedOut() {
        if (done) {
            return;
        }
        pool.metrics().timeout();
        if (connection.forget(upstreamId)) {
            fail(ResponseFlag.UPSTREAM_REQUEST_TIMEOUT, UpstreamFailure.TIMEOUT);
        } else {
            end();
            record.flag(ResponseFlag.UPSTREAM_REQUEST_TIMEOUT);
            downstream.reply(record, dialect, callerId, BoltStatus.TIMEOUT);
        }
        pool.loop().flush();
    }

    /** Marks the call ended; false when it already was. */
    private boolean end() {
        if (done) {
            return false;
        }
        done = true;
        downstream.ended(this);
        if (timeout != null) {
            timeout.cancel(false);
            host.requestFinished();
        }
        return true;
    }
}
