package io.tollgate.filters.extauth;

import com.google.protobuf.ByteString;
import com.google.protobuf.Timestamp;
import io.envoyproxy.envoy.config.core.v3.Address;
import io.envoyproxy.envoy.config.core.v3.HeaderValueOption;
import io.envoyproxy.envoy.config.core.v3.SocketAddress;
import io.envoyproxy.envoy.service.auth.v3.AttributeContext;
import io.envoyproxy.envoy.service.auth.v3.AuthorizationGrpc;
import io.envoyproxy.envoy.service.auth.v3.CheckRequest;
import io.envoyproxy.envoy.service.auth.v3.CheckResponse;
import io.envoyproxy.envoy.service.auth.v3.DeniedHttpResponse;
import io.envoyproxy.envoy.service.auth.v3.OkHttpResponse;
import io.grpc.Status;
import io.tollgate.core.filter.StreamFilterContext;
import io.tollgate.filters.grpcservice.GrpcChannels;
import io.tollgate.filters.grpcservice.GrpcServiceSettings;
import io.tollgate.filters.grpcservice.PolicyCall;
import io.tollgate.filters.trace.export.SharedExporters;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * Asks Envoy's {@code envoy.service.auth.v3.Authorization/Check}: a {@code CheckRequest} with the
 * request's attributes (the client's address and certificate identity, the SNI, the method, path,
 * host, protocol and headers; for an RPC call its service and method among the headers), and the
 * {@code CheckResponse}'s OK or denied answer with its headers.
 */
final class GrpcAuthzService implements AuthzService {

    private final GrpcServiceSettings settings;
    private final SharedExporters.Handle<GrpcChannels.OpenChannel> channel;
    private final ExtAuthzSettings filter;

    GrpcAuthzService(GrpcServiceSettings settings, ExtAuthzSettings filter) {
        this.settings = settings;
        this.filter = filter;
        this.channel = GrpcChannels.acquire(settings.target());
    }

    @Override
    public Runnable check(StreamFilterContext context, CheckedBody body, Consumer<AuthzDecision> done) {
        PolicyCall<CheckResponse> call = PolicyCall.start(channel.exporter().channel(),
                AuthorizationGrpc.getCheckMethod(), request(context, body), settings.timeout(), context.executor(),
                (answer, status) -> done.accept(answer == null ? failure(status) : decision(answer)));
        return call::cancel;
    }

    private CheckRequest request(StreamFilterContext context, CheckedBody body) {
        Instant now = Instant.now();
        AttributeContext.HttpRequest.Builder http = AttributeContext.HttpRequest.newBuilder()
                .setMethod(CheckHeaders.method(context))
                .setPath(CheckHeaders.pathAndQuery(context))
                .setHost(nullToEmpty(context.request().authority()))
                .setScheme(context.sni() == null ? "http" : "https")
                .setProtocol(context.protocol());
        if (context.request().query() != null) {
            http.setQuery(context.request().query());
        }
        if (context.requestId() != null) {
            http.setId(context.requestId());
        }
        http.putHeaders(":method", http.getMethod());
        http.putHeaders(":path", http.getPath());
        http.putHeaders(":authority", http.getHost());
        http.putAllHeaders(CheckHeaders.of(context, filter.allowedHeaders()));
        if (body != null) {
            http.putHeaders(CheckedBody.PARTIAL_HEADER, Boolean.toString(body.partial()));
            if (filter.withRequestBody().packAsBytes()) {
                http.setRawBody(ByteString.copyFrom(body.bytes()));
            } else {
                http.setBody(new String(body.bytes(), StandardCharsets.UTF_8));
            }
        }
        AttributeContext.Peer.Builder source = AttributeContext.Peer.newBuilder();
        if (context.clientAddress() != null) {
            source.setAddress(Address.newBuilder().setSocketAddress(
                    SocketAddress.newBuilder().setAddress(context.clientAddress()).setPortValue(0)));
        }
        if (context.peerIdentity() != null) {
            source.setPrincipal(context.peerIdentity());
        }
        AttributeContext.Builder attributes = AttributeContext.newBuilder()
                .setSource(source)
                .setRequest(AttributeContext.Request.newBuilder()
                        .setTime(Timestamp.newBuilder().setSeconds(now.getEpochSecond()).setNanos(now.getNano()))
                        .setHttp(http))
                .putAllContextExtensions(filter.contextExtensions());
        if (context.sni() != null) {
            attributes.setTlsSession(AttributeContext.TLSSession.newBuilder().setSni(context.sni()));
        }
        return CheckRequest.newBuilder().setAttributes(attributes).build();
    }

    private static AuthzDecision failure(Status status) {
        return AuthzDecision.failed(status.getCode() == Status.Code.DEADLINE_EXCEEDED
                ? AuthzDecision.Verdict.TIMEOUT : AuthzDecision.Verdict.ERROR);
    }

    /** The decision a {@code CheckResponse} carries: status code 0 (OK) allows, any other denies. */
    static AuthzDecision decision(CheckResponse answer) {
        if (answer.getStatus().getCode() == Status.Code.OK.value()) {
            OkHttpResponse ok = answer.getOkResponse();
            List<String> removed = new ArrayList<>(ok.getHeadersToRemoveCount());
            for (String name : ok.getHeadersToRemoveList()) {
                removed.add(name.toLowerCase(Locale.ROOT));
            }
            return new AuthzDecision(AuthzDecision.Verdict.ALLOWED, 0, changes(ok.getHeadersList()),
                    removed, changes(ok.getResponseHeadersToAddList()), null);
        }
        DeniedHttpResponse denied = answer.getDeniedResponse();
        int status = denied.hasStatus() ? denied.getStatus().getCodeValue() : 0;
        return new AuthzDecision(AuthzDecision.Verdict.DENIED, status >= 200 && status <= 599 ? status : 0,
                List.of(), List.of(), changes(denied.getHeadersList()), denied.getBody().isEmpty() ? null : denied.getBody());
    }

    private static List<HeaderChange> changes(List<HeaderValueOption> options) {
        List<HeaderChange> changes = new ArrayList<>(options.size());
        for (HeaderValueOption option : options) {
            String value = option.getHeader().getValue().isEmpty() && !option.getHeader().getRawValue().isEmpty()
                    ? option.getHeader().getRawValue().toStringUtf8() : option.getHeader().getValue();
            changes.add(new HeaderChange(option.getHeader().getKey().toLowerCase(Locale.ROOT), value, mode(option)));
        }
        return changes;
    }

    /**
     * Envoy's {@code append} when given, else its {@code append_action}; in a check's answer an
     * option with neither replaces the header ("append defaults to false when used in this message").
     */
    private static HeaderChange.Mode mode(HeaderValueOption option) {
        if (option.hasAppend()) {
            return option.getAppend().getValue() ? HeaderChange.Mode.APPEND : HeaderChange.Mode.SET;
        }
        return switch (option.getAppendAction()) {
            case ADD_IF_ABSENT -> HeaderChange.Mode.ADD_IF_ABSENT;
            case OVERWRITE_IF_EXISTS -> HeaderChange.Mode.OVERWRITE_IF_EXISTS;
            default -> HeaderChange.Mode.SET;
        };
    }

    private static String nullToEmpty(String value) {
        return value == null ? "" : value;
    }
}
