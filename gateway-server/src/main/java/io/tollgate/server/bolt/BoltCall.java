package io.tollgate.server.bolt;

import io.netty.util.concurrent.ScheduledFuture;
import io.tollgate.core.accesslog.ResponseFlag;
import io.tollgate.protocols.bolt.BoltDialect;
import io.tollgate.protocols.bolt.BoltFrame;
import io.tollgate.protocols.bolt.BoltStatus;
import java.util.concurrent.TimeUnit;

/**
 * One two-way request forwarded upstream and not yet answered: it knows the caller's request id
 * and dialect to answer with, and ends exactly once, by the upstream response, a timeout or the
 * loss of the upstream connection.
 */
final class BoltCall {

    private final BoltDownstreamHandler downstream;
    private final BoltRecord record;
    private final BoltHostPool pool;
    private final BoltDialect dialect;
    private final int callerId;
    private BoltUpstreamConnection connection;
    private int upstreamId;
    private ScheduledFuture<?> timeout;
    private boolean done;

    BoltCall(BoltDownstreamHandler downstream, BoltRecord record, BoltHostPool pool, BoltDialect dialect, int callerId) {
        this.downstream = downstream;
        this.record = record;
        this.pool = pool;
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
        pool.host().requestStarted();
        timeout = pool.loop().eventLoop().schedule(this::timedOut, timeoutMillis, TimeUnit.MILLISECONDS);
    }

    /** The upstream response, whose ownership passes here: the caller's id is restored in place and it goes downstream. */
    void respond(BoltFrame response) {
        if (!end()) {
            response.release();
            return;
        }
        int status = BoltStatus.httpStatusOf(response.status());
        response.requestId(callerId);
        record.sent(response.frameLength());
        pool.metrics().requestCompleted(status, record.elapsedNanos());
        record.finish(status);
        downstream.write(response);
    }

    /** Answers the caller with a gateway-made {@code status}; the caller of this method flushes. */
    void fail(BoltStatus status, ResponseFlag flag) {
        if (!end()) {
            return;
        }
        record.flag(flag);
        if (flag == ResponseFlag.UPSTREAM_CONNECTION_TERMINATION) {
            pool.metrics().reset();
        }
        downstream.reply(record, dialect, callerId, status);
    }

    private void timedOut() {
        if (done) {
            return;
        }
        connection.forget(upstreamId);
        pool.metrics().timeout();
        fail(BoltStatus.TIMEOUT, ResponseFlag.UPSTREAM_REQUEST_TIMEOUT);
        pool.loop().flush();
    }

    /** Marks the call ended; false when it already was. */
    private boolean end() {
        if (done) {
            return false;
        }
        done = true;
        if (timeout != null) {
            timeout.cancel(false);
            pool.host().requestFinished();
        }
        return true;
    }
}
