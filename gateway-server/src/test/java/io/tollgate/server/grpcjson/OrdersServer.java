package io.tollgate.server.grpcjson;

import com.google.protobuf.DescriptorProtos.FileDescriptorSet;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Descriptors.FileDescriptor;
import com.google.protobuf.Descriptors.ServiceDescriptor;
import com.google.protobuf.DynamicMessage;
import com.google.protobuf.InvalidProtocolBufferException;
import io.grpc.BindableService;
import io.grpc.MethodDescriptor;
import io.grpc.Server;
import io.grpc.ServerServiceDefinition;
import io.grpc.ServerTransportFilter;
import io.grpc.Status;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.protobuf.ProtoServiceDescriptorSupplier;
import io.grpc.stub.ServerCalls;
import io.grpc.stub.StreamObserver;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A real grpc-java server of {@code tollgate.test.Orders} (orders.proto), its messages dynamic (built
 * from orders.pb, no generated code), with a reflection service: {@code Echo} answers the order with
 * {@code big} and {@code unsigned_big} plus one and each item's quantity doubled; {@code Fail} fails
 * with the status asked; {@code Slow} answers after the millis asked; {@code Count} streams
 * {@code i = 1..n} and may fail after them; {@code Upload} is client streaming.
 */
final class OrdersServer implements AutoCloseable {

    static final FileDescriptor FILE = load();
    static final ServiceDescriptor ORDERS = FILE.findServiceByName("Orders");

