// The Tollgate console: reads the admin API's JSON endpoints and its server-sent-events stream
// (/stats/stream) and draws them. Everything it shows comes from documented endpoints (docs/admin.md).
"use strict";
(function () {
  const KEEP = 900;                 // samples: 15 minutes at one a second
  const LOG_ROWS = 500;             // access-log rows shown
  const series = { time: [], values: {} };
  let latest = { listeners: {}, routes: {}, clusters: {} };
  let configVersion = null;
  let configDump = null;
  let logFilter = {};

  // ---- small DOM helpers: text only, never markup built from data ----
  function $(id) { return document.getElementById(id); }
  function node(tag, text, cls) {
    const n = document.createElement(tag);
    if (text !== undefined && text !== null) n.textContent = String(text);
    if (cls) n.className = cls;
    return n;
  }
  function row(cells, cls) {
    const tr = node("tr", null, cls);
    for (const c of cells) tr.appendChild(c instanceof Node ? c : node("td", c === null || c === undefined ? "-" : c));
    return tr;
  }
  function num(v, digits) {
    const td = node("td", v === null || v === undefined ? "-" : Number(v).toFixed(digits === undefined ? 1 : digits), "num");
    return td;
  }
  function fill(tbody, rows) {
    tbody.replaceChildren(...rows);
  }
  async function getJson(path) {
    const response = await fetch(path, { cache: "no-store" });
    if (!response.ok) throw new Error(path + ": " + response.status);
    return response.json();
  }

  // ---- tabs ----
  document.querySelectorAll("#tabs button").forEach((b) => b.addEventListener("click", () => {
    document.querySelectorAll("#tabs button").forEach((x) => x.classList.toggle("active", x === b));
    document.querySelectorAll(".tab").forEach((t) => t.classList.toggle("active", t.id === b.dataset.tab));
    drawCharts();
  }));

  // ---- time series ----
  const BREAKDOWN = ["time", "listeners", "routes", "clusters"];
  function addSample(sample) {
    latest = { listeners: sample.listeners || {}, routes: sample.routes || {}, clusters: sample.clusters || {} };
    if (series.time.length && sample.time <= series.time[series.time.length - 1]) return; // already in the ring
    for (const name of Object.keys(sample)) {
      if (!BREAKDOWN.includes(name) && !(name in series.values)) series.values[name] = series.time.map(() => null);
    }
    series.time.push(sample.time);
    for (const name of Object.keys(series.values)) series.values[name].push(sample[name] === undefined ? null : sample[name]);
    if (series.time.length > KEEP) {
      series.time.shift();
      for (const name of Object.keys(series.values)) series.values[name].shift();
    }
  }
  function column(name) { return series.values[name] || []; }
  function drawCharts() {
    if (!$("overview").classList.contains("active")) return;
    TollgateChart.draw($("chart-rq"), series.time, [{ values: column("rq"), label: "rq/s" }]);
    TollgateChart.draw($("chart-errors"), series.time, [
      { values: column("rq_4xx"), label: "4xx" }, { values: column("rq_5xx"), label: "5xx" },
      { values: column("rq_error"), label: "err" }]);
    TollgateChart.draw($("chart-latency"), series.time, [
      { values: column("p50_ms"), label: "p50" }, { values: column("p99_ms"), label: "p99" }]);
    TollgateChart.draw($("chart-cx"), series.time, [{ values: column("cx_active"), label: "cx" }]);
  }
  async function loadSeries() {
    const ring = await getJson("/stats/series");
    series.time = ring.time;
    series.values = ring.series;
    drawCharts();
  }
  function openStream() {
    const source = new EventSource("/stats/stream");
    source.onopen = () => { $("stream-status").textContent = "live"; };
    source.onerror = () => { $("stream-status").textContent = "reconnecting…"; };
    source.addEventListener("sample", (e) => {
      addSample(JSON.parse(e.data));
      drawCharts();
      renderListeners();
    });
    source.addEventListener("access_log", (e) => appendLog(JSON.parse(e.data)));
  }

  // ---- overview ----
  async function pollServer() {
    try {
      const info = await getJson("/server_info");
      const state = $("state");
      state.textContent = info.state;
      state.className = "state state-" + info.state;
      $("version").textContent = info.version;
      $("uptime").textContent = info.uptime_current_epoch + " (all epochs " + info.uptime_all_epochs + ")";
      $("epoch").textContent = String(info.restart_epoch);
      const version = (await (await fetch("/config/version", { cache: "no-store" })).text()).trim();
      if (version !== configVersion || configDump === null) {
        configVersion = version;
        configDump = await getJson("/config_dump");
        renderConfig(info);
        renderRoutes();
      }
    } catch (e) {
      $("state").textContent = "unreachable";
      $("state").className = "state state-DRAINING";
    }
  }
  function renderConfig(info) {
    $("config-version").textContent = "version " + configVersion;
    const path = info.command_line_options.config_path;
    const source = configDump.xds ? "xDS" + (path ? " (bootstrap " + path + ")" : "") : path ? "file " + path : "built-in";
    $("config-source").textContent = source;
    const table = $("xds-resources");
    const resources = configDump.xds_resources || [];
    table.classList.toggle("hidden", resources.length === 0);
    fill(table.tBodies[0], resources.map((r) => row([r.type, r.name, r.version, r.last_updated,
      r.last_nack ? JSON.stringify(r.last_nack) : "-"], r.last_nack ? "host-bad" : "")));
  }

  // ---- listeners and routes ----
  let boundListeners = [];
  async function pollListeners() {
    try {
      boundListeners = (await getJson("/listeners")).listeners;
      renderListeners();
    } catch (e) { /* shown by the state badge */ }
  }
  function listenerConfig(name) {
    return ((configDump && configDump.listeners) || []).find((l) => l.name === name) || {};
  }
  function renderListeners() {
    fill($("listener-table").tBodies[0], boundListeners.map((l) => {
      const now = latest.listeners[l.name] || {};
      const config = listenerConfig(l.name);
      const filters = (config.filters || []).map((f) => f.name || f.type || "?")
        .concat((config.network_filters || []).map((f) => (f.name || f.type || "?") + " (network)"));
      const tr = row([l.name, l.address + ":" + l.port, l.protocols.join(", "), num(now.cx_active, 0), num(now.rq),
        filters.join(", ") || "-"]);
      tr.dataset.listener = l.name;
      return tr;
    }));
    renderRoutes();
  }
  // A route's match without its empty parts, e.g. {"prefix":"/api"}.
  function describeMatch(match) {
    const shown = {};
    for (const [k, v] of Object.entries(match || {})) {
      if (!(Array.isArray(v) && v.length === 0) && v !== null) shown[k] = v;
    }
    return JSON.stringify(shown);
  }
  function renderRoutes() {
    const holder = $("route-tables");
    const parts = [];
    for (const listener of (configDump && configDump.listeners) || []) {
      const hosts = (listener.route_config && listener.route_config.virtual_hosts) || [];
      if (hosts.length === 0) continue;
      parts.push(node("h2", "Routes of " + listener.name));
      const meters = latest.routes[listener.name] || {};
      for (const vhost of hosts) {
        parts.push(node("h3", vhost.name + " — " + (vhost.domains || []).join(", ")));
        const table = node("table");
        table.appendChild(row(["route", "match", "action", "rq/s", "4xx/s", "5xx/s", "p50 ms", "p99 ms"]
          .map((h) => node("th", h))));
        for (const route of vhost.routes || []) {
          const m = meters[route.name] || {};
          const action = route.rpc_call ? "HTTP → " + String(route.rpc_call.protocol).toLowerCase() + " call → "
            + ((route.forward || {}).cluster || "weighted clusters") : route.forward ? "→ " + (route.forward.cluster || (route.forward.weighted_clusters || [])
            .map((w) => w.name + "×" + w.weight).join(", ")) : route.direct_response ? "direct " + route.direct_response.status
            : route.redirect ? "redirect" : "-";
          const tr = row([route.name, describeMatch(route.match), action, num(m.rq), num(m.rq_4xx), num(m.rq_5xx),
            num(m.p50_ms, 2), num(m.p99_ms, 2)],
            m.rq_5xx > 0 ? "status-5" : "");
          tr.dataset.route = route.name;
          table.appendChild(tr);
        }
        parts.push(table);
      }
    }
    holder.replaceChildren(...parts);
  }

  // ---- clusters and hosts ----
  async function pollClusters() {
    try {
      renderClusters((await getJson("/clusters")).clusters);
    } catch (e) { /* shown by the state badge */ }
  }
  function subsetSizes(cluster) {
    const sizes = [];
    for (const selector of cluster.subsets.selectors) {
      const groups = new Map();
      for (const h of cluster.hosts) {
        if (!selector.keys.every((k) => k in h.labels)) continue;
        const key = selector.keys.map((k) => k + "=" + h.labels[k]).join(",");
        groups.set(key, (groups.get(key) || 0) + 1);
      }
      for (const [key, size] of groups) sizes.push(row([key, num(size, 0)]));
    }
    return sizes;
  }
  function renderClusters(clusters) {
    const parts = [];
    for (const c of clusters) {
      const m = latest.clusters[c.name] || {};
      const h2 = node("h2", c.name + " (" + c.lb_policy + ")");
      const stats = node("span", "  rq/s " + (m.rq || 0).toFixed(1) + " · 5xx/s " + (m.rq_5xx || 0).toFixed(1)
        + " · p99 " + (m.p99_ms === null || m.p99_ms === undefined ? "-" : m.p99_ms.toFixed(1) + " ms")
        + " · connections " + (m.cx_active || 0), "muted");
      h2.appendChild(stats);
      parts.push(h2);
      const table = node("table");
      table.dataset.cluster = c.name;
      table.appendChild(row(["host", "labels", "weight", "health", "active requests", "connections", "rq/s", "errors/s",
        "errors"].map((h) => node("th", h))));
      const hostMeters = m.hosts || {};  // this second's figures; a host absent from them did nothing
      for (const h of c.hosts) {
        const bad = !h.healthy || h.ejected;
        const health = h.ejected ? "ejected" : h.healthy ? "healthy" : "failing health checks";
        const labels = Object.entries(h.labels).map(([k, v]) => k + "=" + v).join(", ");
        const now = hostMeters[h.address] || {};
        const tr = row([h.address, labels || "-", num(h.weight, 0), node("td", health, "health"), num(h.active_requests, 0),
          num(h.cx_active, 0), num(now.rq || 0), num(now.rq_error || 0), num(h.rq_error_total, 0)],
          bad ? "host-bad" : "host-ok");
        tr.dataset.host = h.address;
        tr.dataset.health = h.ejected ? "ejected" : h.healthy ? "healthy" : "unhealthy";
        table.appendChild(tr);
      }
      parts.push(table);
      if (c.subsets) {
        parts.push(node("h3", "Subsets (fallback " + c.subsets.fallback_policy + "; exact " + c.subsets.exact_matches
          + ", fallbacks " + (c.subsets.keys_subset_fallbacks + c.subsets.policy_fallbacks) + ", no host "
          + c.subsets.no_host + ")"));
        const subsets = node("table");
        subsets.appendChild(row(["subset", "hosts"].map((h) => node("th", h))));
        subsetSizes(c).forEach((r) => subsets.appendChild(r));
        parts.push(subsets);
      }
    }
    $("cluster-list").replaceChildren(...parts);
  }

  // ---- services ----
  let servicesShown = null;
  let trying = null;  // the service the form calls
  async function pollServices() {
    try {
      const data = await getJson("/services");
      const text = JSON.stringify(data);
      if (text !== servicesShown) {  // redrawn only when something changed: buttons stay put
        servicesShown = text;
        renderServices(data);
      }
    } catch (e) { /* shown by the state badge */ }
  }
  // Dubbo's [group/]interface[:version], SOFARPC's interface:version[:uniqueId]
  function serviceParts(service) {
    let rest = service.service;
    let group = "";
    if (service.kind === "dubbo" && rest.includes("/")) {
      group = rest.substring(0, rest.indexOf("/"));
      rest = rest.substring(rest.indexOf("/") + 1);
    }
    const parts = rest.split(":");
    return { group, iface: parts[0], version: parts[1] || "", uniqueId: service.kind === "sofa" ? parts[2] || "" : "" };
  }
  function hostHealth(h) { return h.ejected ? "ejected" : h.healthy ? "healthy" : "failing health checks"; }
  function renderServices(data) {
    fill($("registry-table").tBodies[0], data.registries.map((r) => {
      const tr = row([r.name, r.type, r.address, node("td", r.connected ? r.state : r.state + " (disconnected)", "health"),
        num(r.subscriptions, 0), num(r.events, 0), num(r.errors, 0), r.last_event], r.connected ? "host-ok" : "host-bad");
      tr.dataset.registry = r.name;
      return tr;
    }));
    $("registries").textContent = data.registries.length === 0 ? "none" : data.registries.map((r) => r.name + " ("
      + r.type + ", " + (r.connected ? r.state : "disconnected: " + r.state) + ")").join(", ");
    $("services-empty").classList.toggle("hidden", data.services.length > 0);
    const registries = new Map(data.registries.map((r) => [r.name, r]));
    const parts = [];
    for (const s of data.services) {
      const healthy = s.providers.filter((h) => h.healthy && !h.ejected).length;
      const registry = registries.get(s.registry);
      const state = s.providers.length === 0 ? "no provider" : healthy + " of " + s.providers.length + " providers healthy";
      const div = node("div", null, "service " + (healthy > 0 ? "service-ok" : "service-bad"));
      div.dataset.service = s.service;
      const title = node("h2", s.service);
      title.appendChild(node("span", "  " + s.kind + " · registry " + s.registry
        + (registry && !registry.connected ? " (disconnected)" : "") + " · cluster " + s.cluster + " · ", "muted"));
      title.appendChild(node("span", state, "service-state"));
      div.appendChild(title);
      const providers = node("table", null, "providers");
      providers.appendChild(row(["provider", "labels", "weight", "health", "active requests"].map((h) => node("th", h))));
      for (const h of s.providers) {
        const labels = Object.entries(h.labels).map(([k, v]) => k + "=" + v).join(", ");
        const tr = row([h.address, labels || "-", num(h.weight, 0), node("td", hostHealth(h), "health"),
          num(h.active_requests, 0)], h.healthy && !h.ejected ? "host-ok" : "host-bad");
        tr.dataset.host = h.address;
        providers.appendChild(tr);
      }
      div.appendChild(providers);
      const methods = node("table", null, "methods");
      methods.appendChild(row(["method", "parameters", "returns", ""].map((h) => node("th", h))));
      for (const m of s.methods) {
        const button = node("button", "Try it", "try-button");
        button.type = "button";
        button.addEventListener("click", () => openTry(s, m));
        const cell = node("td");
        cell.appendChild(button);
        const tr = row([m.name, m.parameter_types.join(", ") || "(none)", m.return_type, cell]);
        tr.dataset.method = m.name;
        methods.appendChild(tr);
      }
      if (s.methods.length === 0) {
        const button = node("button", "Try a method", "try-button");
        button.type = "button";
        button.addEventListener("click", () => openTry(s, null));
        const cell = node("td", "the registry publishes no signatures: name the method and its types");
        cell.colSpan = 3;
        const buttonCell = node("td");
        buttonCell.appendChild(button);
        methods.appendChild(row([cell, buttonCell]));
      }
      div.appendChild(methods);
      parts.push(div);
    }
    $("service-list").replaceChildren(...parts);
  }

  // ---- try it ----
  // The routes with the HTTP-to-RPC action (rpc_call), from the configuration: [{ listener, prefix, protocol }].
  function rpcRoutes() {
    const found = [];
    for (const listener of (configDump && configDump.listeners) || []) {
      for (const vhost of (listener.route_config && listener.route_config.virtual_hosts) || []) {
        for (const route of vhost.routes || []) {
          if (route.rpc_call) {
            const prefix = route.rpc_call.prefix !== undefined ? route.rpc_call.prefix : (route.match || {}).prefix || "";
            found.push({ listener: listener.name, prefix: prefix.replace(/\/$/, ""),
              protocol: String(route.rpc_call.protocol || "").toLowerCase() });
          }
        }
      }
    }
    return found;
  }
  function openTry(service, method) {
    trying = service;
    const p = serviceParts(service);
    $("try-title").textContent = service.service + (method ? " · " + method.name + "(" + method.parameter_types.join(", ")
      + ")" : "");
    const http = boundListeners.filter((l) => l.protocols.includes("http1"));
    const routes = rpcRoutes();
    const route = routes.find((r) => r.protocol === service.kind) || routes[0];
    $("try-listener").replaceChildren(...http.map((l) => node("option", l.name)));
    $("try-listener").value = route ? route.listener : http.length ? http[0].name : "";
    $("try-prefix").value = route ? route.prefix : "/" + service.kind;
    $("try-method").value = method ? method.name : "";
    $("try-group").value = p.group;
    $("try-version").value = p.version;
    $("try-unique-id").value = p.uniqueId;
    $("try-types").value = "";
    $("try-args").value = method ? JSON.stringify(method.parameter_types.map(example)) : "[]";
    $("try-result").textContent = "";
    delete $("try-result").dataset.status;
    $("try-form").classList.remove("hidden");
    showPath();
    $("try-args").focus();
  }
  // A placeholder argument of a Java type, for the user to edit.
  function example(type) {
    if (/^(int|long|short|byte|java\.lang\.(Integer|Long|Short|Byte)|float|double|java\.lang\.(Float|Double)|java\.math\.)/.test(type)) return 0;
    if (/^(boolean|java\.lang\.Boolean)$/.test(type)) return false;
    if (/^(java\.lang\.String|char|java\.lang\.Character)$/.test(type)) return "";
    if (/\[\]$|^java\.util\.(List|Set|Collection)/.test(type)) return [];
    if (/^java\.util\.Map/.test(type)) return {};
    return null;
  }
  // The path the call takes: {prefix}/{interface}/{method}, with group, version and uniqueId as query parameters.
  function tryPath() {
    const p = serviceParts(trying);
    const method = $("try-method").value.trim();
    const query = new URLSearchParams();
    if ($("try-group").value.trim()) query.set("x-rpc-group", $("try-group").value.trim());
    if ($("try-version").value.trim()) query.set("x-rpc-version", $("try-version").value.trim());
    if ($("try-unique-id").value.trim()) query.set("x-rpc-unique-id", $("try-unique-id").value.trim());
    const q = query.toString();
    return $("try-prefix").value.trim().replace(/\/$/, "") + "/" + encodeURIComponent(p.iface) + "/"
      + encodeURIComponent(method) + (q ? "?" + q : "");
  }
  function showPath() {
    if (trying) $("try-path").textContent = "POST " + tryPath() + " on listener " + $("try-listener").value;
  }
  $("try-form").addEventListener("input", showPath);
  $("try-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    if (!trying) return;
    const result = $("try-result");
    const query = new URLSearchParams({ listener: $("try-listener").value, path: tryPath() });
    if ($("try-types").value.trim()) query.set("types", $("try-types").value.trim());
    const headers = { "Content-Type": "application/json" };
    const token = $("token").value.trim();
    if (token) headers.Authorization = "Bearer " + token;
    result.textContent = "calling…";
    result.className = "result";
    try {
      const response = await fetch("/services/call?" + query, { method: "POST", headers, body: $("try-args").value,
        cache: "no-store" });
      if (!response.ok) {  // refused by the admin API itself: no token, no such listener, unreachable
        result.textContent = "POST /services/call → " + response.status + " " + await response.text();
        result.className = "result refused";
        result.dataset.status = "admin-" + response.status;
        return;
      }
      const call = await response.json();
      let body = call.body;
      try { body = JSON.stringify(JSON.parse(call.body), null, 2); } catch (x) { /* not JSON: shown as it came */ }
      result.textContent = call.status + " in " + call.time_ms.toFixed(1) + " ms\n" + body;
      result.className = call.status === 200 ? "result" : "result refused";
      result.dataset.status = String(call.status);
      result.dataset.timeMs = String(call.time_ms);
    } catch (x) {
      result.textContent = "POST /services/call failed: " + x;
      result.className = "result refused";
      result.dataset.status = "failed";
    }
  });

  // ---- access log ----
  function matches(r) {
    const f = logFilter;
    if (f.status) {
      const s = String(r.status);
      if (/^[1-5]xx$/.test(f.status) ? s[0] !== f.status[0] : s !== f.status) return false;
    }
    if (f.route && r.route !== f.route) return false;
    if (f.cluster && r.cluster !== f.cluster) return false;
    if (f.flag && !String(r.flags).split(",").includes(f.flag)) return false;
    return true;
  }
  function logRow(r) {
    const tr = row([r.start_time.substring(11, 23), r.listener, (r.method || "") + " " + (r.path || "") + " " + r.protocol,
      node("td", r.status, "status"), r.flags, num(r.duration_ms, 3), r.route, r.cluster, r.upstream_host],
      "status-" + String(r.status)[0]);
    return tr;
  }
  function appendLog(records) {
    const body = $("log-table").tBodies[0];
    for (const r of records) if (matches(r)) body.insertBefore(logRow(r), body.firstChild);
    while (body.rows.length > LOG_ROWS) body.deleteRow(body.rows.length - 1);
  }
  async function loadLog() {
    const query = new URLSearchParams({ limit: String(LOG_ROWS) });
    for (const [k, v] of Object.entries(logFilter)) if (v) query.set(k, v);
    try {
      const tail = await getJson("/access_log?" + query);
      $("log-dropped").textContent = tail.dropped > 0 ? tail.dropped + " records dropped" : "";
      fill($("log-table").tBodies[0], tail.records.reverse().map(logRow));
    } catch (e) {
      $("log-dropped").textContent = String(e);
    }
  }
  $("log-filters").addEventListener("submit", (e) => {
    e.preventDefault();
    logFilter = Object.fromEntries([...new FormData(e.target)].map(([k, v]) => [k, v.trim()]));
    loadLog();
  });

  // ---- actions ----
  function confirmThen(text, run) {
    const dialog = $("confirm");
    $("confirm-text").textContent = text;
    $("confirm-yes").onclick = () => { dialog.close(); run(); };
    $("confirm-no").onclick = () => dialog.close();
    dialog.showModal();
  }
  async function post(path) {
    const headers = {};
    const token = $("token").value.trim();
    if (token) headers.Authorization = "Bearer " + token;
    const result = $("action-result");
    try {
      const response = await fetch(path, { method: "POST", headers, cache: "no-store" });
      const text = await response.text();
      result.textContent = "POST " + path + " → " + response.status + " " + text;
      result.className = response.ok ? "result" : "result refused";
      result.dataset.status = String(response.status);
    } catch (e) {
      result.textContent = "POST " + path + " failed: " + e;
      result.className = "result refused";
    }
    pollServer();
  }
  document.querySelectorAll("button[data-action]").forEach((b) => b.addEventListener("click", () =>
    confirmThen(b.dataset.confirm, () => post(b.dataset.action))));
  $("set-level").addEventListener("click", () => {
    const query = new URLSearchParams({ level: $("log-level").value });
    const logger = $("log-logger").value.trim();
    if (logger) query.set("logger", logger);
    confirmThen($("set-level").dataset.confirm, () => post("/logging?" + query));
  });

  // ---- start ----
  window.addEventListener("resize", drawCharts);
  loadSeries().catch(() => {}).finally(openStream);
  pollServer();
  pollListeners();
  pollClusters();
  pollServices();
  loadLog();
  setInterval(pollServer, 1000);
  setInterval(pollClusters, 1000);
  setInterval(pollListeners, 5000);
  setInterval(pollServices, 2000);
})();
