package io.tollgate.protocols.generic;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.tollgate.protocols.dubbo.DubboFrame;
import io.tollgate.protocols.dubbo.DubboProtocol;
import io.tollgate.protocols.dubbo.DubboStatus;
import io.tollgate.protocols.hessian2.Hessian2Dialect;
import io.tollgate.protocols.hessian2.Hessian2Exception;
import io.tollgate.protocols.hessian2.Hessian2ValueReader;
import io.tollgate.protocols.hessian2.Hessian2ValueWriter;
import io.tollgate.protocols.json.Hessian2ToJson;
import io.tollgate.protocols.json.ObjectForm;

/**
 * Dubbo's generic call, written and read by the gateway: a request to
 * {@code org.apache.dubbo.rpc.service.GenericService.$invoke(method, parameterTypes, args)} on the
 * service's path, with the {@code generic=true} attachment, whose provider looks the method up by
 * the type names and makes its declared classes of the arguments (beans go as maps); and its
 * response (value, null, exception, or a status other than OK) read into a {@link GenericReply}.
 */
public final class DubboGenericCalls {

    /** The dubbo protocol version the gateway speaks, as Dubbo 2.7 and 3 consumers write it. */
    static final String DUBBO_VERSION = "2.0.2";
    static final String INVOKE = "$invoke";
    /** {@code $invoke(String, String[], Object[])}. */
    static final String INVOKE_DESCRIPTOR = "Ljava/lang/String;[Ljava/lang/String;[Ljava/lang/Object;";

    /**
     * What a Dubbo provider's error says when no exporter has the service key (path, group,
     * version): when invoking, and when checking the serialization while decoding (status 40).
     */
    private static final String NOT_EXPORTED = "Not found exported service";
    private static final String NOT_FOUND_WHILE_DECODING = "not found, invocation rejected";

    private static final int RESPONSE_WITH_EXCEPTION = 0;
    private static final int RESPONSE_VALUE = 1;
    private static final int RESPONSE_NULL_VALUE = 2;
    private static final int RESPONSE_WITH_EXCEPTION_WITH_ATTACHMENTS = 3;
    private static final int RESPONSE_VALUE_WITH_ATTACHMENTS = 4;
    private static final int RESPONSE_NULL_VALUE_WITH_ATTACHMENTS = 5;

    private DubboGenericCalls() {
    }

    /**
     * The request frame of {@code call} with {@code requestId}, owned by the caller.
     *
     * @throws io.tollgate.protocols.json.JsonMappingException when an argument does not fit its type (400)
     */
    public static ByteBuf request(ByteBufAllocator alloc, long requestId, GenericCall call) {
        ByteBuf out = alloc.buffer(256);
        try {
            out.writeShort(DubboProtocol.MAGIC);
            out.writeByte(DubboProtocol.FLAG_REQUEST | DubboProtocol.FLAG_TWO_WAY | DubboProtocol.SERIALIZATION_HESSIAN2);
            out.writeByte(0);
            out.writeLong(requestId);
            out.writeInt(0);
            Hessian2ValueWriter body = new Hessian2ValueWriter(out, Hessian2Dialect.FINAL);
            body.writeString(DUBBO_VERSION);
            body.writeString(call.service());
            body.writeString(call.version());
            body.writeString(INVOKE);
            body.writeString(INVOKE_DESCRIPTOR);
            body.writeString(call.method());
            call.writeTypeNames(body, false);
            body.startList("[object", call.parameterTypes().size());
            call.writeArguments(body, ObjectForm.MAP);
            body.endList();
            body.startMap(null);
            attachment(body, DubboProtocol.ATTACHMENT_PATH, call.service());
            attachment(body, DubboProtocol.ATTACHMENT_INTERFACE, call.service());
            attachment(body, DubboProtocol.ATTACHMENT_VERSION, call.version());
            attachment(body, DubboProtocol.ATTACHMENT_GROUP, call.group());
            attachment(body, DubboProtocol.ATTACHMENT_TIMEOUT, Integer.toString(call.timeoutMillis()));
            attachment(body, "generic", "true");
            body.endMap();
            out.setInt(DubboProtocol.BODY_LENGTH_OFFSET, out.readableBytes() - DubboProtocol.HEADER_LENGTH);
            return out;
        } catch (RuntimeException e) {
            out.release();
            throw e;
        }
    }

