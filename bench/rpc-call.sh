#!/usr/bin/env bash
# bench/rpc-call.sh - the gateway's CPU per call for an HTTP/JSON call made into Dubbo by a route's
# rpc_call (h2load over h2c, POST of a 1 KB JSON string) beside the same gateway's CPU per call for
# Dubbo -> Dubbo (bench/dubbo.sh's load generator, a real Dubbo 3.3.6 client's 1 KB frame), both to
# bench/rpc.sh's Dubbo upstream (the 1 KB answer a real provider gave, under each request's id).
# Issue 24's bound: JSON -> Dubbo at most 2x the CPU per call of Dubbo -> Dubbo.
#
# Needs: ./mvnw -B -q -pl gateway-server,benchmarks -am package -DskipTests, and h2load
# (apt-get install nghttp2-client), taskset (util-linux), 2 cores.
# Layout as bench/rpc.sh: core 0 runs the load generators and the upstream, core 1 only the gateway
# (event_loops: 1). Each scenario: CONNS connections with IN_FLIGHT calls in flight each.
# Columns: QPS, gateway CPU% (100 = one core), US/REQ = gateway CPU time / answers, errors.
set -u

usage() {
  echo "Usage: bench/rpc-call.sh [-d SECS] [-w SECS] [-r ROUNDS]   (env CONNS=50 IN_FLIGHT=10 TOLLGATE_JAR)" >&2
  exit 2
}
DUR=10 WARMUP=60 ROUNDS=1 CONNS=${CONNS:-50} IN_FLIGHT=${IN_FLIGHT:-10}
while [ $# -gt 0 ]; do
  case "$1" in
    -d) DUR=$2; shift ;; -w) WARMUP=$2; shift ;; -r) ROUNDS=$2; shift ;; *) usage ;;
  esac
  shift
done
die() { echo "rpc-call.sh: $*" >&2; exit 1; }

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BENCH_JAR=$ROOT/benchmarks/target/benchmarks.jar
JAR=${TOLLGATE_JAR:-$ROOT/gateway-server/target/tollgate.jar}
[ -f "$BENCH_JAR" ] && [ -f "$JAR" ] || die "build first: ./mvnw -B -q -pl gateway-server,benchmarks -am package -DskipTests"
[ "$(nproc)" -ge 2 ] || die "needs 2 cores, found $(nproc)"
command -v taskset >/dev/null || die "taskset not found: apt-get install util-linux"
command -v h2load >/dev/null || die "h2load not found: apt-get install nghttp2-client"

UPSTREAM=20301 DUBBO=20311 HTTP=8311 ADMIN=9311
OUT=$(mktemp -d /tmp/tollgate-rpc-call.XXXXXX)
HZ=$(getconf CLK_TCK)
JVM="-Xms256m -Xmx256m -XX:+UseSerialGC -Dio.netty.leakDetection.level=disabled"
. "$(dirname "$0")/lib.sh"

cat > "$OUT/gateway.yaml" <<YAML
event_loops: 1
admin: { address: 127.0.0.1, port: $ADMIN }
listeners:
  - name: dubbo
    address: 127.0.0.1
    port: $DUBBO
    protocols: [dubbo]
    route_config:
      virtual_hosts:
        - { name: all, domains: ["*"], routes: [ { match: { prefix: / }, route: { cluster: dubbo } } ] }
  - name: http
    address: 127.0.0.1
    port: $HTTP
    protocols: [h2c]
    http2: { max_concurrent_streams: 1000 }
    route_config:
      virtual_hosts:
        - name: all
          domains: ["*"]
          routes:
            - match: { prefix: /dubbo/ }
              rpc_call:
                protocol: dubbo
                cluster: dubbo
                methods: { com.example.EchoService: [ { name: echo, parameter_types: [java.lang.String] } ] }
clusters:
  - { name: dubbo, endpoints: [ { address: 127.0.0.1, port: $UPSTREAM } ] }
YAML
# the argument: one JSON string of 1000 characters, a 1 KB body
printf '["%s"]' "$(head -c 1000 /dev/zero | tr '\0' 'x')" > "$OUT/body.json"

port_open "$UPSTREAM" && die "port $UPSTREAM is already in use"
# the upstream speaks no HTTP: started by hand, stopped with the rest on exit
taskset -c 0 java $JVM -cp "$BENCH_JAR" io.tollgate.benchmarks.dubbo.DubboUpstreamServer "$UPSTREAM" 1 \
  > "$OUT/upstream.log" 2>&1 &
