package io.tollgate.server.filter;

import com.google.protobuf.Duration;
import io.envoyproxy.envoy.extensions.common.ratelimit.v3.RateLimitDescriptor;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitRequest;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitResponse;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitServiceGrpc;
import io.grpc.Server;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.StreamObserver;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A real rate limit service: grpc-java serving Envoy's
 * {@code envoy.service.ratelimit.v3.RateLimitService/ShouldRateLimit} from the published API.
 * Every distinct descriptor of a domain may be hit {@link #LIMIT} times an hour, counted here;
 * a request any of whose descriptors is past it is OVER_LIMIT, with each descriptor's status. A
 * descriptor with an entry keyed {@code hang} is never answered. It keeps every request.
 */
final class RateLimitServer implements AutoCloseable {

    static final int LIMIT = 2;

    /** Every request asked, in order. */
    final BlockingQueue<RateLimitRequest> requests = new LinkedBlockingQueue<>();
    final AtomicInteger hanging = new AtomicInteger();
    private final Map<String, AtomicInteger> hits = new ConcurrentHashMap<>();
    private final Server server;

    RateLimitServer() throws IOException {
        server = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0))
                .addService(new RateLimitServiceGrpc.RateLimitServiceImplBase() {
                    @Override
                    public void shouldRateLimit(RateLimitRequest request, StreamObserver<RateLimitResponse> response) {
                        requests.add(request);
                        if (request.getDescriptorsList().stream().anyMatch(d -> d.getEntriesList().stream()
                                .anyMatch(e -> e.getKey().equals("hang")))) {
                            hanging.incrementAndGet();
                            return;
                        }
                        response.onNext(answer(request));
                        response.onCompleted();
                    }
                })
                .build()
                .start();
    }

    int port() {
        return server.getPort();
    }

    /** The next request asked, waiting up to ten seconds. */
    RateLimitRequest nextRequest() throws InterruptedException {
        RateLimitRequest request = requests.poll(10, TimeUnit.SECONDS);
        if (request == null) {
            throw new AssertionError("no request reached the rate limit service");
        }
        return request;
    }

    private RateLimitResponse answer(RateLimitRequest request) {
        RateLimitResponse.Builder answer = RateLimitResponse.newBuilder().setOverallCode(RateLimitResponse.Code.OK);
        for (RateLimitDescriptor descriptor : request.getDescriptorsList()) {
            int hit = hits.computeIfAbsent(request.getDomain() + "|" + descriptor.getEntriesList(),
                    k -> new AtomicInteger()).addAndGet(Math.max(1, request.getHitsAddend()));
            boolean over = hit > LIMIT;
            if (over) {
                answer.setOverallCode(RateLimitResponse.Code.OVER_LIMIT);
            }
            answer.addStatuses(RateLimitResponse.DescriptorStatus.newBuilder()
                    .setCode(over ? RateLimitResponse.Code.OVER_LIMIT : RateLimitResponse.Code.OK)
                    .setCurrentLimit(RateLimitResponse.RateLimit.newBuilder().setRequestsPerUnit(LIMIT)
                            .setUnit(RateLimitResponse.RateLimit.Unit.HOUR))
                    .setLimitRemaining(Math.max(0, LIMIT - hit))
                    .setDurationUntilReset(Duration.newBuilder().setSeconds(3600)));
        }
        return answer.build();
    }

    @Override
    public void close() throws InterruptedException {
        server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
}
