package io.tollgate.server.grpcjson;

import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FileDescriptor;
import com.google.protobuf.Descriptors.MethodDescriptor;
import com.google.protobuf.Descriptors.ServiceDescriptor;
import com.google.protobuf.util.JsonFormat;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * The gRPC services one source describes (a cluster's server reflection, or a descriptor set file)
 * as one immutable snapshot, built off the event loops and read by them without a lock: its methods
 * by path, and when it was loaded. A failed load keeps the methods of the one before and says why.
 */
public final class GrpcSchema {

    private final Map<String, GrpcMethod> methods;
    private final long loadedAtNanos;
    private final String failure;

    private GrpcSchema(Map<String, GrpcMethod> methods, long loadedAtNanos, String failure) {
        this.methods = methods;
        this.loadedAtNanos = loadedAtNanos;
        this.failure = failure;
    }

    /** The services of {@code files}, loaded at {@code nowNanos}. */
    static GrpcSchema of(Collection<FileDescriptor> files, long nowNanos) {
        JsonFormat.TypeRegistry.Builder types = JsonFormat.TypeRegistry.newBuilder();
        Set<String> seen = new HashSet<>();
        for (FileDescriptor file : files) {
            addTypes(file, types, seen);
        }
        JsonFormat.TypeRegistry registry = types.build();
        Map<String, GrpcMethod> methods = new HashMap<>();
        for (FileDescriptor file : files) {
            for (ServiceDescriptor service : file.getServices()) {
                for (MethodDescriptor method : service.getMethods()) {
                    GrpcMethod call = new GrpcMethod(method, registry);
                    methods.put(call.path(), call);
                }
            }
        }
        return new GrpcSchema(Map.copyOf(methods), nowNanos, null);
    }

    /** A load that failed at {@code nowNanos} for {@code reason}, keeping {@code before}'s methods (null: none). */
    static GrpcSchema failed(GrpcSchema before, long nowNanos, String reason) {
        return new GrpcSchema(before == null ? Map.of() : before.methods, nowNanos, reason);
    }

    private static void addTypes(FileDescriptor file, JsonFormat.TypeRegistry.Builder types, Set<String> seen) {
        if (!seen.add(file.getName())) {
            return;
        }
        for (Descriptor message : file.getMessageTypes()) {
            types.add(message);
        }
        for (FileDescriptor dependency : file.getDependencies()) {
            addTypes(dependency, types, seen);
        }
    }

    /** The method at {@code path} ({@code /package.Service/Method}), or null when the source has none. */
    public GrpcMethod method(String path) {
        return methods.get(path);
    }

    /** Whether the source describes a service named {@code service}. */
    public boolean hasService(String service) {
        String prefix = "/" + service + "/";
        return methods.keySet().stream().anyMatch(path -> path.startsWith(prefix));
    }

    /** When the load finished (or failed), on {@link System#nanoTime()}'s clock. */
    long loadedAtNanos() {
        return loadedAtNanos;
    }

    /** Why the last load failed, or null when it succeeded. */
    public String failure() {
        return failure;
    }
}
