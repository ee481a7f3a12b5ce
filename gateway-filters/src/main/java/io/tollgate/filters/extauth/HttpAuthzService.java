package io.tollgate.filters.extauth;

import io.tollgate.core.filter.StreamFilterContext;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Consumer;

/**
 * Asks an authorization server over HTTP, as Envoy's {@code http_service} does: a subrequest with
 * the request's method, its path behind the configured prefix and its allowed headers, no body. A
 * 200 allows (its allowed upstream headers go onto the request); any other status denies with that
 * status (its allowed client headers and up to 64 KiB of its body go onto the answer). The JDK's client does the I/O on its own
 * threads; the answer is handed back to the request's event loop.
 */
final class HttpAuthzService implements AuthzService {

    /** Headers the JDK's client sets itself, and those that describe a message rather than a request. */
    private static final Set<String> NOT_FORWARDED = Set.of("connection", "content-length", "expect", "host",
            "upgrade", "transfer-encoding", "keep-alive", "te", "trailer", "proxy-connection", "http2-settings");
    private static final Set<String> NOT_TO_CLIENT = Set.of("content-length", "content-type", "connection",
            "transfer-encoding", "keep-alive", "date", "server", ":status");
    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    /** The most of a denial's body passed on to the client; the rest is read and dropped. */
    static final int MAX_DENIAL_BODY = 64 * 1024;
    /** A denial's body, up to {@link #MAX_DENIAL_BODY} bytes, as text; an allowing answer's is dropped. */
    private static final HttpResponse.BodyHandler<String> DENIAL_BODY = info -> info.statusCode() == 200
            ? HttpResponse.BodySubscribers.replacing(null)
            : HttpResponse.BodySubscribers.mapping(HttpResponse.BodySubscribers.ofInputStream(), HttpAuthzService::upTo);

    private final ExtAuthzSettings.HttpServiceSettings settings;
    private final ExtAuthzSettings filter;

    HttpAuthzService(ExtAuthzSettings.HttpServiceSettings settings, ExtAuthzSettings filter) {
        this.settings = settings;
        this.filter = filter;
    }

    @Override
    public Runnable check(StreamFilterContext context, CheckedBody body, Consumer<AuthzDecision> done) {
        boolean[] cancelled = new boolean[1];
        CompletableFuture<HttpResponse<String>> sent;
        try {
            sent = CLIENT.sendAsync(request(context, body), DENIAL_BODY);
        } catch (IllegalArgumentException e) {
            // a path or header the JDK's client refuses: the check fails as a call that cannot be made
            sent = CompletableFuture.failedFuture(e);
        }
        sent.whenComplete((answer, failure) -> {
            AuthzDecision decision = failure == null ? decision(answer) : AuthzDecision.failed(
                    cause(failure) instanceof HttpTimeoutException ? AuthzDecision.Verdict.TIMEOUT
                            : AuthzDecision.Verdict.ERROR);
            context.executor().execute(() -> {
                if (!cancelled[0]) {
                    done.accept(decision);
                }
            });
        });
        return () -> cancelled[0] = true;
    }

    private HttpRequest request(StreamFilterContext context, CheckedBody body) {
        HttpRequest.Builder request = HttpRequest.newBuilder(target(context)).timeout(settings.timeout())
                .method(CheckHeaders.method(context), body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofByteArray(body.bytes()));
        if (body != null) {
            request.header(CheckedBody.PARTIAL_HEADER, Boolean.toString(body.partial()));
        }
        for (Map.Entry<String, String> header : CheckHeaders.of(context, filter.allowedHeaders()).entrySet()) {
            if (!NOT_FORWARDED.contains(header.getKey()) && !header.getKey().startsWith(":")) {
                request.header(header.getKey(), header.getValue());
            }
        }
        return request.build();
    }

    private URI target(StreamFilterContext context) {
        String base = settings.serverUri().toString();
        if (base.endsWith("/")) {
            base = base.substring(0, base.length() - 1);
        }
        return URI.create(base + settings.pathPrefix() + CheckHeaders.pathAndQuery(context));
    }

    private AuthzDecision decision(HttpResponse<String> answer) {
        if (answer.statusCode() == 200) {
            return new AuthzDecision(AuthzDecision.Verdict.ALLOWED, 0,
                    copied(answer, settings.allowedUpstreamHeaders()), List.of(),
                    copied(answer, settings.allowedClientHeadersOnSuccess()), null);
        }
        String body = answer.body();
        return new AuthzDecision(AuthzDecision.Verdict.DENIED, answer.statusCode(), List.of(), List.of(),
                copied(answer, settings.allowedClientHeaders()), body == null || body.isEmpty() ? null : body);
    }

    /** Up to {@link #MAX_DENIAL_BODY} bytes of {@code in} as UTF-8 text; the rest is drained. On the client's thread. */
    private static String upTo(InputStream in) {
        try (in) {
            byte[] kept = in.readNBytes(MAX_DENIAL_BODY);
            in.transferTo(OutputStream.nullOutputStream());
            return new String(kept, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The answer's headers named in {@code allowed} (null: all but those describing the message). */
    private static List<HeaderChange> copied(HttpResponse<String> answer, Set<String> allowed) {
        List<HeaderChange> copied = new ArrayList<>();
        answer.headers().map().forEach((name, values) -> {
            String lower = name.toLowerCase(Locale.ROOT);
            boolean wanted = allowed == null ? !NOT_TO_CLIENT.contains(lower) : allowed.contains(lower);
            if (wanted) {
                for (int i = 0; i < values.size(); i++) {
                    copied.add(new HeaderChange(lower, values.get(i),
                            i == 0 ? HeaderChange.Mode.SET : HeaderChange.Mode.APPEND));
                }
            }
        });
        return copied;
    }

    private static Throwable cause(Throwable failure) {
        return failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
    }
}
