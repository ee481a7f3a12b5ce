#!/usr/bin/env bash
# bench/gateway.sh - starts Tollgate in the foreground as one benchmark target: one HTTP/1.1
# listener on 127.0.0.1:$PROXY_PORT forwarding every request to $UPSTREAM_URL (and, with TCP_PORT,
# a TCP proxy listener to the same host), no access log, one event loop (the harness pins the
# process to one core).
#
# Environment:
#   PROXY_PORT       listen port                                   (required)
#   UPSTREAM_URL     http://HOST:PORT of the upstream              (required)
#   ADMIN_PORT       admin API port; 0 = any free port, logged      (default 0; never 9901)
#   TOLLGATE_JAR     the gateway jar          (default: gateway-server/target/tollgate.jar)
#   TOLLGATE_MEMORY  the memory bin/tollgate sizes the JVM for       (default 256m)
#   TOLLGATE_GC      bin/tollgate's collector: serial (default), zgc, g1, parallel
#   TOLLGATE_LAUNCHER  the launcher script (default: this checkout's bin/tollgate), e.g. an older
#                    checkout's, to measure a jar with the flags it shipped with
#   TOLLGATE_CDS     bin/tollgate's class data sharing                (default off here: it only
#                    speeds the start, which these runs do not measure, and a first run's archive
#                    is written at exit, longer than the harness waits before SIGKILL on a busy host)
#   JVM_OPTS, JVM_EXTRA  added after bin/tollgate's flags (so they win), e.g.
#                    -XX:StartFlightRecording=duration=30s,filename=/tmp/gw.jfr
#   CONF_DIR         where the generated YAML goes                 (default $TMPDIR or /tmp)
#   TLS_CERT, TLS_KEY  PEM certificate chain and PKCS#8 key: the listener terminates TLS (default: cleartext)
#   TCP_PORT         also a 'tcp' listener on 127.0.0.1:$TCP_PORT: the TCP proxy (L4) to the same upstream
#   SPLICE_PORT      also a 'tcp' listener on 127.0.0.1:$SPLICE_PORT whose TCP proxy has 'splice: true'
#   FILTERS_YAML     the listener's stream filters, a YAML flow list, e.g.
#                    '[{name: fault, abort: {http_status: 503}, headers: {x-never: "1"}}]' (default: none)
#
# JVM flags: bin/tollgate's, as in production (it prints them first; docs/operations.md says why
# each). For 256m: a fixed 32 MB heap (buffers are pooled off-heap, so the heap holds the
# configuration, the connections' objects and short-lived garbage: 13-14 MB live at 1,000
# connections), 64 MB of direct memory, the Serial collector (one core: nothing runs in parallel
# anyway, and it has the cheapest barriers), no leak detection, no pre-touch (RSS shows what the
# process really touches).
set -eu

die() { echo "gateway.sh: $*" >&2; exit 1; }
ROOT=$(cd "$(dirname "$0")/.." && pwd)
JAR=${TOLLGATE_JAR:-$ROOT/gateway-server/target/tollgate.jar}
[ -f "$JAR" ] || die "$JAR missing; build it with ./mvnw -B -q -pl gateway-server -am package -DskipTests"
[ -n "${PROXY_PORT:-}" ] || die "PROXY_PORT is not set"
[ -n "${UPSTREAM_URL:-}" ] || die "UPSTREAM_URL is not set"

hostport=${UPSTREAM_URL#http://}
hostport=${hostport%%/*}
UP_HOST=${hostport%:*}
UP_PORT=${hostport##*:}
[ "$UP_HOST" != "$hostport" ] && [ -n "$UP_PORT" ] || die "UPSTREAM_URL must look like http://HOST:PORT (was '$UPSTREAM_URL')"

CONF=$(mktemp "${CONF_DIR:-${TMPDIR:-/tmp}}/tollgate-bench.XXXXXX.yaml")
cat > "$CONF" <<YAML
event_loops: 1
admin: { address: 127.0.0.1, port: ${ADMIN_PORT:-0} }
listeners:
  - name: http
    address: 127.0.0.1
    port: $PROXY_PORT
    protocols: [http1, h2c]
${TLS_CERT:+    tls: { cert_chain_file: $TLS_CERT, private_key_file: ${TLS_KEY:?TLS_KEY is not set} \}}
${FILTERS_YAML:+    filters: $FILTERS_YAML}
    route_config:
      virtual_hosts:
        - name: all
          domains: ["*"]
          routes:
            - name: all
              match: { prefix: / }
              route: { cluster: upstream }
${TCP_PORT:+  - name: tcp
    address: 127.0.0.1
    port: $TCP_PORT
    network_filters: [ { name: tcp_proxy, cluster: upstream \} ]}
${SPLICE_PORT:+  - name: tcp-splice
    address: 127.0.0.1
    port: $SPLICE_PORT
    network_filters: [ { name: tcp_proxy, cluster: upstream, splice: true \} ]}
clusters:
  - name: upstream
    endpoints:
      - { address: $UP_HOST, port: $UP_PORT }
YAML

exec env TOLLGATE_JAR="$JAR" TOLLGATE_MEMORY="${TOLLGATE_MEMORY:-256m}" TOLLGATE_CDS="${TOLLGATE_CDS:-off}" JAVA_OPTS="${JVM_OPTS:-} ${JVM_EXTRA:-}" \
  "${TOLLGATE_LAUNCHER:-$ROOT/bin/tollgate}" run -c "$CONF"