STARTED+=("$!")
for _ in $(seq 300); do port_open "$UPSTREAM" && break; sleep 0.1; done
port_open "$UPSTREAM" || die "the Dubbo upstream did not start"
start tollgate 1 "$ADMIN" "env TOLLGATE_JAR=$JAR TOLLGATE_MEMORY=${TOLLGATE_MEMORY:-256m} $ROOT/bin/tollgate run -c $OUT/gateway.yaml" \
  "http://127.0.0.1:$ADMIN/ready"
GW=$PID

dubbo_load() { # SECONDS: prints "answers errors qps"
  load taskset -c 0 java $JVM -cp "$BENCH_JAR" io.tollgate.benchmarks.dubbo.DubboLoadGenerator 127.0.0.1 "$DUBBO" \
    "$CONNS" "$IN_FLIGHT" "$1" | tail -1 | awk '{gsub(/,/, ""); print $2, $4, $6}'
}
json_load() { # SECONDS: prints "answers errors qps"
  load taskset -c 0 h2load -t 1 -c "$CONNS" -m "$IN_FLIGHT" -D "$1" -d "$OUT/body.json" \
    -H 'content-type: application/json' "http://127.0.0.1:$HTTP/dubbo/com.example.EchoService/echo" \
    > "$OUT/h2load.txt" 2>&1
  awk '/^status codes:/ { gsub(/,/, ""); ok = $3; err = $5 + $7 + $9 }
       /^finished in/ { gsub(/,/, ""); for (i = 1; i <= NF; i++) if ($i ~ /req\/s/) qps = $(i - 1) }
       END { print ok + 0, err + 0, qps + 0 }' "$OUT/h2load.txt"
}

echo "warming up both paths for ${WARMUP}s each" >&2
dubbo_load "$WARMUP" > /dev/null
json_load "$WARMUP" > /dev/null

echo "| round | path | scenario | QPS | gateway CPU% | US/REQ | errors |"
echo "|---:|---|---|---:|---:|---:|---:|"
for round in $(seq "$ROUNDS"); do
  for path in dubbo json; do
    c0=$(cpu_ticks "$GW"); t0=$(date +%s.%N)
    read -r answers errors qps <<< "$(${path}_load "$DUR")"
    c1=$(cpu_ticks "$GW"); t1=$(date +%s.%N)
    awk -v r="$round" -v p="$path" -v s="c$CONNS x $IN_FLIGHT" -v n="$answers" -v e="$errors" -v q="$qps" \
        -v c0="$c0" -v c1="$c1" -v t0="$t0" -v t1="$t1" -v hz="$HZ" 'BEGIN {
      cpu = (c1 - c0) / hz / (t1 - t0) * 100; us = n > 0 ? (c1 - c0) / hz * 1e6 / n : 0
      printf "| %s | %s | %s | %.0f | %.0f | %.1f | %s |\n", r, p == "dubbo" ? "Dubbo -> Dubbo" : "JSON -> Dubbo", s, q, cpu, us, e }' \
      | tee -a "$OUT/rows.md"
  done
done
# the bound per round (both paths measured in the same round), then their median
awk -F'|' '{ for (i = 2; i <= 7; i++) gsub(/^ +| +$/, "", $i) }
  $3 == "Dubbo -> Dubbo" { d[$2] = $7 } $3 == "JSON -> Dubbo" { j[$2] = $7 }
  END {
    n = 0
    for (r in d) if ((r in j) && d[r] > 0) { ratio[++n] = j[r] / d[r]; printf "round %s: JSON -> Dubbo costs %.2fx the gateway CPU per call of Dubbo -> Dubbo\n", r, j[r] / d[r] }
    for (a = 1; a <= n; a++) for (b = a + 1; b <= n; b++) if (ratio[b] < ratio[a]) { t = ratio[a]; ratio[a] = ratio[b]; ratio[b] = t }
    if (n) printf "median of %d rounds: %.2fx (bound: 2x)\n", n, n % 2 ? ratio[(n + 1) / 2] : (ratio[n / 2] + ratio[n / 2 + 1]) / 2
  }' "$OUT/rows.md"
echo "raw output: $OUT" >&2