    private final Server server;
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread thread = new Thread(r, "orders-slow");
        thread.setDaemon(true);
        return thread;
    });
    final AtomicInteger connections = new AtomicInteger();

    /** @param reflection the reflection service, v1 or v1alpha; null for none */
    OrdersServer(BindableService reflection) throws IOException {
        NettyServerBuilder builder = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0))
                .addService(definition())
                .addTransportFilter(new ServerTransportFilter() {
                    @Override
                    public io.grpc.Attributes transportReady(io.grpc.Attributes attributes) {
                        connections.incrementAndGet();
                        return attributes;
                    }
                });
        if (reflection != null) {
            builder.addService(reflection);
        }
        server = builder.build().start();
    }

    int port() {
        return server.getPort();
    }

    /** The descriptor set file in the test resources. */
    static Path descriptorSet() {
        try {
            return Path.of(OrdersServer.class.getResource("/grpcjson/orders.pb").toURI());
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static FileDescriptor load() {
        try (InputStream in = OrdersServer.class.getResourceAsStream("/grpcjson/orders.pb")) {
            return DescriptorFiles.link(FileDescriptorSet.parseFrom(in).getFileList()).stream()
                    .filter(f -> f.getName().equals("orders.proto")).findFirst().orElseThrow();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private ServerServiceDefinition definition() {
        io.grpc.ServiceDescriptor.Builder service = io.grpc.ServiceDescriptor.newBuilder(ORDERS.getFullName())
                .setSchemaDescriptor(new Schema());
        MethodDescriptor<DynamicMessage, DynamicMessage> echo = method("Echo", MethodDescriptor.MethodType.UNARY);
        MethodDescriptor<DynamicMessage, DynamicMessage> fail = method("Fail", MethodDescriptor.MethodType.UNARY);
        MethodDescriptor<DynamicMessage, DynamicMessage> slow = method("Slow", MethodDescriptor.MethodType.UNARY);
        MethodDescriptor<DynamicMessage, DynamicMessage> count = method("Count",
                MethodDescriptor.MethodType.SERVER_STREAMING);
        MethodDescriptor<DynamicMessage, DynamicMessage> upload = method("Upload",
                MethodDescriptor.MethodType.CLIENT_STREAMING);
        for (MethodDescriptor<?, ?> method : List.of(echo, fail, slow, count, upload)) {
            service.addMethod(method);
        }
        return ServerServiceDefinition.builder(service.build())
                .addMethod(echo, ServerCalls.asyncUnaryCall(OrdersServer::echo))
                .addMethod(fail, ServerCalls.asyncUnaryCall((request, answer) -> answer.onError(
                        Status.fromCodeValue(intField(request, "code"))
                                .withDescription(string(request, "message")).asRuntimeException())))
                .addMethod(slow, ServerCalls.asyncUnaryCall((request, answer) -> timer.schedule(() -> {
                    answer.onNext(DynamicMessage.newBuilder(type("Order")).build());
                    answer.onCompleted();
                }, longField(request, "millis"), TimeUnit.MILLISECONDS)))
                .addMethod(count, ServerCalls.asyncServerStreamingCall(OrdersServer::count))
                .addMethod(upload, ServerCalls.asyncClientStreamingCall(OrdersServer::upload))
                .build();
    }

    private static void echo(DynamicMessage order, StreamObserver<DynamicMessage> answer) {
        Descriptor type = order.getDescriptorForType();
        DynamicMessage.Builder out = order.toBuilder();
        out.setField(type.findFieldByName("big"), longField(order, "big") + 1);
        out.setField(type.findFieldByName("unsigned_big"), longField(order, "unsigned_big") + 1);
        FieldDescriptor items = type.findFieldByName("items");
        out.clearField(items);
        for (int i = 0; i < order.getRepeatedFieldCount(items); i++) {
            DynamicMessage item = (DynamicMessage) order.getRepeatedField(items, i);
            FieldDescriptor quantity = item.getDescriptorForType().findFieldByName("quantity");
            out.addRepeatedField(items, item.toBuilder().setField(quantity, (Long) item.getField(quantity) * 2).build());
        }
        answer.onNext(out.build());
        answer.onCompleted();
    }

    private static StreamObserver<DynamicMessage> upload(StreamObserver<DynamicMessage> answer) {
        return new StreamObserver<DynamicMessage>() {
            @Override
            public void onNext(DynamicMessage value) {
            }

            @Override
            public void onError(Throwable t) {
            }

            @Override
            public void onCompleted() {
                answer.onNext(DynamicMessage.newBuilder(type("Order")).build());
                answer.onCompleted();
            }
        };
    }

    private static void count(DynamicMessage request, StreamObserver<DynamicMessage> answer) {
        Descriptor tick = type("Tick");
        for (int i = 1; i <= intField(request, "n"); i++) {
            answer.onNext(DynamicMessage.newBuilder(tick).setField(tick.findFieldByName("i"), i).build());
        }
        int failWith = intField(request, "fail_with");
        if (failWith > 0) {
            answer.onError(Status.fromCodeValue(failWith).withDescription("stopped").asRuntimeException());
        } else {
            answer.onCompleted();
        }
    }

    private static Descriptor type(String name) {
        return FILE.findMessageTypeByName(name);
    }

    private static int intField(DynamicMessage message, String name) {
        return (Integer) message.getField(message.getDescriptorForType().findFieldByName(name));
    }

    private static long longField(DynamicMessage message, String name) {
        return (Long) message.getField(message.getDescriptorForType().findFieldByName(name));
    }

    private static String string(DynamicMessage message, String name) {
        return (String) message.getField(message.getDescriptorForType().findFieldByName(name));
    }

    private static MethodDescriptor<DynamicMessage, DynamicMessage> method(String name,
            MethodDescriptor.MethodType kind) {
        com.google.protobuf.Descriptors.MethodDescriptor method = ORDERS.findMethodByName(name);
        return MethodDescriptor.<DynamicMessage, DynamicMessage>newBuilder()
                .setType(kind)
                .setFullMethodName(MethodDescriptor.generateFullMethodName(ORDERS.getFullName(), name))
                .setRequestMarshaller(new Marshaller(method.getInputType()))
                .setResponseMarshaller(new Marshaller(method.getOutputType()))
                .build();
    }

    @Override
    public void close() throws InterruptedException {
        server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
        timer.shutdownNow();
    }

    /** What the reflection service reads of the service. */
    private static final class Schema implements ProtoServiceDescriptorSupplier {

        @Override
        public FileDescriptor getFileDescriptor() {
            return FILE;
        }

        @Override
        public ServiceDescriptor getServiceDescriptor() {
            return ORDERS;
        }
    }

    /** Dynamic messages of one type on the wire. */
    private record Marshaller(Descriptor type) implements MethodDescriptor.Marshaller<DynamicMessage> {

        @Override
        public InputStream stream(DynamicMessage value) {
            return new ByteArrayInputStream(value.toByteArray());
        }

        @Override
        public DynamicMessage parse(InputStream stream) {
            try {
                return DynamicMessage.parseFrom(type, stream);
            } catch (InvalidProtocolBufferException e) {
                throw Status.INTERNAL.withDescription(e.getMessage()).asRuntimeException();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
