package io.tollgate.server.testing;

import com.google.protobuf.ByteString;
import com.sun.net.httpserver.HttpServer;
import io.grpc.Server;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.StreamObserver;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse;
import io.opentelemetry.proto.collector.trace.v1.TraceServiceGrpc;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.HexFormat;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;

/**
 * An OTLP trace receiver for tests, on the published {@code opentelemetry-proto} messages: the
 * {@code TraceService/Export} gRPC service (grpc-java) and OTLP/HTTP's {@code POST /v1/traces}
 * with a protobuf body (the JDK's HTTP server, which refuses other content types with 415). Keeps
 * every span it received with the {@code service.name} of its resource and the request's channel.
 */
public final class OtlpReceiver implements AutoCloseable {

    /** A span as received. */
    public record Received(Span span, String serviceName, String scope, String channel) {

        /** The span's attributes by key, each value as text. */
        public Map<String, String> attributes() {
            Map<String, String> out = new HashMap<>();
            for (KeyValue kv : span.getAttributesList()) {
                AnyValue v = kv.getValue();
                out.put(kv.getKey(), v.hasIntValue() ? Long.toString(v.getIntValue()) : v.getStringValue());
            }
            return out;
        }
    }

    private final Server grpc;
    private final HttpServer http;
    private final Queue<Received> spans = new ConcurrentLinkedQueue<>();

    public OtlpReceiver() throws IOException {
        grpc = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0))
                .addService(new TraceServiceGrpc.TraceServiceImplBase() {
                    @Override
                    public void export(ExportTraceServiceRequest request,
                            StreamObserver<ExportTraceServiceResponse> answer) {
                        keep(request, "grpc");
                        answer.onNext(ExportTraceServiceResponse.getDefaultInstance());
                        answer.onCompleted();
                    }
                })
                .build().start();
        http = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        http.createContext("/v1/traces", exchange -> {
            try (InputStream in = exchange.getRequestBody()) {
                byte[] body = in.readAllBytes();
                if (!"POST".equals(exchange.getRequestMethod())
                        || !"application/x-protobuf".equals(exchange.getRequestHeaders().getFirst("Content-Type"))) {
                    exchange.sendResponseHeaders(415, -1);
                    return;
                }
                keep(ExportTraceServiceRequest.parseFrom(body), "http");
                byte[] answer = ExportTraceServiceResponse.getDefaultInstance().toByteArray();
                exchange.getResponseHeaders().set("Content-Type", "application/x-protobuf");
                exchange.sendResponseHeaders(200, answer.length == 0 ? -1 : answer.length);
                exchange.getResponseBody().write(answer);
            } finally {
                exchange.close();
            }
        });
        http.start();
    }

    private void keep(ExportTraceServiceRequest request, String channel) {
        for (ResourceSpans resource : request.getResourceSpansList()) {
            String service = resource.getResource().getAttributesList().stream()
                    .filter(kv -> kv.getKey().equals("service.name")).map(kv -> kv.getValue().getStringValue())
                    .findFirst().orElse(null);
            for (ScopeSpans scope : resource.getScopeSpansList()) {
                for (Span span : scope.getSpansList()) {
                    spans.add(new Received(span, service, scope.getScope().getName(), channel));
                }
            }
        }
    }

    /** The OTLP/gRPC endpoint, as the trace filter's {@code endpoint} takes it. */
    public String grpcEndpoint() {
        return "http://127.0.0.1:" + grpc.getPort();
    }

    /** The OTLP/HTTP endpoint. */
    public String httpEndpoint() {
        return "http://127.0.0.1:" + http.getAddress().getPort() + "/v1/traces";
    }

    /** The span with id {@code spanId} (16 hex digits), waiting for it up to 30 s. */
    public Received awaitSpan(String spanId) throws InterruptedException {
        ByteString id = ByteString.copyFrom(HexFormat.of().parseHex(spanId));
        return await("span " + spanId, r -> r.span().getSpanId().equals(id));
    }

    /** The first span of trace {@code traceId} (32 hex digits), waiting for it up to 30 s. */
    public Received awaitTrace(String traceId) throws InterruptedException {
        ByteString id = ByteString.copyFrom(HexFormat.of().parseHex(traceId));
        return await("a span of trace " + traceId, r -> r.span().getTraceId().equals(id));
    }

    /** The spans of trace {@code traceId}, once there are {@code count} of them (waiting up to 30 s). */
    public List<Received> awaitTrace(String traceId, int count) throws InterruptedException {
        ByteString id = ByteString.copyFrom(HexFormat.of().parseHex(traceId));
        AtomicReference<List<Received>> found = new AtomicReference<>();
        Await.until(count + " spans of trace " + traceId + " at the OTLP receiver", Duration.ofSeconds(30), () -> {
            found.set(spans.stream().filter(r -> r.span().getTraceId().equals(id)).toList());
            return found.get().size() >= count;
        });
        return found.get();
    }

    private Received await(String what, Predicate<Received> wanted) throws InterruptedException {
        AtomicReference<Received> found = new AtomicReference<>();
        Await.until(what + " at the OTLP receiver", Duration.ofSeconds(30), () -> {
            spans.stream().filter(wanted).findFirst().ifPresent(found::set);
            return found.get() != null;
        });
        return found.get();
    }

    @Override
    public void close() throws InterruptedException {
        http.stop(0);
        grpc.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
}
