package io.tollgate.filters.ratelimit;

import io.tollgate.core.filter.StreamFilterContext;

/**
 * One of Envoy's rate limit actions: what one entry of a descriptor is for a request. An action
 * that cannot make its entry drops the whole descriptor (Envoy's rule), unless it may be skipped.
 */
sealed interface RateLimitAction {

    /** What an action made: an entry, nothing (the descriptor is dropped), or nothing to add (skipped). */
    record Entry(String key, String value) {

        /** The descriptor is not sent for this request. */
        static final Entry NONE = new Entry(null, null);
        /** This action adds nothing, the descriptor's other entries still go. */
        static final Entry SKIPPED = new Entry("", "");
    }

    /** The entry of {@code context}'s request. */
    Entry entry(StreamFilterContext context);

    /** Envoy's {@code generic_key}: a fixed entry. */
    record GenericKey(String key, String value) implements RateLimitAction {

        @Override
        public Entry entry(StreamFilterContext context) {
            return new Entry(key, value);
        }
    }

    /**
     * Envoy's {@code request_headers}: the first value of a header ({@code :path},
     * {@code :authority} and {@code :method} name the request's own), an RPC header or attachment
     * for Bolt and Dubbo.
     */
    record RequestHeader(String header, String key, boolean skipIfAbsent) implements RateLimitAction {

        @Override
        public Entry entry(StreamFilterContext context) {
            String value = switch (header) {
                case ":path" -> context.request().path();
                case ":authority" -> context.request().authority();
                case ":method" -> context.method();
                default -> context.request().header(header);
            };
            if (value == null) {
                return skipIfAbsent ? Entry.SKIPPED : Entry.NONE;
            }
            return new Entry(key, value);
        }
    }

    /** Envoy's {@code remote_address}: the client's address. */
    record RemoteAddress() implements RateLimitAction {

        @Override
        public Entry entry(StreamFilterContext context) {
            String address = context.clientAddress();
            return address == null ? Entry.NONE : new Entry("remote_address", address);
        }
    }

    /**
     * The gateway's own: the RPC service called (Bolt's service, Dubbo's interface, a gRPC
     * call's service); an HTTP request that is no RPC call drops the descriptor.
     */
    record RpcService(String key) implements RateLimitAction {

        @Override
        public Entry entry(StreamFilterContext context) {
            String service = context.rpc() ? context.service() : context.grpc() ? grpcPart(context, true) : null;
            return service == null ? Entry.NONE : new Entry(key, service);
        }
    }

    /** The gateway's own: the RPC method called; an HTTP request that is no RPC call drops the descriptor. */
    record RpcMethod(String key) implements RateLimitAction {

        @Override
        public Entry entry(StreamFilterContext context) {
            String method = context.rpc() ? context.method() : context.grpc() ? grpcPart(context, false) : null;
            return method == null ? Entry.NONE : new Entry(key, method);
        }
    }

    /** The service or the method of a gRPC call's {@code /service/method} path, or null. */
    private static String grpcPart(StreamFilterContext context, boolean service) {
        String path = context.request().path();
        int slash = path == null ? -1 : path.indexOf('/', 1);
        if (slash < 0) {
            return null;
        }
        String part = service ? path.substring(1, slash) : path.substring(slash + 1);
        return part.isEmpty() ? null : part;
    }
}
