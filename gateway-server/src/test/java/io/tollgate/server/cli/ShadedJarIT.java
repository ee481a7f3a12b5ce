package io.tollgate.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Collections;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.stream.Stream;
import java.util.stream.Collectors;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.Test;

/**
 * The runnable jar as it ships: one Netty, natives for Linux x86_64 and aarch64 only, at most
 * 40 MB, and an Envoy API trimmed (by the shade filters in gateway-server/pom.xml) without losing
 * a class that the xDS translation, or anything else in the jar, needs, so that every message type
 * the translators unpack resolves by its type URL.
 */
class ShadedJarIT {

    /** Where the shade filters drop classes: the Envoy API's protos and Google's common protos. */
    private static final List<String> TRIMMED = List.of("io/envoyproxy/", "com/github/xds/", "com/github/udpa/",
            "udpa/", "xds/", "envoy/", "validate/", "com/google/api/", "com/google/rpc/", "com/google/type/");

    @Test
    void isSmallWithOneNettyAndLinuxNativesOnly() throws IOException {
        Path jar = PackagedGateway.jar();
        assertThat(Files.size(jar)).as("jar size").isLessThanOrEqualTo(40L * 1024 * 1024);
        try (ZipFile zip = new ZipFile(jar.toFile())) {
            List<String> names = zip.stream().map(ZipEntry::getName).toList();
            assertThat(names).as("grpc-netty-shaded's second Netty").noneMatch(n -> n.startsWith("io/grpc/netty/shaded/"));
            assertThat(names).as("QUIC and kqueue classes").noneMatch(n -> n.startsWith("io/netty/handler/codec/quic/")
                    || n.startsWith("io/netty/channel/kqueue/"));
            List<String> natives = names.stream().filter(n -> n.startsWith("META-INF/native/") && !n.endsWith("/")).toList();
            assertThat(natives).allMatch(n -> n.matches("META-INF/native/lib[a-z0-9_]+_(x86_64|aarch_64)\\.so"), "a Linux x86_64 or aarch64 library")
                    .contains("META-INF/native/libnetty_transport_native_epoll_x86_64.so",
                            "META-INF/native/libnetty_transport_native_epoll_aarch_64.so",
                            "META-INF/native/libnetty_tcnative_linux_x86_64.so",
                            "META-INF/native/libnetty_tcnative_linux_aarch_64.so");
        }
    }

    @Test
    void keepsEveryClassTheTrimmedApiIsReachedThrough() throws IOException {
        try (ZipFile zip = new ZipFile(PackagedGateway.jar().toFile())) {
            Map<String, ZipEntry> classes = classes(zip);
            Deque<String> todo = new ArrayDeque<>(classes.keySet().stream().filter(c -> !trimmed(c)).toList());
            Set<String> seen = new TreeSet<>(todo);
            Map<String, String> missing = new TreeMap<>();
            while (!todo.isEmpty()) {
                String from = todo.pop();
                for (String to : references(zip, classes.get(from))) {
                    if (!trimmed(to)) {
                        continue;
                    }
                    if (!classes.containsKey(to)) {
                        missing.putIfAbsent(to, from);
                    } else if (seen.add(to)) {
                        todo.push(to);
                    }
                }
            }
            assertThat(missing).as("classes of the trimmed API that are named but not in the jar (class -> "
                    + "named by); add their packages to the Envoy API filter in gateway-server/pom.xml").isEmpty();
        }
    }

