package io.tollgate.protocols.rpc;

import static java.util.Objects.requireNonNull;

import java.util.Optional;

/**
 * A protocol's {@link RpcStatus}es indexed by code, so that a status enum lists its constants and
 * nothing else: {@code fromCode} and {@code httpStatusOf} are written once here, and a code the
 * protocol does not define means {@value #UNKNOWN_CODE_HTTP_STATUS}. Codes are small non-negative
 * numbers (a byte, a short), so the table is an array and a lookup one bounds check and one load.
 *
 * <pre>{@code
 * private static final RpcStatusTable<MyStatus> TABLE = new RpcStatusTable<>(values());
 * }</pre>
 *
 * <p>Immutable and thread-safe.
 *
 * @param <S> the protocol's status type
 */
public final class RpcStatusTable<S extends RpcStatus> {

    /** The HTTP meaning of a status code that no status names. */
    public static final int UNKNOWN_CODE_HTTP_STATUS = 500;

    /** The largest code a table holds; codes are bytes or shorts on every known wire. */
    static final int MAX_CODE = 0xffff;

    private final RpcStatus[] byCode;

    /**
     * A table of {@code statuses}, e.g. an enum's {@code values()}.
     *
     * @throws IllegalArgumentException when a code is outside {@code 0..65535} or given twice
     */
    public RpcStatusTable(S[] statuses) {
        int max = -1;
        for (S status : statuses) {
            int code = requireNonNull(status, "status").code();
            if (code < 0 || code > MAX_CODE) {
                throw new IllegalArgumentException("code of " + status + ": " + code + " (expected: 0.." + MAX_CODE + ")");
            }
            max = Math.max(max, code);
        }
        byCode = new RpcStatus[max + 1];
        for (S status : statuses) {
            if (byCode[status.code()] != null) {
                throw new IllegalArgumentException("code " + status.code() + " of both " + byCode[status.code()]
                        + " and " + status);
            }
            byCode[status.code()] = status;
        }
    }

    /** The status for {@code code}, or empty for a code the protocol does not define. */
    public Optional<S> fromCode(int code) {
        return Optional.ofNullable(lookup(code));
    }

    /** What {@code code} means in HTTP terms, {@value #UNKNOWN_CODE_HTTP_STATUS} for a code the protocol does not define. */
    public int httpStatusOf(int code) {
        S status = lookup(code);
        return status == null ? UNKNOWN_CODE_HTTP_STATUS : status.httpStatus();
    }

    @SuppressWarnings("unchecked") // only S instances are stored
    private S lookup(int code) {
        return code >= 0 && code < byCode.length ? (S) byCode[code] : null;
    }
}
