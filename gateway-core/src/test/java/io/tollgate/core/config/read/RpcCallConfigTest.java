package io.tollgate.core.config.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tollgate.core.config.ConfigException;
import io.tollgate.core.config.ForwardActionConfig;
import io.tollgate.core.config.RouteEntryConfig;
import io.tollgate.core.config.RpcCallConfig;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A route's {@code rpc_call} action as configuration reads it, and what it refuses. */
class RpcCallConfigTest {

    private static String config(String route) {
        return """
                listeners:
                  - name: http
                    route_config:
                      virtual_hosts:
                        - name: vh
                          domains: ["*"]
                          routes: [%s]
                clusters: [{ name: orders, endpoints: [{ address: 127.0.0.1, port: 20880 }] }]
                """.formatted(route);
    }

    private static RouteEntryConfig route(String route) {
        return ConfigLoader.parse(config(route)).listeners().get(0).routeConfig().virtualHosts().get(0).routes().get(0);
    }

    @Test
    void readsTheCallAndWhereItGoes() {
        RouteEntryConfig route = route("""
                { match: { prefix: /sofa/ }, rpc_call: { protocol: sofa, cluster: orders, timeout: 2s,
                  retry_policy: { retry_on: [rpc-busy], num_retries: 2 },
                  methods: { com.example.OrderService: [
                    { name: nextId, parameter_types: [long] },
                    { name: total, parameter_types: ["java.util.List<java.math.BigDecimal>"] } ] } } }""");

        RpcCallConfig call = route.rpcCall().orElseThrow();
        assertThat(call.protocol()).isEqualTo(RpcCallConfig.Protocol.SOFA);
        assertThat(call.protocol().engine()).isEqualTo("bolt");
        assertThat(call.prefix()).isEqualTo("/sofa");
        assertThat(call.methods()).isEqualTo(Map.of("com.example.OrderService", List.of(
                new RpcCallConfig.Method("nextId", List.of("long")),
                new RpcCallConfig.Method("total", List.of("java.util.List<java.math.BigDecimal>")))));
        ForwardActionConfig forward = route.forward().orElseThrow();
        assertThat(forward.cluster()).contains("orders");
        assertThat(forward.timeout()).isEqualTo(Duration.ofSeconds(2));
        assertThat(forward.retryPolicy().orElseThrow().numRetries()).isEqualTo(2);
        assertThat(route("{ match: { prefix: /dubbo }, rpc_call: { protocol: dubbo, cluster: orders } }")
                .rpcCall().orElseThrow().prefix()).isEqualTo("/dubbo");
        RpcCallConfig grpc = route("{ match: { prefix: /grpc/ }, rpc_call: { protocol: triple, cluster: orders, "
                + "descriptor_set: /etc/orders.pb } }").rpcCall().orElseThrow();
        assertThat(grpc.protocol().grpc()).isTrue();
        assertThat(grpc.descriptorSet()).isEqualTo("/etc/orders.pb");
        assertThat(grpc.prefix()).isEqualTo("/grpc");
    }

    @Test
    void refusesWhatACallCannotDo() {
        String routes = "listeners[0].route_config.virtual_hosts[0].routes[0]";
        assertThatThrownBy(() -> route("{ match: { path: /dubbo }, rpc_call: { protocol: dubbo, cluster: orders } }"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining(routes + ".rpc_call: needs a prefix match");
        assertThatThrownBy(() -> route("{ match: { prefix: /x/ }, rpc_call: { protocol: thrift, cluster: orders } }"))
                .isInstanceOf(ConfigException.class).hasMessageContaining(
                        routes + ".rpc_call.protocol: unknown protocol 'thrift' (expected dubbo, sofa, grpc or triple)");
        assertThatThrownBy(() -> route("{ match: { prefix: /x/ }, rpc_call: { protocol: dubbo, cluster: orders, "
                + "descriptor_set: /a.pb } }"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining(routes + ".rpc_call.descriptor_set: is for grpc and triple");
        assertThatThrownBy(() -> route("{ match: { prefix: /x/ }, rpc_call: { protocol: grpc, cluster: orders, "
                + "methods: { a.B: [] } } }"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining(routes + ".rpc_call.methods: is for dubbo and sofa");
        assertThatThrownBy(() -> route("{ match: { prefix: /x/ }, rpc_call: { protocol: dubbo, cluster: orders, "
                + "prefix_rewrite: /y/ } }"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining(routes + ".rpc_call.prefix_rewrite: unknown field");
        assertThatThrownBy(() -> route("{ match: { prefix: /x/ }, rpc_call: { protocol: dubbo, cluster: nope } }"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("nope");
        assertThatThrownBy(() -> route("{ match: { prefix: /x/ }, route: { cluster: orders }, "
                + "rpc_call: { protocol: dubbo, cluster: orders } }"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("needs exactly one of route, direct_response, redirect, rpc_call (found 2)");
    }
}
