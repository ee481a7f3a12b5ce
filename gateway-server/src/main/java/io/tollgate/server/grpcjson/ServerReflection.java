package io.tollgate.server.grpcjson;

import com.google.protobuf.ByteString;
import com.google.protobuf.DescriptorProtos.FileDescriptorProto;
import com.google.protobuf.InvalidProtocolBufferException;
import io.grpc.CallOptions;
import io.grpc.ClientCall;
import io.grpc.ManagedChannel;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.NettyChannelBuilder;
import io.grpc.protobuf.ProtoUtils;
import io.grpc.reflection.v1.ServerReflectionRequest;
import io.grpc.reflection.v1.ServerReflectionResponse;
import io.grpc.reflection.v1.ServiceResponse;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.StreamObserver;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Asks one host for the descriptors of every service it serves through gRPC server reflection:
 * {@code grpc.reflection.v1}, or {@code v1alpha} when the host does not implement v1 (the two are
 * the same messages under another service name). Blocking: runs on the control thread, over a
 * plaintext grpc-java channel opened for the one load and closed after it.
 */
final class ServerReflection {

    private static final String V1 = "grpc.reflection.v1.ServerReflection/ServerReflectionInfo";
    private static final String V1ALPHA = "grpc.reflection.v1alpha.ServerReflection/ServerReflectionInfo";
    private static final String REFLECTION_PREFIX = "grpc.reflection.";

    private ServerReflection() {
    }

    /**
     * The files describing every service of the host at {@code address} (reflection itself left out),
     * with the files they import.
     *
     * @param timeoutMillis the bound of the whole load
     * @throws StatusRuntimeException when the host does not answer reflection, or in time
     */
    static List<FileDescriptorProto> load(InetSocketAddress address, long timeoutMillis) {
        ManagedChannel channel = NettyChannelBuilder.forAddress(address).usePlaintext().build();
        try {
            try {
                return load(channel, V1, timeoutMillis);
            } catch (StatusRuntimeException e) {
                if (e.getStatus().getCode() != Status.Code.UNIMPLEMENTED) {
                    throw e;
                }
                return load(channel, V1ALPHA, timeoutMillis);
            }
        } finally {
            channel.shutdownNow();
        }
    }

    private static List<FileDescriptorProto> load(ManagedChannel channel, String fullMethodName, long timeoutMillis) {
        MethodDescriptor<ServerReflectionRequest, ServerReflectionResponse> method = MethodDescriptor
                .newBuilder(ProtoUtils.marshaller(ServerReflectionRequest.getDefaultInstance()),
                        ProtoUtils.marshaller(ServerReflectionResponse.getDefaultInstance()))
                .setType(MethodDescriptor.MethodType.BIDI_STREAMING).setFullMethodName(fullMethodName).build();
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        ClientCall<ServerReflectionRequest, ServerReflectionResponse> call = channel.newCall(method,
                CallOptions.DEFAULT.withDeadlineAfter(timeoutMillis, TimeUnit.MILLISECONDS));
        Answers answers = new Answers();
        StreamObserver<ServerReflectionRequest> requests = ClientCalls.asyncBidiStreamingCall(call, answers);
        try {
            requests.onNext(ServerReflectionRequest.newBuilder().setListServices("").build());
            List<String> services = new ArrayList<>();
            for (ServiceResponse service : answers.next(deadline).getListServicesResponse().getServiceList()) {
                if (!service.getName().startsWith(REFLECTION_PREFIX)) {
                    services.add(service.getName());
                }
            }
            Map<String, FileDescriptorProto> files = new LinkedHashMap<>();
            for (String service : services) {
                requests.onNext(ServerReflectionRequest.newBuilder().setFileContainingSymbol(service).build());
                ServerReflectionResponse answer = answers.next(deadline);
                if (answer.hasErrorResponse()) {
                    throw Status.NOT_FOUND.withDescription(service + ": " + answer.getErrorResponse().getErrorMessage())
                            .asRuntimeException();
                }
                for (ByteString bytes : answer.getFileDescriptorResponse().getFileDescriptorProtoList()) {
                    FileDescriptorProto file = FileDescriptorProto.parseFrom(bytes);
                    files.putIfAbsent(file.getName(), file);
                }
            }
            requests.onCompleted();
            return new ArrayList<>(files.values());
        } catch (InvalidProtocolBufferException e) {
            requests.onError(e);
            throw Status.INTERNAL.withDescription("a reflected file is malformed: " + e.getMessage())
                    .asRuntimeException();
        } catch (RuntimeException e) {
            call.cancel("reflection failed", e);
            throw e;
        }
    }

    /** The host's answers, handed from grpc-java's threads to the loading thread. */
    private static final class Answers implements StreamObserver<ServerReflectionResponse> {

        private final BlockingQueue<Object> queue = new LinkedBlockingQueue<>();

        @Override
        public void onNext(ServerReflectionResponse value) {
            queue.add(value);
        }

        @Override
        public void onError(Throwable t) {
            queue.add(Status.fromThrowable(t));
        }

        @Override
        public void onCompleted() {
            queue.add(Status.UNAVAILABLE.withDescription("reflection ended early"));
        }

        ServerReflectionResponse next(long deadlineNanos) {
            Object next;
            try {
                next = queue.poll(Math.max(0, deadlineNanos - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw Status.CANCELLED.withDescription("interrupted").asRuntimeException();
            }
            if (next == null) {
                throw Status.DEADLINE_EXCEEDED.withDescription("reflection timed out").asRuntimeException();
            }
            if (next instanceof Status status) {
                throw status.asRuntimeException();
            }
            return (ServerReflectionResponse) next;
        }
    }
}
