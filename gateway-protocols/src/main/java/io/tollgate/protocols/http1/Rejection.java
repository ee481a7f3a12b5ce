package io.tollgate.protocols.http1;

import static java.util.Objects.requireNonNull;

/**
 * Why a request is refused before it is routed, as the status to answer with and a reason.
 *
 * @param status the HTTP status to answer with, 400 to 599
 * @param reason what was wrong, for logs; it may quote request bytes, so it MUST NOT be written
 *     into a response without escaping
 */
public record Rejection(int status, String reason) {

    /** Checks the status range and the reason. */
    public Rejection {
        if (status < 400 || status > 599) {
            throw new IllegalArgumentException("status: " + status + " (expected: 400..599)");
        }
        requireNonNull(reason, "reason");
    }

    static Rejection badRequest(String reason) {
        return new Rejection(400, reason);
    }
}
