package io.tollgate.filters.trace;

import io.grpc.StatusRuntimeException;
import io.grpc.netty.NettyChannelBuilder;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse;
import io.opentelemetry.proto.collector.trace.v1.TraceServiceGrpc;
import io.tollgate.filters.grpcservice.GrpcChannels;
import io.tollgate.filters.trace.export.BatchSender;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * OTLP/gRPC: each batch one {@code opentelemetry.proto.collector.trace.v1.TraceService/Export}
 * call over a grpc-java channel of its own (plaintext for an {@code http} endpoint, TLS for
 * {@code https}), with the timeout as deadline. The spans the collector reports as rejected in
 * its partial success count as failed.
 */
final class OtlpGrpcSender implements BatchSender<FinishedSpan> {

    private final GrpcChannels.OpenChannel channel;
    private final OtlpSpans spans;
    private final Duration timeout;

    OtlpGrpcSender(URI endpoint, OtlpSpans spans, Duration timeout) {
        int port = endpoint.getPort() > 0 ? endpoint.getPort() : "https".equals(endpoint.getScheme()) ? 443 : 80;
        NettyChannelBuilder builder = NettyChannelBuilder.forAddress(endpoint.getHost(), port);
        if ("https".equals(endpoint.getScheme())) {
            builder.useTransportSecurity();
        } else {
            builder.usePlaintext();
        }
        this.channel = new GrpcChannels.OpenChannel(builder.build());
        this.spans = spans;
        this.timeout = timeout;
    }

    @Override
    public int send(List<FinishedSpan> batch) throws IOException {
        try {
            ExportTraceServiceResponse answer = TraceServiceGrpc.newBlockingStub(channel.channel())
                    .withDeadlineAfter(timeout.toNanos(), TimeUnit.NANOSECONDS)
                    .export(spans.request(batch));
            return (int) Math.max(0, batch.size() - answer.getPartialSuccess().getRejectedSpans());
        } catch (StatusRuntimeException e) {
            throw new IOException("answered " + e.getStatus(), e);
        }
    }

    @Override
    public void close() {
        channel.close();
    }
}