    private static void attachment(Hessian2ValueWriter body, String key, String value) {
        if (value != null && !value.isEmpty()) {
            body.writeString(key);
            body.writeString(value);
        }
    }

    /** What the response {@code frame} to a generic call says. The frame stays the caller's. */
    public static GenericReply reply(DubboFrame frame) {
        if (frame.status() != DubboStatus.OK.code()) {
            return GenericReply.failed(statusError(frame));
        }
        if (frame.serializationId() != DubboProtocol.SERIALIZATION_HESSIAN2) {
            return GenericReply.failed(CallError.badGateway("the provider answered in serialization "
                    + frame.serializationId() + ", not hessian2"));
        }
        try {
            Hessian2ValueReader body = Hessian2ValueReader.of(frame.body(), Hessian2Dialect.FINAL);
            Object flag = body.read();
            if (!(flag instanceof Integer kind)) {
                return GenericReply.failed(CallError.badGateway("the provider's answer has no response flag"));
            }
            return switch (kind) {
                case RESPONSE_VALUE, RESPONSE_VALUE_WITH_ATTACHMENTS ->
                        GenericReply.of(Hessian2ToJson.fromDubboGeneric(body.read()));
                case RESPONSE_NULL_VALUE, RESPONSE_NULL_VALUE_WITH_ATTACHMENTS ->
                        GenericReply.of(Hessian2ToJson.toJson(null));
                case RESPONSE_WITH_EXCEPTION, RESPONSE_WITH_EXCEPTION_WITH_ATTACHMENTS ->
                        GenericReply.failed(ProviderExceptions.of(body.read()));
                default -> GenericReply.failed(CallError.badGateway("the provider's answer has response flag " + kind));
            };
        } catch (Hessian2Exception e) {
            return GenericReply.failed(CallError.badGateway("the provider's answer cannot be read: " + e.getMessage()));
        }
    }

    /**
     * The error a response status other than OK means. The provider's message (the body) is read
     * only to tell an unknown service from a bad request, and never passed on: it names addresses.
     */
    private static CallError statusError(DubboFrame frame) {
        DubboStatus status = DubboStatus.CODES.fromCode(frame.status()).orElse(null);
        String message = bodyText(frame);
        if (message.contains(NOT_EXPORTED) || message.contains(NOT_FOUND_WHILE_DECODING)) {
            return CallError.notFound("the provider does not serve this service (group, version)");
        }
        if (status == null) {
            return CallError.badGateway("the provider answered Dubbo status " + frame.status());
        }
        return switch (status) {
            case CLIENT_TIMEOUT, SERVER_TIMEOUT -> CallError.timeout("the provider timed out");
            case SERVER_THREADPOOL_EXHAUSTED_ERROR -> CallError.unavailable("the provider is busy");
            case SERVICE_NOT_FOUND -> CallError.notFound("the provider does not serve this service");
            // A provider answers 40 to a request it cannot decode, which for the $invoke the gateway
            // wrote (JDK types only, beans as maps) means no exporter has its path, group and version.
            case BAD_REQUEST -> CallError.notFound("the provider does not serve this service (group, version)");
            default -> CallError.badGateway("the provider failed (Dubbo status " + status.code() + " " + status + ")");
        };
    }

    private static String bodyText(DubboFrame frame) {
        try {
            Object text = Hessian2ValueReader.of(frame.body(), Hessian2Dialect.FINAL).read();
            return text instanceof String string ? string : "";
        } catch (Hessian2Exception e) {
            return "";
        }
    }
}
