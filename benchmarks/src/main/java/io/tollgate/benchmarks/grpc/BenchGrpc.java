package io.tollgate.benchmarks.grpc;

import io.grpc.MethodDescriptor;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/**
 * The benchmark's gRPC service described by hand, so that no protoc plugin is needed: one unary
 * method, {@code bench.Echo/Unary}, whose messages are raw bytes.
 */
final class BenchGrpc {

    static final String SERVICE = "bench.Echo";

    private static final MethodDescriptor.Marshaller<byte[]> BYTES = new MethodDescriptor.Marshaller<>() {
        @Override
        public InputStream stream(byte[] value) {
            return new ByteArrayInputStream(value);
        }

        @Override
        public byte[] parse(InputStream stream) {
            try {
                return stream.readAllBytes();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    };

    static final MethodDescriptor<byte[], byte[]> UNARY = MethodDescriptor.<byte[], byte[]>newBuilder()
            .setType(MethodDescriptor.MethodType.UNARY)
            .setFullMethodName(MethodDescriptor.generateFullMethodName(SERVICE, "Unary"))
            .setRequestMarshaller(BYTES)
            .setResponseMarshaller(BYTES)
            .build();

    private BenchGrpc() {
    }
}
