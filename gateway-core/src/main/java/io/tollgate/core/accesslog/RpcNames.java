package io.tollgate.core.accesslog;

/**
 * The RPC service and method of an entry: a Bolt service or Dubbo interface and its method as the
 * proxy recorded them, or for gRPC the two parts of the path {@code /package.Service/Method}.
 */
final class RpcNames {

    private RpcNames() {
    }

    static String service(AccessLogEntry e) {
        if (e.rpcService() != null || !e.grpc()) {
            return e.rpcService();
        }
        int slash = grpcSlash(e.path());
        return slash < 0 ? null : e.path().substring(1, slash);
    }

    static String method(AccessLogEntry e) {
        if (e.rpcMethod() != null || !e.grpc()) {
            return e.rpcMethod();
        }
        int slash = grpcSlash(e.path());
        return slash < 0 ? null : e.path().substring(slash + 1);
    }

    /** The index of the slash between service and method in a gRPC path, or -1 when it has none. */
    private static int grpcSlash(String path) {
        if (path == null || path.length() < 2 || path.charAt(0) != '/') {
            return -1;
        }
        return path.indexOf('/', 1);
    }
}
