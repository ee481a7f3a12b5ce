package io.tollgate.benchmarks.xds;

import com.google.protobuf.Any;
import com.google.protobuf.Struct;
import com.google.protobuf.Value;
import com.sun.net.httpserver.HttpServer;
import io.envoyproxy.controlplane.cache.v3.SimpleCache;
import io.envoyproxy.controlplane.cache.v3.Snapshot;
import io.envoyproxy.controlplane.server.DiscoveryServerCallbacks;
import io.envoyproxy.controlplane.server.V3DiscoveryServer;
import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.envoyproxy.envoy.config.core.v3.Address;
import io.envoyproxy.envoy.config.core.v3.AggregatedConfigSource;
import io.envoyproxy.envoy.config.core.v3.ConfigSource;
import io.envoyproxy.envoy.config.core.v3.Metadata;
import io.envoyproxy.envoy.config.core.v3.SocketAddress;
import io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment;
import io.envoyproxy.envoy.config.endpoint.v3.Endpoint;
import io.envoyproxy.envoy.config.endpoint.v3.LbEndpoint;
import io.envoyproxy.envoy.config.endpoint.v3.LocalityLbEndpoints;
import io.envoyproxy.envoy.config.listener.v3.Filter;
import io.envoyproxy.envoy.config.listener.v3.FilterChain;
import io.envoyproxy.envoy.config.listener.v3.Listener;
import io.envoyproxy.envoy.config.route.v3.Route;
import io.envoyproxy.envoy.config.route.v3.RouteAction;
import io.envoyproxy.envoy.config.route.v3.RouteConfiguration;
import io.envoyproxy.envoy.config.route.v3.RouteMatch;
import io.envoyproxy.envoy.config.route.v3.VirtualHost;
import io.envoyproxy.envoy.extensions.filters.http.router.v3.Router;
import io.envoyproxy.envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager;
import io.envoyproxy.envoy.extensions.filters.network.http_connection_manager.v3.HttpFilter;
import io.envoyproxy.envoy.service.discovery.v3.DeltaDiscoveryRequest;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryRequest;
import io.grpc.Server;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * An EDS push of many labelled endpoints into a cluster with subsets, under load: a gateway fed by
 * an in-process java-control-plane routes client requests to the two live hosts of subset
 * {@code pool=live} while the control plane pushes, again and again, the whole endpoint list with
 * 1% of the idle hosts changed. The gateway runs in a JVM of its own ({@link GatewayJvm}), so
 * that its GC and CPU are its own. Prints, over the pushes: the time from the gateway's receipt of
 * a push to its configuration applied (its {@code tollgate.xds.update.duration} timer, read
 * around each push, so the first full assignment before the pushes is not counted), the time
 * from the control plane's snapshot to the gateway's ACK, the largest client latency, failed
 * requests, the gateway's event-loop scheduling delay (its {@code tollgate.event_loop.delay}
 * probe, see {@link LoopDelays}) and its GC pauses (from its GC log); the same two for
 * {@value #LOAD_ONLY_SECONDS} s of the same load without pushes before, which tell what the
 * pushes add to what the load and the host cause anyway; for both, how long the event-loop threads
 * waited for a CPU and where the host's CPU time went ({@link HostCpu}), the host's part of their delay.
 *
 * <p>Usage: {@code EdsPushBenchmark [endpoints] [pushes] [clients]} (defaults 50000, 100, 4); the
 * gateway JVM's options from the environment variable {@code GATEWAY_JVM} (default those of
 * {@code bench/gateway.sh}: {@value #DEFAULT_GATEWAY_JVM}).
 */
public final class EdsPushBenchmark {

    private static final String DEFAULT_GATEWAY_JVM =
            "-Xms512m -Xmx512m -XX:+UseSerialGC -Dio.netty.leakDetection.level=disabled";
    /** How long the clients' load runs without pushes, for the event-loop delay and GC it alone causes. */
    private static final int LOAD_ONLY_SECONDS = 10;
    private static final String GROUP = "bench";
    private static final String EDS_TYPE = "type.googleapis.com/envoy.config.endpoint.v3.ClusterLoadAssignment";
    private static final ConfigSource ADS = ConfigSource.newBuilder()
            .setAds(AggregatedConfigSource.getDefaultInstance()).build();

    private EdsPushBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int endpoints = args.length > 0 ? Integer.parseInt(args[0]) : 50_000;
        int pushes = args.length > 1 ? Integer.parseInt(args[1]) : 100;
        int clients = args.length > 2 ? Integer.parseInt(args[2]) : 4;
        String gatewayJvm = System.getenv().getOrDefault("GATEWAY_JVM", DEFAULT_GATEWAY_JVM);

        HttpServer live1 = upstream();
        HttpServer live2 = upstream();
        SimpleCache<String> cache = new SimpleCache<>(node -> GROUP);
        Map<String, Long> ackedAt = new ConcurrentHashMap<>();
        V3DiscoveryServer discovery = new V3DiscoveryServer(new DiscoveryServerCallbacks() {
            @Override
            public void onV3StreamRequest(long streamId, DiscoveryRequest request) {
                if (request.getTypeUrl().equals(EDS_TYPE) && !request.hasErrorDetail()) {
                    ackedAt.putIfAbsent(request.getVersionInfo(), System.nanoTime());
                }
            }

            @Override
            public void onV3StreamDeltaRequest(long streamId, DeltaDiscoveryRequest request) {
            }
        }, cache);
        Server controlPlane = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0))
                .addService(discovery.getAggregatedDiscoveryServiceImpl()).build().start();
        List<Integer> livePorts = List.of(live1.getAddress().getPort(), live2.getAddress().getPort());
        int listenerPort = freePort();
        int adminPort = freePort();
        cache.setSnapshot(GROUP, snapshot("0", endpoints, livePorts, listenerPort, 0));

        GatewayJvm gateway = GatewayJvm.start("""
                admin: { address: 127.0.0.1, port: %d }
                node: { id: bench, cluster: bench }
                dynamic_resources: { ads_config: { address: 127.0.0.1, port: %d } }
                """.formatted(adminPort, controlPlane.getPort()), adminPort, gatewayJvm);
        URI target = URI.create("http://127.0.0.1:" + listenerPort + "/");
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        waitFor(() -> get(client, target) == 200, "the first configuration");

        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong ok = new AtomicLong();
        AtomicLong failed = new AtomicLong();
        AtomicLong maxLatencyNanos = new AtomicLong();
        var load = Executors.newFixedThreadPool(clients);
        for (int c = 0; c < clients; c++) {
            load.execute(() -> {
                while (!stop.get()) {
                    long start = System.nanoTime();
                    int status = get(client, target);
                    maxLatencyNanos.accumulateAndGet(System.nanoTime() - start, Math::max);
                    (status == 200 ? ok : failed).incrementAndGet();
                }
            });
        }
        TimeUnit.SECONDS.sleep(2);
        Scrape loadOnly = gateway.scrape();
        int gcLoadOnly = gateway.gcLog().lines();
        HostCpu cpuLoadOnly = gateway.hostCpu();
        long loadOnlyStart = System.nanoTime();
        TimeUnit.SECONDS.sleep(LOAD_ONLY_SECONDS);
        LoopDelays loopsLoadOnly = LoopDelays.read(gateway.scrape()).since(LoopDelays.read(loadOnly));
        cpuLoadOnly = gateway.hostCpu().since(cpuLoadOnly);
        double loadOnlySeconds = (System.nanoTime() - loadOnlyStart) / 1e9;
        String gcLoadOnlyPauses = gateway.gcLog().pausesSince(gcLoadOnly);
        maxLatencyNanos.set(0);
        List<Long> ackNanos = new ArrayList<>();
        List<Double> appliedMillis = new ArrayList<>();
        Scrape before = gateway.scrape();
        LoopDelays loopsBefore = LoopDelays.read(before);
        int gcMark = gateway.gcLog().lines();
        double appliedBefore = applied(before);
        HostCpu cpuDuring = gateway.hostCpu();
        long pushesStart = System.nanoTime();
        for (int push = 1; push <= pushes; push++) {
            String version = Integer.toString(push);
            long pushedAt = System.nanoTime();
            cache.setSnapshot(GROUP, snapshot(version, endpoints, livePorts, listenerPort, push));
            waitFor(() -> ackedAt.containsKey(version), "the ACK of version " + version);
            ackNanos.add(ackedAt.get(version) - pushedAt);
            // the gateway records the push's duration before it sends the ACK
            double appliedNow = applied(gateway.scrape());
            appliedMillis.add(appliedNow - appliedBefore);
            appliedBefore = appliedNow;
        }
        LoopDelays loopsDuring = LoopDelays.read(gateway.scrape()).since(loopsBefore);
        String gcDuring = gateway.gcLog().pausesSince(gcMark);
        cpuDuring = gateway.hostCpu().since(cpuDuring);
        double pushesSeconds = (System.nanoTime() - pushesStart) / 1e9;
        stop.set(true);
        load.shutdown();
        load.awaitTermination(10, TimeUnit.SECONDS);

        ackNanos.sort(null);
        appliedMillis.sort(null);
        System.out.printf("endpoints %d, pushes %d, clients %d: receipt to applied p50 %.1f ms, p90 %.1f ms, max %.1f ms;"
                + " snapshot to ACK p50 %.1f ms, max %.1f ms; client max latency during pushes %.1f ms;"
                + " requests ok %d, failed %d%n", endpoints, pushes, clients, appliedMillis.get(appliedMillis.size() / 2),
                appliedMillis.get(appliedMillis.size() * 9 / 10), appliedMillis.get(appliedMillis.size() - 1),
                ackNanos.get(ackNanos.size() / 2) / 1e6,
                ackNanos.get(ackNanos.size() - 1) / 1e6, maxLatencyNanos.get() / 1e6, ok.get(), failed.get());
        System.out.println("gateway event loops during the pushes: " + loopsDuring);
        System.out.println("gateway GC during the pushes: " + gcDuring);
        System.out.println("host CPU during the pushes (" + Math.round(pushesSeconds) + " s): "
                + cpuDuring.perSecond(pushesSeconds));
        System.out.println("gateway event loops under the same load without pushes, " + LOAD_ONLY_SECONDS + " s: "
                + loopsLoadOnly);
        System.out.println("gateway GC under the same load without pushes: " + gcLoadOnlyPauses);
        System.out.println("host CPU under the same load without pushes: "
                + cpuLoadOnly.perSecond(loadOnlySeconds));
        gateway.close();
        controlPlane.shutdownNow();
        live1.stop(0);
        live2.stop(0);
        System.exit(0); // the upstreams' and clients' executors are not daemons
    }

    /** The gateway's total time applying endpoint pushes so far, in milliseconds. */
    private static double applied(Scrape scrape) {
        return scrape.sum("tollgate_xds_update_duration_seconds_sum",
                labels -> "ClusterLoadAssignment".equals(labels.get("type"))) * 1e3;
    }

    private static int freePort() throws java.io.IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    private static int get(HttpClient client, URI target) {
        try {
            return client.send(HttpRequest.newBuilder(target)
                    .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (Exception e) {
            return -1;
        }
    }

    private static void waitFor(java.util.function.BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("not within 60 s: " + what);
            }
            TimeUnit.MILLISECONDS.sleep(1);
        }
    }

    private static HttpServer upstream() throws java.io.IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.setExecutor(Executors.newFixedThreadPool(2));
        server.createContext("/", exchange -> {
            exchange.sendResponseHeaders(200, -1);
            exchange.close();
        });
        server.start();
        return server;
    }

    /** The whole configuration; push {@code round} moves 1% of the idle hosts to another port. */
    private static Snapshot snapshot(String version, int endpoints, List<Integer> livePorts, int listenerPort, int round) {
        Cluster cluster = Cluster.newBuilder().setName("app").setType(Cluster.DiscoveryType.EDS)
                .setEdsClusterConfig(Cluster.EdsClusterConfig.newBuilder().setEdsConfig(ADS))
                .setLbSubsetConfig(Cluster.LbSubsetConfig.newBuilder()
                        .addSubsetSelectors(Cluster.LbSubsetConfig.LbSubsetSelector.newBuilder().addKeys("pool"))
                        .addSubsetSelectors(Cluster.LbSubsetConfig.LbSubsetSelector.newBuilder().addKeys("version")
                                .addKeys("zone")))
                .build();
        LocalityLbEndpoints.Builder hosts = LocalityLbEndpoints.newBuilder();
        for (int port : livePorts) {
            hosts.addLbEndpoints(endpoint("127.0.0.1", port, Map.of("pool", "live", "zone", "z0", "version", "v0")));
        }
        int moved = endpoints / 100;
        for (int i = 0; i < endpoints - livePorts.size(); i++) {
            boolean movedNow = i / moved % 100 == round % 100;
            String ip = "10." + (i >> 16 & 255) + "." + (i >> 8 & 255) + "." + (i & 255);
            hosts.addLbEndpoints(endpoint(ip, movedNow ? 8081 : 8080,
                    Map.of("pool", "idle", "zone", "z" + i % 10, "version", "v" + i % 5)));
        }
        ClusterLoadAssignment assignment = ClusterLoadAssignment.newBuilder().setClusterName("app").addEndpoints(hosts)
                .build();
        RouteConfiguration routes = RouteConfiguration.newBuilder().setName("web").addVirtualHosts(VirtualHost.newBuilder()
                .setName("all").addDomains("*").addRoutes(Route.newBuilder().setMatch(RouteMatch.newBuilder().setPrefix("/"))
                        .setRoute(RouteAction.newBuilder().setCluster("app").setMetadataMatch(labels(Map.of("pool", "live"))))))
                .build();
        HttpConnectionManager hcm = HttpConnectionManager.newBuilder().setStatPrefix("web").setRouteConfig(routes)
                .addHttpFilters(HttpFilter.newBuilder().setName("envoy.filters.http.router")
                        .setTypedConfig(Any.pack(Router.getDefaultInstance())))
                .build();
        Listener listener = Listener.newBuilder().setName("web").setAddress(address("127.0.0.1", listenerPort))
                .addFilterChains(FilterChain.newBuilder().addFilters(Filter.newBuilder()
                        .setName("envoy.filters.network.http_connection_manager").setTypedConfig(Any.pack(hcm))))
                .build();
        return Snapshot.create(List.of(cluster), "1", List.of(assignment), version, List.of(listener), "1", List.of(),
                "1", List.of(), "1");
    }

    private static LbEndpoint endpoint(String ip, int port, Map<String, String> labels) {
        return LbEndpoint.newBuilder().setEndpoint(Endpoint.newBuilder().setAddress(address(ip, port)))
                .setMetadata(labels(labels)).build();
    }

    private static Metadata labels(Map<String, String> labels) {
        Struct.Builder struct = Struct.newBuilder();
        labels.forEach((k, v) -> struct.putFields(k, Value.newBuilder().setStringValue(v).build()));
        return Metadata.newBuilder().putFilterMetadata("envoy.lb", struct.build()).build();
    }

    private static Address address(String ip, int port) {
        return Address.newBuilder().setSocketAddress(SocketAddress.newBuilder().setAddress(ip).setPortValue(port)).build();
    }
}
