package io.tollgate.server.http2;

import io.grpc.MethodDescriptor;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * A tiny gRPC service described by hand, so that tests need no generated code: every method of
 * {@code test.Echo} carries UTF-8 strings.
 */
public final class EchoGrpc {

    static final String SERVICE = "test.Echo";

    static final MethodDescriptor.Marshaller<String> UTF8 = new MethodDescriptor.Marshaller<>() {
        @Override
        public InputStream stream(String value) {
            return new ByteArrayInputStream(value.getBytes(StandardCharsets.UTF_8));
        }

        @Override
        public String parse(InputStream stream) {
            try {
                return new String(stream.readAllBytes(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    };

    public static final MethodDescriptor<String, String> UNARY = method(MethodDescriptor.MethodType.UNARY, "Unary");
    static final MethodDescriptor<String, String> CLIENT_STREAMING =
            method(MethodDescriptor.MethodType.CLIENT_STREAMING, "Collect");
    static final MethodDescriptor<String, String> SERVER_STREAMING =
            method(MethodDescriptor.MethodType.SERVER_STREAMING, "Repeat");
    static final MethodDescriptor<String, String> BIDI = method(MethodDescriptor.MethodType.BIDI_STREAMING, "Chat");

    private EchoGrpc() {
    }

    /** A method of {@code service} with the same string marshaller, e.g. for a service nobody routes. */
    static MethodDescriptor<String, String> method(String service, MethodDescriptor.MethodType type, String name) {
        return MethodDescriptor.<String, String>newBuilder()
                .setType(type)
                .setFullMethodName(MethodDescriptor.generateFullMethodName(service, name))
                .setRequestMarshaller(UTF8)
                .setResponseMarshaller(UTF8)
                .build();
    }

    private static MethodDescriptor<String, String> method(MethodDescriptor.MethodType type, String name) {
        return method(SERVICE, type, name);
    }
}
