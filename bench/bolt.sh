#!/usr/bin/env bash
# bench/bolt.sh - whole-process SOFA Bolt benchmark: the Bolt load generator straight at a Bolt
# upstream ('direct') and through Tollgate pinned to its own core, 1 KB requests and answers.
#
# Needs: the benchmarks jar and the gateway jar:
#   ./mvnw -B -q -pl gateway-server,benchmarks -am package -DskipTests
#
# Layout for a 2-core machine: core 0 runs the load generator (one event loop) and the upstream
# (one event loop); core 1 runs only the gateway (event_loops: 1). Scenarios: c=50 connections
# with 1 request in flight each, and with 10 in flight each. Columns: QPS, p50/p99 in us from the
# load generator, the gateway's CPU% and its CPU microseconds per request (US/REQ).
set -u

die() { echo "bolt.sh: $*" >&2; exit 1; }
DUR=${DUR:-10} WARMUP=${WARMUP:-60} CONNS=${CONNS:-50}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BENCH_JAR=$ROOT/benchmarks/target/benchmarks.jar
GW_JAR=$ROOT/gateway-server/target/tollgate.jar
[ -f "$BENCH_JAR" ] && [ -f "$GW_JAR" ] || die "build first: ./mvnw -B -q -pl gateway-server,benchmarks -am package -DskipTests"
[ "$(nproc)" -ge 2 ] || die "needs 2 cores, found $(nproc)"
command -v taskset >/dev/null || die "taskset not found: apt-get install util-linux"

UP=12201 GW=12300
OUT=$(mktemp -d /tmp/tollgate-bolt.XXXXXX)
HZ=$(getconf CLK_TCK)
JVM="-Xms256m -Xmx256m -XX:+UseSerialGC -Dio.netty.leakDetection.level=disabled"
PIDS=()
cleanup() { for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null; done; wait 2>/dev/null; }
trap cleanup EXIT
trap 'exit 130' INT TERM

wait_port() {
  for _ in $(seq 300); do (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return 0; sleep 0.1; done
  die "nothing listening on $1 after 30 s"
}

taskset -c 0 java $JVM -cp "$BENCH_JAR" io.tollgate.benchmarks.bolt.BoltUpstreamServer $UP 1 > "$OUT/upstream.log" 2>&1 &
PIDS+=($!)
wait_port $UP

cat > "$OUT/gateway.yaml" <<YAML
event_loops: 1
admin: { address: 127.0.0.1, port: 0 }
listeners:
  - name: bolt
    address: 127.0.0.1
    port: $GW
    protocols: [bolt]
    route_config:
      virtual_hosts:
        - name: all
          domains: ["*"]
          routes: [ { match: { prefix: / }, route: { cluster: bolt } } ]
clusters:
  - name: bolt
    endpoints: [ { address: 127.0.0.1, port: $UP } ]
YAML
taskset -c 1 java $JVM -jar "$GW_JAR" run -c "$OUT/gateway.yaml" > "$OUT/gateway.log" 2>&1 &
GW_PID=$!
PIDS+=($GW_PID)
wait_port $GW

load() { # PORT IN_FLIGHT SECONDS
  taskset -c 0 java $JVM -cp "$BENCH_JAR" io.tollgate.benchmarks.bolt.BoltLoadGenerator 127.0.0.1 "$1" "$CONNS" "$2" "$3"
}
ticks() { awk '{sub(/.*\) /, ""); print $12 + $13}' "/proc/$GW_PID/stat"; }

echo "warming up for ${WARMUP}s" >&2
load $GW 10 "$WARMUP" > "$OUT/warmup.txt"
load $UP 10 5 > /dev/null

echo "| target | scenario | QPS | p50 us | p99 us | gateway CPU% | US/REQ | errors |"
echo "|---|---|---:|---:|---:|---:|---:|---:|"
for target in direct tollgate; do
  port=$UP; [ $target = tollgate ] && port=$GW
  for inflight in 1 10; do
    c0=$(ticks); t0=$(date +%s.%N)
    line=$(load "$port" "$inflight" "$DUR" | tail -1)
    c1=$(ticks); t1=$(date +%s.%N)
    echo "$line" > "$OUT/$target.c$CONNS.m$inflight.txt"
    # line: responses N, errors N, qps N, p50 N us, p99 N us
    awk -v t="$target" -v s="c$CONNS x $inflight" -v c0="$c0" -v c1="$c1" -v t0="$t0" -v t1="$t1" -v hz="$HZ" '{
      gsub(/,/, ""); qps = $6; cpu = (c1 - c0) / hz / (t1 - t0) * 100
      if (t == "direct") { cpu_s = "-"; us = "-" } else { cpu_s = sprintf("%.0f", cpu); us = sprintf("%.1f", cpu / 100 * 1e6 / qps) }
      printf "| %s | %s | %.0f | %s | %s | %s | %s | %s |\n", t, s, qps, $8, $11, cpu_s, us, $4 }' <<< "$line"
  done
done
echo "raw output: $OUT" >&2