    @Test
    void resolvesEveryMessageTypeTheTranslatorsUnpack() throws Exception {
        Path jar = PackagedGateway.jar();
        Set<String> read = new TreeSet<>();
        try (ZipFile zip = new ZipFile(jar.toFile())) {
            Map<String, ZipEntry> classes = classes(zip);
            classes.keySet().stream().filter(c -> c.startsWith("io/tollgate/xds/"))
                    .forEach(c -> references(zip, classes.get(c)).stream().filter(ShadedJarIT::trimmed).forEach(read::add));
        }
        // the jar alone on the class path, as java -jar sees it
        try (URLClassLoader loader = new URLClassLoader(new URL[] {jar.toUri().toURL()}, ClassLoader.getPlatformClassLoader())) {
            Class<?> message = loader.loadClass("com.google.protobuf.Message");
            Class<?> any = loader.loadClass("com.google.protobuf.Any");
            Method pack = any.getMethod("pack", message);
            Method is = any.getMethod("is", Class.class);
            Method typeUrl = any.getMethod("getTypeUrl");
            Set<String> typeUrls = new TreeSet<>();
            for (String name : read) {
                Class<?> type = Class.forName(name.replace('/', '.'), true, loader);
                if (!message.isAssignableFrom(type) || type.isInterface()) {
                    continue;
                }
                Object packed = pack.invoke(null, type.getMethod("getDefaultInstance").invoke(null));
                assertThat((Boolean) is.invoke(packed, type)).as("%s resolves by its type URL", name).isTrue();
                typeUrls.add((String) typeUrl.invoke(packed));
            }
            assertThat(typeUrls).contains(Stream.of("config.listener.v3.Listener", "config.route.v3.RouteConfiguration",
                    "config.cluster.v3.Cluster", "config.endpoint.v3.ClusterLoadAssignment",
                    "extensions.transport_sockets.tls.v3.Secret",
                    "extensions.filters.network.http_connection_manager.v3.HttpConnectionManager",
                    "extensions.filters.network.dubbo_proxy.v3.DubboProxy", "extensions.filters.http.router.v3.Router",
                    "extensions.filters.http.fault.v3.HTTPFault", "extensions.filters.http.rbac.v3.RBAC",
                    "extensions.filters.http.local_ratelimit.v3.LocalRateLimit", "extensions.filters.http.cors.v3.Cors",
                    "extensions.transport_sockets.tls.v3.DownstreamTlsContext",
                    "extensions.transport_sockets.tls.v3.UpstreamTlsContext",
                    "extensions.upstreams.http.v3.HttpProtocolOptions").map(t -> "type.googleapis.com/envoy." + t)
                    .toArray(String[]::new)).contains("type.googleapis.com/xds.type.v3.TypedStruct");
        }
    }

    @Test
    void runsTheRegistryClientsOnTheJarsOwnGrpcNettyProtobufAndGuava() throws IOException {
        try (ZipFile zip = new ZipFile(PackagedGateway.jar().toFile())) {
            Map<String, ZipEntry> classes = classes(zip);
            assertThat(classes).as("nacos-client's pure jar, nacos-api and nacos-common, no shaded copies")
                    .containsKeys("com/alibaba/nacos/client/naming/NacosNamingService",
                            "com/alibaba/nacos/common/remote/client/grpc/GrpcClient")
                    .doesNotContainKeys("com/alibaba/nacos/shaded/io/grpc/ManagedChannel",
                            "com/alibaba/nacos/shaded/com/google/protobuf/Any",
                            "org/apache/curator/shaded/com/google/common/collect/ImmutableList");
            Map<String, String> missing = new TreeMap<>();
            Set<String> named = new TreeSet<>();
            for (String from : classes.keySet()) {
                if (!from.startsWith("com/alibaba/nacos/") && !from.startsWith("org/apache/curator/")) {
                    continue;
                }
                for (String to : references(zip, classes.get(from))) {
                    if (to.startsWith("io/grpc/") || to.startsWith("io/netty/") || to.startsWith("com/google/")
                            || to.startsWith("org/apache/curator/shaded/")) {
                        named.add(to);
                        if (!classes.containsKey(to)) {
                            missing.putIfAbsent(to, from);
                        }
                    }
                }
            }
            // nacos-common's gRPC client, written against grpc-netty-shaded, relocated onto grpc-netty;
            // Curator's shaded Guava onto Guava
            assertThat(named).contains("io/grpc/netty/NettyChannelBuilder", "io/netty/handler/ssl/SslContextBuilder",
                    "com/google/common/collect/ImmutableList").noneMatch(n -> n.startsWith("io/grpc/netty/shaded/")
                    || n.startsWith("org/apache/curator/shaded/"));
            assertThat(missing).as("classes the registry clients name that are not in the jar (class -> named by)")
                    .isEmpty();
        }
    }

    private static boolean trimmed(String className) {
        return TRIMMED.stream().anyMatch(className::startsWith);
    }

    private static Map<String, ZipEntry> classes(ZipFile zip) {
        return Collections.unmodifiableMap(zip.stream()
                .filter(e -> e.getName().endsWith(".class") && !e.getName().startsWith("META-INF/"))
                .collect(Collectors.toMap(e -> e.getName().substring(0, e.getName().length() - ".class".length()),
                        Function.identity())));
    }

    private static Set<String> references(ZipFile zip, ZipEntry entry) {
        try (InputStream in = zip.getInputStream(entry)) {
            return ClassReferences.of(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
