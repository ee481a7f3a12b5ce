package io.tollgate.server.grpcjson;

import io.grpc.Status;
import io.tollgate.protocols.generic.CallError;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * A gRPC answer's status as the one error contract of HTTP calls says it: the HTTP status by the
 * mapping gRPC publishes and Envoy's transcoder uses (OK 200, INVALID_ARGUMENT 400, NOT_FOUND 404,
 * DEADLINE_EXCEEDED 504, UNAVAILABLE 503, ...), the status's name as the error's type and
 * {@code grpc-message} (percent-decoded, addresses scrubbed) as its message. A non-200 HTTP answer
 * with no gRPC status becomes one by gRPC's HTTP-to-gRPC mapping first.
 */
public final class GrpcHttpStatus {

    private GrpcHttpStatus() {
    }

    /** The HTTP status for gRPC status {@code code}. */
    public static int httpStatus(Status.Code code) {
        return switch (code) {
            case OK -> 200;
            case CANCELLED -> 499;
            case INVALID_ARGUMENT, FAILED_PRECONDITION, OUT_OF_RANGE -> 400;
            case DEADLINE_EXCEEDED -> 504;
            case NOT_FOUND -> 404;
            case ALREADY_EXISTS, ABORTED -> 409;
            case PERMISSION_DENIED -> 403;
            case RESOURCE_EXHAUSTED -> 429;
            case UNIMPLEMENTED -> 501;
            case UNAVAILABLE -> 503;
            case UNAUTHENTICATED -> 401;
            case UNKNOWN, INTERNAL, DATA_LOSS -> 500;
        };
    }

    /** The gRPC status of an HTTP answer that carries none, by its HTTP status. */
    public static Status.Code ofHttp(int httpStatus) {
        return switch (httpStatus) {
            case 400 -> Status.Code.INTERNAL;
            case 401 -> Status.Code.UNAUTHENTICATED;
            case 403 -> Status.Code.PERMISSION_DENIED;
            case 404 -> Status.Code.UNIMPLEMENTED;
            case 429, 502, 503, 504 -> Status.Code.UNAVAILABLE;
            default -> Status.Code.UNKNOWN;
        };
    }

    /**
     * The status carried by a {@code grpc-status} value, UNKNOWN for a value that is no status.
     */
    public static Status.Code code(String grpcStatus) {
        try {
            return Status.fromCodeValue(Integer.parseInt(grpcStatus.strip())).getCode();
        } catch (NumberFormatException e) {
            return Status.Code.UNKNOWN;
        }
    }

    /** The contract's error for a gRPC status other than OK and its {@code grpc-message} (null: none). */
    public static CallError error(Status.Code code, String grpcMessage) {
        return new CallError(httpStatus(code), code.name(), grpcMessage == null ? "" : percentDecoded(grpcMessage));
    }

    /** {@code grpc-message}'s text: its {@code %XX} escapes of UTF-8 bytes decoded, a bad escape kept as it is. */
    static String percentDecoded(String value) {
        if (value.indexOf('%') < 0) {
            return value;
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(value.length());
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == '%' && i + 2 < value.length() && hex(value.charAt(i + 1)) >= 0 && hex(value.charAt(i + 2)) >= 0) {
                bytes.write(hex(value.charAt(i + 1)) * 16 + hex(value.charAt(i + 2)));
                i += 2;
            } else {
                byte[] raw = String.valueOf(c).getBytes(StandardCharsets.UTF_8);
                bytes.write(raw, 0, raw.length);
            }
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }

    private static int hex(char c) {
        return Character.digit(c, 16);
    }
}
