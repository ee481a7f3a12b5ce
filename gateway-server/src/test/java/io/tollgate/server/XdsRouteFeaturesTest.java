package io.tollgate.server;

import static io.tollgate.server.EnvoyResources.rdsListener;
import static io.tollgate.server.EnvoyResources.staticCluster;
import static io.tollgate.server.XdsTestBed.upstreamOf;
import static org.assertj.core.api.Assertions.assertThat;

import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.envoyproxy.envoy.config.core.v3.HeaderValue;
import io.envoyproxy.envoy.config.core.v3.HeaderValueOption;
import io.envoyproxy.envoy.config.route.v3.DirectResponseAction;
import io.envoyproxy.envoy.config.route.v3.RedirectAction;
import io.envoyproxy.envoy.config.route.v3.Route;
import io.envoyproxy.envoy.config.route.v3.RouteAction;
import io.envoyproxy.envoy.config.route.v3.RouteConfiguration;
import io.envoyproxy.envoy.config.route.v3.RouteMatch;
import io.envoyproxy.envoy.config.route.v3.VirtualHost;
import io.tollgate.server.testing.Await;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Envoy route features over RDS, seen by the JDK's client through real upstreams: redirects,
 * direct responses, header mutations at route and virtual host level, and hashing by a header
 * onto a ring hash cluster; a feature the gateway lacks is refused with a NACK naming the field.
 */
class XdsRouteFeaturesTest {

    private static final Duration LIMIT = Duration.ofSeconds(30);

    @RegisterExtension
    final XdsTestBed bed = new XdsTestBed();

    @Test
    void redirectsDirectResponsesHeaderMutationsAndHashPoliciesServe() throws Exception {
        int a = bed.upstream("a");
        int b = bed.upstream("b");
        int c = bed.upstream("c");
        bed.startControlPlane();
        Cluster ring = staticCluster("app", a, b, c).toBuilder().setLbPolicy(Cluster.LbPolicy.RING_HASH).build();
        VirtualHost host = VirtualHost.newBuilder().setName("all").addDomains("*")
                .addRequestHeadersToAdd(header("x-vhost", "v"))
                .addRoutes(Route.newBuilder().setMatch(RouteMatch.newBuilder().setPrefix("/old"))
                        .setRedirect(RedirectAction.newBuilder().setHttpsRedirect(true).setHostRedirect("example.com")
                                .setResponseCode(RedirectAction.RedirectResponseCode.FOUND)))
                .addRoutes(Route.newBuilder().setMatch(RouteMatch.newBuilder().setPath("/here"))
                        .setDirectResponse(DirectResponseAction.newBuilder().setStatus(203)
                                .setBody(io.envoyproxy.envoy.config.core.v3.DataSource.newBuilder().setInlineString("here"))))
                .addRoutes(Route.newBuilder().setMatch(RouteMatch.newBuilder().setPrefix("/"))
                        .addRequestHeadersToAdd(header("x-route", "r"))
                        .addRequestHeadersToRemove("x-drop")
                        .addResponseHeadersToAdd(header("x-served-by", "tollgate"))
                        .addResponseHeadersToRemove("content-type")
                        .setRoute(RouteAction.newBuilder().setCluster("app").addHashPolicy(RouteAction.HashPolicy.newBuilder()
                                .setHeader(RouteAction.HashPolicy.Header.newBuilder().setHeaderName("x-user")))))
                .build();
        bed.controlPlane.push("1", List.of(ring), List.of(), List.of(rdsListener("web", 0, "web-routes")),
                List.of(RouteConfiguration.newBuilder().setName("web-routes").addVirtualHosts(host).build()));
        startGateway();

        HttpResponse<String> redirect = get("/old/page?q=1", "");
        assertThat(redirect.statusCode()).isEqualTo(302);
        assertThat(redirect.headers().firstValue("location")).hasValue("https://example.com/old/page?q=1");

        HttpResponse<String> direct = get("/here", "");
        assertThat(direct.statusCode()).isEqualTo(203);
        assertThat(direct.body()).isEqualTo("here");

        HttpResponse<String> proxied = get("/x", "u0");
        assertThat(proxied.body()).contains("h-x-route: r", "h-x-vhost: v").doesNotContain("h-x-drop");
        assertThat(proxied.headers().firstValue("x-served-by")).hasValue("tollgate");
        assertThat(proxied.headers().firstValue("content-type")).as("set by the upstream, removed").isEmpty();

        Set<String> used = new HashSet<>();
        for (int user = 0; user < 12; user++) {
            String first = upstreamOf(get("/x", "u" + user));
            for (int i = 0; i < 4; i++) {
                assertThat(upstreamOf(get("/x", "u" + user))).as("user u" + user).isEqualTo(first);
            }
            used.add(first);
        }
        assertThat(used).hasSizeGreaterThan(1);
    }

    @Test
    void aRouteFeatureTheGatewayLacksIsNackedNamingTheField() throws Exception {
        bed.startControlPlane();
        RouteConfiguration routes = RouteConfiguration.newBuilder().setName("web-routes")
                .addVirtualHosts(VirtualHost.newBuilder().setName("all").addDomains("*")
                        .addRoutes(Route.newBuilder().setMatch(RouteMatch.newBuilder().setPrefix("/"))
                                .setRoute(RouteAction.newBuilder().setCluster("app").addHashPolicy(
                                        RouteAction.HashPolicy.newBuilder().setQueryParameter(
                                                RouteAction.HashPolicy.QueryParameter.newBuilder().setName("u"))))))
                .build();
        bed.controlPlane.push("1", List.of(staticCluster("app", bed.upstream("a"))), List.of(),
                List.of(rdsListener("web", 0, "web-routes")), List.of(routes));
        startGateway();

        Await.until("a NACK of the routes", LIMIT, () -> !bed.controlPlane.nacks().isEmpty());
        assertThat(bed.controlPlane.nacks().get(0).getErrorDetail().getMessage())
                .startsWith("RouteConfiguration 'web-routes'.virtual_hosts[0].routes[0].route.hash_policy[0]"
                        + ".query_parameter: not supported");
    }

    private static HeaderValueOption header(String name, String value) {
        return HeaderValueOption.newBuilder().setHeader(HeaderValue.newBuilder().setKey(name).setValue(value))
                .setAppendAction(HeaderValueOption.HeaderAppendAction.OVERWRITE_IF_EXISTS_OR_ADD).build();
    }

    private HttpResponse<String> get(String path, String user) throws IOException, InterruptedException {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("x-drop", "gone");
        if (!user.isEmpty()) {
            headers.put("x-user", user);
        }
        return bed.get("web", path, headers);
    }

    private void startGateway() throws Exception {
        bed.launchGateway(bed.controlPlane.bootstrap());
        Await.until("the listener bound", LIMIT, () -> XdsTestBed.listenersBound(bed.gateway, 1)
                || !bed.controlPlane.nacks().isEmpty());
    }
}
