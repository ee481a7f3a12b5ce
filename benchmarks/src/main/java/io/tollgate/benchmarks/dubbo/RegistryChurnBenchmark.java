package io.tollgate.benchmarks.dubbo;

import io.netty.channel.Channel;
import io.netty.channel.EventLoopGroup;
import io.tollgate.benchmarks.xds.GatewayJvm;
import io.tollgate.benchmarks.xds.HostCpu;
import io.tollgate.benchmarks.xds.LoopDelays;
import io.tollgate.benchmarks.xds.Scrape;
import io.tollgate.server.transport.Transport;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.TestingServer;
import org.apache.zookeeper.CreateMode;

/**
 * Service discovery at scale under churn: a real ZooKeeper server (Curator's {@link TestingServer})
 * holds {@code services x providersPerService} Dubbo provider registrations, written as Dubbo 3.3.6
 * writes them at interface level ({@code /dubbo/{interface}/providers/{URL-encoded URL}}, ephemeral,
 * with its URL parameters), and a gateway in a JVM of its own ({@link GatewayJvm}) routes every
 * Dubbo call to the providers of its own service through a {@code per_service: dubbo} template
 * (no service named in its file). The providers are {@value #PROCESSES} real Dubbo upstreams
 * ("processes", {@link DubboUpstreamServer}'s answer on ports of 127.0.0.1), each exporting a
 * tenth of the services, so every provider of every service answers and every call can succeed,
 * as with real applications that export many interfaces on one port.
 *
 * <p>Every service is called once first (which makes its cluster), then a paced load calls the
 * services in turn while, every second, 1 % of the registrations re-register as a restarted Dubbo
 * provider does (its node deleted, a node with a new {@code timestamp} created: a new start, so
 * Dubbo's warmup ramps its weight again). Prints the gateway's live heap (after a full GC) before
 * and after the churn, the time from each registry event's receipt to the new host set serving
 * (the gateway's {@code tollgate.registry.change_to_serving} timer), its event-loop delay probe
 * ({@link LoopDelays}), the failed calls and the CPU time.
 *
 * <p>Usage: {@code RegistryChurnBenchmark [services] [providersPerService] [seconds] [callsPerSecond]}
 * (defaults 1000, 10, 60, 2000); the gateway JVM's options from {@code GATEWAY_JVM}, its CPUs from
 * {@code GATEWAY_CPUS} (see {@link GatewayJvm}).
 */
public final class RegistryChurnBenchmark {

    private static final String DEFAULT_GATEWAY_JVM =
            "-Xms512m -Xmx512m -XX:+UseSerialGC -Dio.netty.leakDetection.level=disabled";
    private static final int PROCESSES = 100;
    private static final int CONNECTIONS = 4;
    /** Registrations are made long ago, so that only the re-registered ones warm up. */
    private static final long HOUR_MILLIS = 3_600_000;

    private RegistryChurnBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int serviceCount = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
        int perService = args.length > 1 ? Integer.parseInt(args[1]) : 10;
        int seconds = args.length > 2 ? Integer.parseInt(args[2]) : 60;
        int callsPerSecond = args.length > 3 ? Integer.parseInt(args[3]) : 2000;
        if (perService > PROCESSES) {
            throw new IllegalArgumentException("at most " + PROCESSES + " providers per service");
        }
        String gatewayJvm = System.getenv().getOrDefault("GATEWAY_JVM", DEFAULT_GATEWAY_JVM);

        Transport transport = Transport.best();
        EventLoopGroup upstreamLoop = transport.newGroup(1, "dubbo-upstreams");
        int[] ports = new int[PROCESSES];
        for (int i = 0; i < PROCESSES; i++) {
            Channel server = io.tollgate.benchmarks.rpc.RpcUpstreamServer.bind(upstreamLoop, transport, 0,
                    DubboWire.FRAMES, DubboUpstreamServer::answer);
            ports[i] = ((InetSocketAddress) server.localAddress()).getPort();
        }
        List<String> services = new ArrayList<>();
        for (int s = 0; s < serviceCount; s++) {
            services.add(String.format("com.example.bench.Service%04d", s));
        }

