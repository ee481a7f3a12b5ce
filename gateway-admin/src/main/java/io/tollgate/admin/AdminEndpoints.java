package io.tollgate.admin;

import static io.netty.handler.codec.http.HttpMethod.GET;
import static io.netty.handler.codec.http.HttpMethod.POST;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.tollgate.core.config.ConfigException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Every endpoint of the admin API, by path. Reading endpoints answer GET only; anything that
 * changes the process answers POST only, so that a scraper or a browser cannot change it.
 */
final class AdminEndpoints {

    private final Map<String, AdminEndpoint> byPath = new LinkedHashMap<>();
    /** The console's files, answered like endpoints but not listed by the index beyond {@code /ui}. */
    private final Map<String, AdminEndpoint> assets = new LinkedHashMap<>();

    AdminEndpoints(AdminContext context, Console console) {
        add(new AdminEndpoint(GET, "/", "this list", params -> index()));
        ConsoleAssets.load().forEach((path, answer) ->
                assets.put(path, new AdminEndpoint(GET, path, "the browser console", params -> answer)));
        add(assets.get("/ui"));
        add(new AdminEndpoint(GET, "/stats/series", "the last 15 minutes of the main meters, one sample a second,"
                + " as JSON", params -> console.series()));
        add(new AdminEndpoint(GET, "/access_log", "[?status=&route=&cluster=&flag=&limit=] the last requests"
                + " finished, as JSON", console::accessLog));
        add(new AdminEndpoint(GET, "/ready", "200 LIVE when taking traffic, else 503 and the state (e.g. DRAINING)",
                params -> context.ready()
                        ? AdminResponse.text(HttpResponseStatus.OK, "LIVE")
                        : AdminResponse.text(HttpResponseStatus.SERVICE_UNAVAILABLE, context.server().info().state())));
        add(new AdminEndpoint(GET, "/server_info", "version, state (LIVE, DRAINING, PRE_INITIALIZING, INITIALIZING),"
                + " uptime, restart epoch and command line, as JSON",
                params -> AdminResponse.json(ServerInfoJson.of(context.server().info()))));
        add(new AdminEndpoint(POST, "/healthcheck/fail", "makes /ready answer 503, draining nothing (loopback only)",
                params -> {
                    context.server().failHealthChecks(true);
                    return AdminResponse.text(HttpResponseStatus.OK, "OK");
                }, true));
        add(new AdminEndpoint(POST, "/healthcheck/ok", "undoes /healthcheck/fail (loopback only)",
                params -> {
                    context.server().failHealthChecks(false);
                    return AdminResponse.text(HttpResponseStatus.OK, "OK");
                }, true));
        add(new AdminEndpoint(POST, "/drain_listeners", "[?graceful] drains every listener, the process staying up;"
                + " graceful: they accept until the drain ends (loopback only)",
                params -> {
                    context.server().drainListeners(params.containsKey("graceful"));
                    return AdminResponse.text(HttpResponseStatus.OK, "OK");
                }, true));
        add(new AdminEndpoint(POST, "/quitquitquit", "drains every listener, then exits (loopback only)",
                params -> {
                    context.server().quit();
                    return AdminResponse.text(HttpResponseStatus.OK, "OK");
                }, true));
        add(new AdminEndpoint(GET, "/stats", "every meter as JSON",
                params -> AdminResponse.json(StatsJson.of(context.prometheus()))));
        add(new AdminEndpoint(GET, "/stats/prometheus", "every meter in the Prometheus text format",
                params -> new AdminResponse(HttpResponseStatus.OK, "text/plain; version=0.0.4; charset=utf-8",
                        context.prometheus().scrape())));
        add(new AdminEndpoint(GET, "/config_dump", "the configuration being served and its version (and each xDS"
                + " resource's version, update time and last NACK), as JSON",
                params -> AdminResponse.json(configDump(context))));
        add(new AdminEndpoint(GET, "/config/version", "the version of the configuration being served",
                params -> AdminResponse.text(HttpResponseStatus.OK, Long.toString(context.served().version()))));
        add(new AdminEndpoint(POST, "/config/reload", "reads the configuration file again and applies it (loopback only)",
                params -> reload(context), true));
        add(new AdminEndpoint(GET, "/clusters", "clusters and their hosts with health and load, as JSON",
                params -> AdminResponse.json(TopologyJson.clusters(context.clusters()))));
        add(new AdminEndpoint(GET, "/services", "services found in service registries: registry, cluster, providers"
                + " with labels, weight and health; and each registry's state, as JSON",
                params -> AdminResponse.json(ServicesJson.of(context.registries(), context.discoveredServices(),
                        context.clusters()))));
        ListenerCall call = new ListenerCall(context);
        add(new AdminEndpoint(POST, ListenerCall.PATH, "?listener=NAME&path=/prefix/service/method[&types=]"
                + " sends the body (JSON arguments) as a POST through that HTTP listener and answers its status,"
                + " body and time, as JSON", call::call, false));
        add(new AdminEndpoint(GET, "/listeners", "bound listeners, as JSON",
                params -> AdminResponse.json(TopologyJson.listeners(context.listeners()))));
        add(new AdminEndpoint(POST, "/logging", "?level=debug[&logger=name] sets a log level (root by default)",
                LogLevels::set));
    }

    /** The configuration as JSON with {@code version} as its first field, both of one published snapshot. */
    private static JsonNode configDump(AdminContext context) {
        ServedConfig served = context.served();
        ObjectNode dump = AdminResponse.mapper().createObjectNode().put("version", served.version());
        dump.setAll((ObjectNode) ConfigJson.of(served.config()));
        if (served.config().xds().isPresent()) {
            dump.set("xds_resources", ConfigJson.of(context.xdsResources()));
        }
        if (!served.config().discovery().registries().isEmpty()) {
            dump.set("registry_states", ConfigJson.of(context.registries()));
        }
        return dump;
    }

    /** 200 with the applied version, or 400 with why the file was rejected (the running configuration stays). */
    private static AdminResponse reload(AdminContext context) {
        try {
            return AdminResponse.text(HttpResponseStatus.OK, "applied version " + context.reload());
        } catch (ConfigException e) {
            return AdminResponse.text(HttpResponseStatus.BAD_REQUEST, "rejected, still serving version "
                    + context.served().version() + ": " + e.getMessage());
        }
    }

    /** Returns the endpoint at this path, or null. */
    AdminEndpoint find(String path) {
        AdminEndpoint endpoint = byPath.get(path);
        return endpoint != null ? endpoint : assets.get(path);
    }

    private void add(AdminEndpoint endpoint) {
        byPath.put(endpoint.path(), endpoint);
    }

    private AdminResponse index() {
        StringBuilder text = new StringBuilder("Tollgate admin API\n\n");
        for (AdminEndpoint endpoint : byPath.values()) {
            text.append(String.format("%-5s %-18s %s\n", endpoint.method(), endpoint.path(), endpoint.help()));
        }
        text.append(String.format("%-5s %-18s %s\n", GET, EventStream.PATH,
                "each new sample and access-log record as server-sent events (text/event-stream)"));
        return AdminResponse.text(HttpResponseStatus.OK, text.toString());
    }
}
