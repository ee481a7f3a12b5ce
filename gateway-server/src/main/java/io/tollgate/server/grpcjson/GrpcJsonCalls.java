package io.tollgate.server.grpcjson;

import com.google.protobuf.DescriptorProtos.FileDescriptorProto;
import com.google.protobuf.DescriptorProtos.FileDescriptorSet;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.tollgate.core.config.RpcCallConfig;
import io.tollgate.protocols.generic.CallError;
import io.tollgate.protocols.generic.CallErrorException;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The message types of {@code rpc_call} routes of protocol {@code grpc} or {@code triple}, per source:
 * a cluster's server reflection (asked of one of its hosts), or the route's descriptor set file.
 * Loads run on one control thread, never on an event loop, one at a time per source; each publishes
 * an immutable {@link GrpcSchema} that event loops read without a lock. A schema is loaded again in
 * the background once it is older than {@link #REFRESH_NANOS}, and at once (the call waiting for it)
 * when a call names a method it lacks and it is older than {@link #RELOAD_UNKNOWN_NANOS}, so that a
 * newly deployed method becomes callable without a storm of reflection calls for a mistyped one.
 */
public final class GrpcJsonCalls {

    /** How old a schema gets before it is refreshed in the background. */
    static final long REFRESH_NANOS = TimeUnit.SECONDS.toNanos(60);
    /** How old a schema must be for a call of an unknown method to load it again. */
    static final long RELOAD_UNKNOWN_NANOS = TimeUnit.SECONDS.toNanos(2);
    /** The bound of one reflection load. */
    static final long LOAD_TIMEOUT_MILLIS = 10_000;

    private static final Logger log = LoggerFactory.getLogger(GrpcJsonCalls.class);

    private final Map<String, GrpcSchema> schemas = new ConcurrentHashMap<>();
    private final Map<String, CompletableFuture<GrpcSchema>> loads = new ConcurrentHashMap<>();
    /** The control thread: started by the first load, gone after a minute without one. */
    private final ThreadPoolExecutor control = new ThreadPoolExecutor(0, 1, 60, TimeUnit.SECONDS,
            new LinkedBlockingQueue<>(), runnable -> {
                Thread thread = new Thread(runnable, "tollgate-grpc-descriptors");
                thread.setDaemon(true);
                return thread;
            });

    /** The schema calls of a route with {@code config} to {@code cluster} use; null when none was loaded yet. */
    public GrpcSchema schema(RpcCallConfig config, String cluster) {
        return schemas.get(source(config, cluster));
    }

    /** Whether {@code schema} is old enough to be refreshed in the background. */
    public static boolean stale(GrpcSchema schema) {
        return System.nanoTime() - schema.loadedAtNanos() > REFRESH_NANOS;
    }

    /** Whether a call of a method {@code schema} lacks should load it again first. */
    public static boolean reloadForUnknown(GrpcSchema schema) {
        return System.nanoTime() - schema.loadedAtNanos() > RELOAD_UNKNOWN_NANOS;
    }

    /**
     * Loads the schema of a route with {@code config} for {@code cluster} on the control thread, or
     * joins the load under way; the future completes (never exceptionally) once the new schema, or
     * the failure, is published.
     *
     * @param host where reflection is asked when the route names no descriptor set
     */
    public CompletableFuture<GrpcSchema> load(RpcCallConfig config, String cluster, InetSocketAddress host) {
        String source = source(config, cluster);
        CompletableFuture<GrpcSchema> running = loads.get(source);
        if (running != null) {
            return running;
        }
        CompletableFuture<GrpcSchema> load = new CompletableFuture<>();
        running = loads.putIfAbsent(source, load);
        if (running != null) {
            return running;
        }
        control.execute(() -> {
            GrpcSchema loaded = GrpcSchema.failed(schemas.get(source), System.nanoTime(), "the load failed");
            try {
                loaded = loadNow(config.descriptorSet(), cluster, host, schemas.get(source));
            } finally {
                schemas.put(source, loaded);
                loads.remove(source);
                load.complete(loaded);
            }
        });
        return load;
    }

    private static GrpcSchema loadNow(String descriptorSet, String cluster, InetSocketAddress host, GrpcSchema before) {
        try {
            List<FileDescriptorProto> files = descriptorSet != null ? readDescriptorSet(Path.of(descriptorSet))
                    : ServerReflection.load(host, LOAD_TIMEOUT_MILLIS);
            GrpcSchema schema = GrpcSchema.of(DescriptorFiles.link(files), System.nanoTime());
            log.debug("loaded the gRPC descriptors of {} ({} files)", descriptorSet != null ? descriptorSet : cluster,
                    files.size());
            return schema;
        } catch (IOException | RuntimeException e) {
            String from = descriptorSet != null ? "descriptor set " + descriptorSet
                    : "server reflection of cluster " + cluster;
            log.warn("cannot load the gRPC descriptors from {}: {}", from, e.getMessage());
            return GrpcSchema.failed(before, System.nanoTime(), e.getMessage());
        }
    }

    private static List<FileDescriptorProto> readDescriptorSet(Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            return FileDescriptorSet.parseFrom(in).getFileList();
        }
    }

    /**
     * The gRPC path {@code /package.Service/Method} of a JSON call {@code POST {prefix}/{package.Service}/{Method}}.
     *
     * @throws CallErrorException with a 405 for another method, a 404 for another path
     */
    public static String callPath(String prefix, String httpMethod, String uri) {
        if (!"POST".equals(httpMethod)) {
            throw new CallErrorException(new CallError(405, "method_not_allowed", "calls are POST requests"));
        }
        String path = new QueryStringDecoder(uri).path();
        String rest = path.startsWith(prefix + "/") ? path.substring(prefix.length() + 1) : "";
        int slash = rest.indexOf('/');
        if (slash <= 0 || slash == rest.length() - 1 || rest.indexOf('/', slash + 1) >= 0) {
            throw new CallErrorException(CallError.notFound("the path must be " + prefix + "/{package.Service}/{Method}"));
        }
        return "/" + rest;
    }

    /** Calls of a route with a descriptor set share its file's schema; the others their cluster's reflection. */
    private static String source(RpcCallConfig config, String cluster) {
        return config.descriptorSet() != null ? "file:" + config.descriptorSet() : "cluster:" + cluster;
    }
}