        try (TestingServer zookeeper = new TestingServer(true);
                CuratorFramework registry = CuratorFrameworkFactory.newClient(zookeeper.getConnectString(),
                        new RetryOneTime(100))) {
            registry.start();
            registry.blockUntilConnected();
            long start = System.currentTimeMillis();
            // the node of each registration (service s, provider k), to re-register it
            String[][] nodes = new String[serviceCount][perService];
            for (int s = 0; s < serviceCount; s++) {
                for (int k = 0; k < perService; k++) {
                    nodes[s][k] = register(registry, services.get(s), ports[(s + k * PROCESSES / perService) % PROCESSES],
                            start - HOUR_MILLIS);
                }
            }
            System.out.printf("ZooKeeper %s: %d services, %d provider registrations written in %d ms%n",
                    zookeeper.getConnectString(), serviceCount, serviceCount * perService,
                    System.currentTimeMillis() - start);

            int adminPort = freePort();
            int dubboPort = freePort();
            GatewayJvm gateway = GatewayJvm.start(config(adminPort, dubboPort, zookeeper.getConnectString()), adminPort,
                    gatewayJvm);
            long warmStart = System.nanoTime();
            long warmFailures = ServiceCallLoad.callEachOnce(services, dubboPort, 50);
            System.out.printf("first call of each service (makes its cluster): %.1f s, %d failed%n",
                    (System.nanoTime() - warmStart) / 1e9, warmFailures);
            System.out.println("gateway live heap before the churn: " + liveHeap(gateway));

            ServiceCallLoad load = ServiceCallLoad.start(services, dubboPort, CONNECTIONS, callsPerSecond);
            TimeUnit.SECONDS.sleep(2);
            Scrape before = gateway.scrape();
            HostCpu cpu = gateway.hostCpu();
            int gcMark = gateway.gcLog().lines();
            long churnStart = System.nanoTime();
            int perTick = Math.max(1, serviceCount * perService / 100);
            long slowestTickNanos = 0;
            for (int tick = 0; tick < seconds; tick++) {
                long tickStart = System.nanoTime();
                for (int j = 0; j < perTick; j++) {
                    // distinct services in a tick; each service's providers in turn over the ticks
                    int s = (int) (((long) tick * perTick + j) % serviceCount);
                    int k = (int) (((long) tick * perTick + j) / serviceCount % perService);
                    registry.delete().forPath(nodes[s][k]);
                    nodes[s][k] = register(registry, services.get(s),
                            ports[(s + k * PROCESSES / perService) % PROCESSES], System.currentTimeMillis());
                }
                long spent = System.nanoTime() - tickStart;
                slowestTickNanos = Math.max(slowestTickNanos, spent);
                long rest = TimeUnit.SECONDS.toNanos(1) - spent;
                if (rest > 0) {
                    TimeUnit.NANOSECONDS.sleep(rest);
                }
            }
            TimeUnit.SECONDS.sleep(2); // the last tick's changes served
            double churnSeconds = (System.nanoTime() - churnStart) / 1e9;
            Scrape after = gateway.scrape();
            cpu = gateway.hostCpu().since(cpu);
            String calls = load.stop(10);
            load.close();

            System.out.printf("churn: %d s, %d re-registrations a second (%d ms at most to write a second's)%n",
                    seconds, perTick, TimeUnit.NANOSECONDS.toMillis(slowestTickNanos));
            System.out.println("registry event to hosts serving: " + servedDelays(before, after));
            System.out.println("gateway event loops during the churn: " + LoopDelays.read(after).since(LoopDelays.read(before)));
            System.out.println("gateway GC during the churn: " + gateway.gcLog().pausesSince(gcMark));
            System.out.println("load (" + callsPerSecond + " calls/s over " + CONNECTIONS + " connections): " + calls);
            System.out.println("host CPU during the churn: " + cpu.perSecond(churnSeconds));
            System.out.println("gateway live heap after the churn: " + liveHeap(gateway));
            gateway.close();
        } finally {
            upstreamLoop.shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
        }
        System.exit(0);
    }

    /** Writes a provider registration as Dubbo 3.3.6 does at interface level; returns its node. */
    private static String register(CuratorFramework registry, String service, int port, long timestamp)
            throws Exception {
        String url = "dubbo://127.0.0.1:" + port + "/" + service + "?anyhost=true&application=bench-app-" + port
                + "&background=false&deprecated=false&dubbo=2.0.2&dynamic=true&generic=false&interface=" + service
                + "&ipv6=false&methods=echo&pid=" + port + "&prefer.serialization=hessian2,fastjson2&release=3.3.6"
                + "&service-name-mapping=true&side=provider&timestamp=" + timestamp;
        String node = "/dubbo/" + service + "/providers/" + URLEncoder.encode(url, StandardCharsets.UTF_8);
        registry.create().creatingParentsIfNeeded().withMode(CreateMode.EPHEMERAL).forPath(node, new byte[0]);
        return node;
    }

    private static String config(int adminPort, int dubboPort, String ensemble) {
        return """
                admin: { address: 127.0.0.1, port: %d }
                registries:
                  - { name: zk, type: zookeeper, ensemble: "%s" }
                listeners:
                  - name: dubbo
                    address: 127.0.0.1
                    port: %d
                    protocols: [dubbo]
                    route_config:
                      virtual_hosts:
                        - name: every-dubbo-service
                          domains: ["*"]
                          routes:
                            - match: { prefix: / }
                              route: { cluster: dubbo-services, timeout: 3s }
                clusters:
                  - name: dubbo-services
                    lb_policy: round_robin
                    discovery: { registry: zk, per_service: dubbo }
                """.formatted(adminPort, ensemble, dubboPort);
    }

    /**
     * The {@code tollgate.registry.change_to_serving} timer between two scrapes: count, mean, and
     * the bucket bounds its 50th and 99th percentiles fall under.
     */
    private static String servedDelays(Scrape before, Scrape after) {
        Map<Double, Double> buckets = new TreeMap<>();
        for (Scrape.Sample sample : after.samples()) {
            String le = sample.labels().get("le");
            if (sample.name().equals("tollgate_registry_change_to_serving_seconds_bucket") && !le.equals("+Inf")) {
                double bound = Double.parseDouble(le);
                double earlier = before.sum(sample.name(), labels -> le.equals(labels.get("le")));
                buckets.put(bound * 1e3, sample.value() - earlier);
            }
        }
        double count = after.sum("tollgate_registry_change_to_serving_seconds_count", l -> true)
                - before.sum("tollgate_registry_change_to_serving_seconds_count", l -> true);
        double sum = after.sum("tollgate_registry_change_to_serving_seconds_sum", l -> true)
                - before.sum("tollgate_registry_change_to_serving_seconds_sum", l -> true);
        return String.format("%.0f publications, mean %.1f ms, p50 <= %s, p99 <= %s, max %.1f ms (since start)", count,
                count == 0 ? 0 : sum / count * 1e3, under(buckets, count * 0.50), under(buckets, count * 0.99),
                after.max("tollgate_registry_change_to_serving_seconds_max") * 1e3);
    }

    private static String under(Map<Double, Double> buckets, double rank) {
        for (Map.Entry<Double, Double> bucket : buckets.entrySet()) {
            if (bucket.getValue() >= rank) {
                return String.format("%.0f ms", bucket.getKey());
            }
        }
        return "above the largest bucket";
    }

    /** The gateway's live heap: {@code jcmd GC.class_histogram} runs a full GC and sums what stays. */
    private static String liveHeap(GatewayJvm gateway) throws IOException, InterruptedException {
        Process jcmd = new ProcessBuilder(java.nio.file.Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(),
                Long.toString(gateway.pid()), "GC.class_histogram").redirectErrorStream(true).start();
        String out = new String(jcmd.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        jcmd.waitFor();
        for (String line : out.split("\n")) {
            if (line.startsWith("Total")) {
                String[] fields = line.trim().split("\\s+");
                return String.format("%.1f MB in %s objects", Long.parseLong(fields[2]) / 1048576.0, fields[1]);
            }
        }
        return "unknown (jcmd: " + out.strip() + ")";
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}
