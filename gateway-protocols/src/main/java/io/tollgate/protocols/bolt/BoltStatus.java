package io.tollgate.protocols.bolt;

import io.tollgate.protocols.rpc.RpcStatus;
import io.tollgate.protocols.rpc.RpcStatusTable;

/**
 * Bolt response status codes and the HTTP status each means to metrics, retries and the access log
 * (the mapping MOSN uses), so that Bolt traffic is counted in the same terms as HTTP traffic.
 */
public enum BoltStatus implements RpcStatus {
    SUCCESS(0x00, 200),
    ERROR(0x01, 500),
    SERVER_EXCEPTION(0x02, 500),
    UNKNOWN(0x03, 500),
    SERVER_THREADPOOL_BUSY(0x04, 503),
    ERROR_COMM(0x05, 500),
    NO_PROCESSOR(0x06, 500),
    TIMEOUT(0x07, 504),
    CLIENT_SEND_ERROR(0x08, 500),
    CODEC_EXCEPTION(0x09, 500),
    CONNECTION_CLOSED(0x10, 502),
    SERVER_SERIAL_EXCEPTION(0x11, 500),
    SERVER_DESERIAL_EXCEPTION(0x12, 500);

    /** Every status by code, and what a code no status names means. */
    public static final RpcStatusTable<BoltStatus> CODES = new RpcStatusTable<>(values());

    private final int code;
    private final int httpStatus;

    BoltStatus(int code, int httpStatus) {
        this.code = code;
        this.httpStatus = httpStatus;
    }

    /** The code as written in a response's {@code respStatus} field. */
    @Override
    public int code() {
        return code;
    }

    /** The HTTP status this code means: 200 success, 503 busy, 504 timeout, 502 connection closed, else 500. */
    @Override
    public int httpStatus() {
        return httpStatus;
    }
}
