package io.tollgate.server.filter;

import com.google.protobuf.BoolValue;
import io.envoyproxy.envoy.config.core.v3.HeaderValue;
import io.envoyproxy.envoy.config.core.v3.HeaderValueOption;
import io.envoyproxy.envoy.service.auth.v3.AuthorizationGrpc;
import io.envoyproxy.envoy.service.auth.v3.CheckRequest;
import io.envoyproxy.envoy.service.auth.v3.CheckResponse;
import io.envoyproxy.envoy.service.auth.v3.DeniedHttpResponse;
import io.envoyproxy.envoy.service.auth.v3.OkHttpResponse;
import io.envoyproxy.envoy.type.v3.HttpStatus;
import io.envoyproxy.envoy.type.v3.StatusCode;
import io.grpc.Server;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.StreamObserver;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A real external authorization server: grpc-java serving Envoy's
 * {@code envoy.service.auth.v3.Authorization/Check} from the published API, with a small policy
 * that tests can read from their requests. It keeps every check it was asked.
 *
 * <ul>
 *   <li>{@code x-authz-hang} present: never answers (the caller's deadline decides);
 *   <li>{@code authorization: Bearer good}, or an RPC call of {@code echo} or {@code attachment}:
 *       OK, setting {@code x-user: alice} and removing {@code x-remove-me} upstream, adding
 *       {@code x-authz: checked} to the client's answer;
 *   <li>an RPC call of any other method: denied, 403;
 *   <li>else denied, 401, with {@code www-authenticate: Bearer realm="tollgate"}.
 * </ul>
 */
final class AuthorizationServer implements AutoCloseable {

    /** The body of an HTTP request's denial. */
    static final String DENIED_BODY = "{\"error\":\"token required\"}";

    /** Every check asked, in order. */
    final BlockingQueue<CheckRequest> checks = new LinkedBlockingQueue<>();
    final AtomicInteger hanging = new AtomicInteger();
    private final Server server;

    AuthorizationServer() throws IOException {
        server = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0))
                .addService(new AuthorizationGrpc.AuthorizationImplBase() {
                    @Override
                    public void check(CheckRequest request, StreamObserver<CheckResponse> response) {
                        checks.add(request);
                        Map<String, String> headers = request.getAttributes().getRequest().getHttp().getHeadersMap();
                        if (headers.containsKey("x-authz-hang")) {
                            hanging.incrementAndGet();
                            return;
                        }
                        response.onNext(decide(headers));
                        response.onCompleted();
                    }
                })
                .build()
                .start();
    }

    int port() {
        return server.getPort();
    }

    /** The next check asked, waiting up to ten seconds. */
    CheckRequest nextCheck() throws InterruptedException {
        CheckRequest check = checks.poll(10, TimeUnit.SECONDS);
        if (check == null) {
            throw new AssertionError("no check reached the authorization server");
        }
        return check;
    }

    private static CheckResponse decide(Map<String, String> headers) {
        String method = headers.get("method");
        boolean rpc = headers.containsKey("service") && method != null;
        if ("Bearer good".equals(headers.get("authorization")) || rpc && (method.equals("echo")
                || method.equals("attachment"))) {
            return CheckResponse.newBuilder()
                    .setStatus(com.google.rpc.Status.newBuilder().setCode(0))
                    .setOkResponse(OkHttpResponse.newBuilder()
                            .addHeaders(option("x-user", "alice"))
                            .addHeadersToRemove("x-remove-me")
                            .addResponseHeadersToAdd(option("x-authz", "checked")))
                    .build();
        }
        DeniedHttpResponse.Builder denied = DeniedHttpResponse.newBuilder();
        if (rpc) {
            denied.setStatus(HttpStatus.newBuilder().setCode(StatusCode.Forbidden));
        } else {
            denied.setStatus(HttpStatus.newBuilder().setCode(StatusCode.Unauthorized))
                    .addHeaders(option("www-authenticate", "Bearer realm=\"tollgate\""))
                    .addHeaders(option("content-type", "application/json"))
                    .setBody(DENIED_BODY);
        }
        return CheckResponse.newBuilder()
                .setStatus(com.google.rpc.Status.newBuilder().setCode(7))
                .setDeniedResponse(denied)
                .build();
    }

    private static HeaderValueOption option(String name, String value) {
        return HeaderValueOption.newBuilder().setHeader(HeaderValue.newBuilder().setKey(name).setValue(value))
                .setAppend(BoolValue.of(false)).build();
    }

    @Override
    public void close() throws InterruptedException {
        server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
}
