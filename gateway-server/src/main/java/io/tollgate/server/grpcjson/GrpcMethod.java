package io.tollgate.server.grpcjson;

import com.google.protobuf.Descriptors.MethodDescriptor;
import com.google.protobuf.DynamicMessage;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.util.JsonFormat;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufInputStream;
import io.netty.buffer.ByteBufOutputStream;
import io.tollgate.protocols.generic.CallError;
import io.tollgate.protocols.generic.CallErrorException;
import java.io.IOException;
import java.io.InputStream;

/**
 * One method of a gRPC service as a JSON call makes it: its request message read from JSON by
 * protobuf's JSON mapping (field names as declared or in lowerCamelCase, 64-bit integers as strings
 * or numbers, enums by name) and written as one length-prefixed gRPC message; its response messages
 * read back and written as JSON ({@code int64} as strings, enums by name, as protobuf prints them).
 * Immutable, shared by every event loop.
 */
public final class GrpcMethod {

    private final MethodDescriptor method;
    private final String path;
    private final JsonFormat.Parser parser;
    private final JsonFormat.Printer printer;

    GrpcMethod(MethodDescriptor method, JsonFormat.TypeRegistry types) {
        this.method = method;
        this.path = "/" + method.getService().getFullName() + "/" + method.getName();
        this.parser = JsonFormat.parser().usingTypeRegistry(types);
        this.printer = JsonFormat.printer().usingTypeRegistry(types).omittingInsignificantWhitespace();
    }

    /** The gRPC request path, {@code /package.Service/Method}. */
    public String path() {
        return path;
    }

    /** Whether the client streams its requests: a JSON call cannot. */
    public boolean clientStreaming() {
        return method.isClientStreaming();
    }

    /** Whether the server answers with a stream of messages (written as newline-delimited JSON). */
    public boolean serverStreaming() {
        return method.isServerStreaming();
    }

    /**
     * {@code json}, the request message, as a gRPC message: the 5-byte prefix (uncompressed, length)
     * and the protobuf bytes; owned by the caller.
     *
     * @throws CallErrorException (400) when the JSON is malformed or does not fit the message
     */
    public ByteBuf request(ByteBufAllocator alloc, String json) {
        DynamicMessage.Builder message = DynamicMessage.newBuilder(method.getInputType());
        try {
            parser.merge(json.isBlank() ? "{}" : json, message);
        } catch (InvalidProtocolBufferException | RuntimeException e) {
            throw new CallErrorException(CallError.badRequest("the body is not a "
                    + method.getInputType().getFullName() + " in JSON: " + e.getMessage()));
        }
        DynamicMessage built = message.build();
        int size = built.getSerializedSize();
        ByteBuf frame = alloc.buffer(GrpcMessages.PREFIX + size);
        frame.writeByte(0).writeInt(size);
        try (ByteBufOutputStream out = new ByteBufOutputStream(frame)) {
            built.writeTo(out);
        } catch (IOException e) {
            frame.release();
            throw new IllegalStateException("a buffer refused a write", e);
        }
        return frame;
    }

    /**
     * A response message (its protobuf bytes, without the prefix) as JSON; {@code message} stays the
     * caller's.
     *
     * @throws InvalidProtocolBufferException when the bytes are not the method's response message
     */
    public String response(ByteBuf message) throws InvalidProtocolBufferException {
        DynamicMessage parsed;
        try (InputStream in = new ByteBufInputStream(message.duplicate())) {
            parsed = DynamicMessage.parseFrom(method.getOutputType(), in);
        } catch (InvalidProtocolBufferException e) {
            throw e;
        } catch (IOException e) {
            throw new InvalidProtocolBufferException(e);
        }
        return printer.print(parsed);
    }
}
