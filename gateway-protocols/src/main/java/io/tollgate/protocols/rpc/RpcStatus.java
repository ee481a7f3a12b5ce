package io.tollgate.protocols.rpc;

/**
 * One response status of an RPC protocol, usually an enum constant: the code its responses carry
 * and what that code means in HTTP terms, so that metrics, outlier detection and the access log
 * count every protocol alike. {@link RpcStatusTable} looks statuses up by code.
 */
public interface RpcStatus {

    /** The code as a response carries it. */
    int code();

    /** What this code means in HTTP terms: 200 success, 503 busy, 504 timeout, and so on. */
    int httpStatus();
}
