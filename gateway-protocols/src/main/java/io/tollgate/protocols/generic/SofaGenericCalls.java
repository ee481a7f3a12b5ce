package io.tollgate.protocols.generic;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.tollgate.protocols.bolt.BoltDialect;
import io.tollgate.protocols.bolt.BoltFrame;
import io.tollgate.protocols.bolt.BoltProtocol;
import io.tollgate.protocols.bolt.BoltRequests;
import io.tollgate.protocols.bolt.BoltStatus;
import io.tollgate.protocols.hessian2.Hessian2Dialect;
import io.tollgate.protocols.hessian2.Hessian2Exception;
import io.tollgate.protocols.hessian2.Hessian2Object;
import io.tollgate.protocols.hessian2.Hessian2ValueReader;
import io.tollgate.protocols.hessian2.Hessian2ValueWriter;
import io.tollgate.protocols.json.Hessian2ToJson;
import io.tollgate.protocols.json.ObjectForm;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * SOFARPC's generic invocation, written and read by the gateway: a Bolt request whose content is
 * what a SOFARPC consumer writes (a {@code SofaRequest} naming the service, method and parameter
 * types, then each argument as a hessian object of its declared class), so the provider reads it
 * as any call; and its {@code SofaResponse} (value, application exception, or framework error) or
 * Bolt status read into a {@link GenericReply}.
 *
 * <p>The hessian dialect is the provider's: {@link Hessian2Dialect#DRAFT} for sofa-hessian 3, which
 * SOFARPC 5 ships; {@link Hessian2Dialect#FINAL} for sofa-hessian 4.
 */
public final class SofaGenericCalls {

    static final String REQUEST_CLASS = "com.alipay.sofa.rpc.core.request.SofaRequest";
    /** SOFARPC's version of a service that names none. */
    static final String DEFAULT_VERSION = "1.0";
    private static final List<String> REQUEST_FIELDS =
            List.of("targetAppName", "methodName", "targetServiceUniqueName", "requestProps", "methodArgSigs");

    private SofaGenericCalls() {
    }

    /** The service's unique name, Bolt's routing key: {@code interface:version[:uniqueId]}. */
    public static String uniqueName(GenericCall call) {
        return uniqueName(call.service(), call.version(), call.uniqueId());
    }

    /**
     * The unique name of {@code service} in {@code version} (null or empty: SOFARPC's default) with
     * {@code uniqueId} (null or empty: none).
     */
    public static String uniqueName(String service, String version, String uniqueId) {
        String unique = service + ":" + (version == null || version.isEmpty() ? DEFAULT_VERSION : version);
        return uniqueId == null || uniqueId.isEmpty() ? unique : unique + ":" + uniqueId;
    }

    /**
     * The Bolt v1 request frame of {@code call} with {@code requestId}, owned by the caller.
     *
     * @throws io.tollgate.protocols.json.JsonMappingException when an argument does not fit its type (400)
     */
    public static ByteBuf request(ByteBufAllocator alloc, long requestId, GenericCall call, Hessian2Dialect dialect) {
        String uniqueName = uniqueName(call);
        ByteBuf content = alloc.buffer(256);
        try {
            Hessian2ValueWriter body = new Hessian2ValueWriter(content, dialect);
            body.startObject(REQUEST_CLASS, REQUEST_FIELDS);
            body.writeNull();
            body.writeString(call.method());
            body.writeString(uniqueName);
            body.writeNull();
            call.writeTypeNames(body, true);
            call.writeArguments(body, ObjectForm.TYPED);
            Map<String, String> headers = new LinkedHashMap<>();
            headers.put(BoltProtocol.HEADER_SERVICE, uniqueName);
            headers.put(BoltProtocol.HEADER_TARGET_SERVICE, uniqueName);
            headers.put(BoltProtocol.HEADER_METHOD_NAME, call.method());
            headers.put("type", "sync");
            headers.put("protocol", BoltProtocol.NAME);
            return BoltRequests.request(alloc, BoltDialect.V1_HESSIAN2, requestId, call.timeoutMillis(), REQUEST_CLASS,
                    headers, content);
        } finally {
            content.release();
        }
    }

    /** What the response {@code frame} to a generic call says, read in {@code dialect}. The frame stays the caller's. */
    public static GenericReply reply(BoltFrame frame, Hessian2Dialect dialect) {
        BoltStatus status = BoltStatus.CODES.fromCode(frame.status()).orElse(null);
        if (status != BoltStatus.SUCCESS) {
            return GenericReply.failed(statusError(status, frame.status()));
        }
        try {
            Object response = Hessian2ValueReader.of(frame.content(), dialect).read();
            if (!(response instanceof Hessian2Object sofaResponse)) {
                return GenericReply.failed(CallError.badGateway("the provider's answer is no SofaResponse"));
            }
            if (Boolean.TRUE.equals(sofaResponse.field("isError"))) {
                return GenericReply.failed(frameworkError(sofaResponse.field("errorMsg")));
            }
            Object value = sofaResponse.field("appResponse");
            if (ProviderExceptions.isThrowable(value)) {
                return GenericReply.failed(ProviderExceptions.of(value));
            }
            return GenericReply.of(Hessian2ToJson.toJson(value));
        } catch (Hessian2Exception e) {
            return GenericReply.failed(CallError.badGateway("the provider's answer cannot be read: " + e.getMessage()));
        }
    }

    /** SOFARPC's own errors: an unknown service or method is a 404; its message otherwise stays with the provider. */
    private static CallError frameworkError(Object message) {
        String text = message instanceof String string ? string.toLowerCase(Locale.ROOT) : "";
        if (text.contains("cannot find") || text.contains("cannot found") || text.contains("not found")) {
            return CallError.notFound("the provider does not serve this service or method");
        }
        return CallError.badGateway("the provider failed to run the call");
    }

    private static CallError statusError(BoltStatus status, int code) {
        if (status == null) {
            return CallError.badGateway("the provider answered Bolt status " + code);
        }
        return switch (status) {
            case TIMEOUT -> CallError.timeout("the provider timed out");
            case SERVER_THREADPOOL_BUSY -> CallError.unavailable("the provider is busy");
            case NO_PROCESSOR -> CallError.notFound("the provider has no processor for SOFARPC requests");
            case SERVER_DESERIAL_EXCEPTION -> CallError.badRequest(
                    "the provider could not read the arguments as the parameter types");
            default -> CallError.badGateway("the provider failed (Bolt status " + status + ")");
        };
    }
}
