package io.tollgate.xds.transport;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.ExtensionRegistryLite;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.MessageLite;
import com.google.protobuf.Parser;
import com.google.protobuf.UnsafeByteOperations;
import io.grpc.KnownLength;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import java.io.IOException;
import java.io.InputStream;

/**
 * Reads a control plane's response into one array of its own and parses it from there, its
 * {@code bytes} fields (a resource's {@code Any} value) as slices of that array rather than
 * copies. gRPC's protobuf marshaller parses a message above 4 MiB (an EDS response of 50,000
 * endpoints is 4.3 MiB) from a stream, which copies each {@code Any} value twice: 9 MiB of
 * garbage and two passes per push where this makes one. The array is never reused, so the slices
 * stay valid; a resource kept after its response was applied keeps that response's array alive
 * (an endpoint is copied out of it, see {@link io.tollgate.xds.translation.EndpointTranslator}).
 *
 * @param <T> the response message
 */
final class AliasingMarshaller<T extends MessageLite> implements MethodDescriptor.Marshaller<T> {

    private final MethodDescriptor.Marshaller<T> writer;
    private final Parser<T> parser;

    private AliasingMarshaller(MethodDescriptor.Marshaller<T> writer, Parser<T> parser) {
        this.writer = writer;
        this.parser = parser;
    }

    /** {@code method} with its responses read by this marshaller, its requests written as before. */
    @SuppressWarnings("unchecked")
    static <Q, R extends MessageLite> MethodDescriptor<Q, R> responsesOf(MethodDescriptor<Q, R> method,
            R defaultInstance) {
        return method.toBuilder(method.getRequestMarshaller(),
                new AliasingMarshaller<>(method.getResponseMarshaller(), (Parser<R>) defaultInstance.getParserForType()))
                .build();
    }

    @Override
    public InputStream stream(T value) {
        return writer.stream(value);
    }

    @Override
    public T parse(InputStream stream) {
        try {
            byte[] bytes;
            if (stream instanceof KnownLength) {
                bytes = new byte[stream.available()];
                int read = stream.readNBytes(bytes, 0, bytes.length);
                if (read != bytes.length || stream.read() != -1) {
                    throw new IOException("the message is not " + bytes.length + " bytes long as announced");
                }
            } else {
                bytes = stream.readAllBytes();
            }
            // a CodedInputStream over a ByteString's array is the one that may alias it (it is immutable)
            CodedInputStream input = UnsafeByteOperations.unsafeWrap(bytes).newCodedInput();
            input.enableAliasing(true);
            T message = parser.parseFrom(input, ExtensionRegistryLite.getEmptyRegistry());
            input.checkLastTagWas(0);
            return message;
        } catch (InvalidProtocolBufferException e) {
            throw Status.INTERNAL.withDescription("Invalid protobuf byte sequence").withCause(e).asRuntimeException();
        } catch (IOException e) {
            throw Status.INTERNAL.withDescription("cannot read the message").withCause(e).asRuntimeException();
        }
    }
}
