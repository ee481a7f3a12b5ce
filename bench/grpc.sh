#!/usr/bin/env bash
# bench/grpc.sh - whole-process gRPC unary benchmark: the project's grpc-java load generator
# straight at a grpc-java upstream ('direct'), through Tollgate and through HAProxy, each proxy
# pinned to its own core, 1 KB requests and 1 KB replies. Prints a Markdown table.
#
# Needs: haproxy (apt-get install haproxy), taskset, and the benchmarks and gateway jars:
#   ./mvnw -B -q -pl benchmarks -am package -DskipTests
# It builds nothing itself.
#
# Layout for a 2-core machine: core 0 runs the load generator (GrpcUnaryLoadGenerator, one event
# loop) and the upstream (GrpcUpstreamServer, one event loop, fixed 1 KB reply); core 1 runs only
# the proxy under test, one at a time:
#   tollgate  event_loops: 1, listener [http1, h2c], cluster 'protocol: h2' (h2c prior knowledge
#             upstream), the JVM flags of bench/gateway.sh
#   haproxy   nbthread 1, h2c frontend ('proto h2'), 'proto h2' to the backend, http-reuse always
# Scenarios: CONNS channels (HTTP/2 connections) with 1 and with 10 calls in flight on each.
# Every measured run: the generator's own warm-up of GEN_WARMUP s, then DUR s measured. Before its
# runs a target gets untimed load: WARMUP s for the JVMs (direct: the upstream, which the later
# targets reuse; Tollgate: C2 compiles the hot path), 5 s for HAProxy. Two JVMs share core 0, so
# a short warm-up starves 'direct' of CPU while C2 compiles.
# Columns: QPS and p50/p99 (us) of the OK calls, from the generator; proxy CPU% = utime+stime of
# the proxy from /proc/PID/stat over exactly the measured window (the generator prints 'measuring'
# and 'measured' at its edges), 100 = one core; US/REQ = proxy CPU microseconds per OK call;
# errors = calls closed with a status other than OK. 'direct' has no proxy: '-'.
#
# Environment: DUR (10), WARMUP (60), GEN_WARMUP (10), CONNS (20), INFLIGHT ('1 10'),
#   PAYLOAD (1024, request and reply bytes), ONLY ('direct tollgate haproxy'),
#   OUT (raw output dir, default mktemp -d), JVM_EXTRA (added to Tollgate's JVM flags).
# Ports: three free ones, chosen at random from 20000-40000 and checked before use.
. "$(dirname "$0")/haproxy-defaults.sh"
set -u

die() { echo "grpc.sh: $*" >&2; exit 1; }
DUR=${DUR:-10} WARMUP=${WARMUP:-60} GEN_WARMUP=${GEN_WARMUP:-10} CONNS=${CONNS:-20}
INFLIGHT=${INFLIGHT:-1 10} PAYLOAD=${PAYLOAD:-1024} ONLY=${ONLY:-direct tollgate haproxy}
REF_WARMUP=5
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BENCH_JAR=$ROOT/benchmarks/target/benchmarks.jar
GW_JAR=$ROOT/gateway-server/target/tollgate.jar
[ -f "$BENCH_JAR" ] && [ -f "$GW_JAR" ] || die "build first: ./mvnw -B -q -pl benchmarks -am package -DskipTests"
[ "$(nproc)" -ge 2 ] || die "needs 2 cores (core 0: load + upstream, core 1: proxy), found $(nproc)"
command -v taskset >/dev/null || die "taskset not found: apt-get install util-linux"
case " $ONLY " in *" haproxy "*) command -v haproxy >/dev/null || die "haproxy not found: apt-get install haproxy" ;; esac

port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
TAKEN=" "
free_port() { # a port nothing listens on and not handed out before in this run
  local p
  for p in $(shuf -i 20000-40000 -n 100); do
    case "$TAKEN" in *" $p "*) continue ;; esac
    port_open "$p" || { TAKEN="$TAKEN$p "; echo "$p"; return; }
  done
  die "no free port found in 20000-40000"
}
UP=$(free_port); TG=$(free_port); HA=$(free_port)
declare -A PORT=([direct]=$UP [tollgate]=$TG [haproxy]=$HA)

OUT=${OUT:-$(mktemp -d /tmp/tollgate-grpc.XXXXXX)}
mkdir -p "$OUT" || die "cannot create $OUT"
HZ=$(getconf CLK_TCK)
JVM="-Xms256m -Xmx256m -XX:+UseSerialGC"

# --- processes: everything started here is stopped by its PID on exit ---------------------------

STARTED=()
LOAD_PID=""
stop() { # TERM, then KILL after 5 s
  kill -TERM "$1" 2>/dev/null
  for _ in $(seq 20); do kill -0 "$1" 2>/dev/null || break; sleep 0.25; done
  kill -KILL "$1" 2>/dev/null
  wait "$1" 2>/dev/null
}
cleanup() {
  [ -n "$LOAD_PID" ] && stop "$LOAD_PID"
  for p in "${STARTED[@]}"; do stop "$p"; done
}
trap cleanup EXIT
trap 'exit 130' INT TERM

start() { # NAME CPU PORT CMD...: CMD pinned to CPU in the background, waits until PORT listens
  local name=$1 cpu=$2 port=$3 i=0; shift 3
  taskset -c "$cpu" "$@" > "$OUT/$name.log" 2>&1 &
  PID=$!
  STARTED+=("$PID")
  until port_open "$port"; do
    kill -0 "$PID" 2>/dev/null || { tail -20 "$OUT/$name.log" >&2; die "$name exited during start-up"; }
    i=$((i + 1)); [ $i -gt 600 ] && die "$name is not listening on $port after 60 s"
    sleep 0.1
  done
}
ticks() { awk '{sub(/.*\) /, ""); print $12 + $13}' "/proc/$1/stat"; } # utime+stime, fields 14 and 15
busy_pct() { # whole-machine non-idle CPU over 2 s, 100 = one core
  local a b
  a=$(awk '/^cpu /{print $2+$3+$4+$7+$8+$9}' /proc/stat); sleep 2
  b=$(awk '/^cpu /{print $2+$3+$4+$7+$8+$9}' /proc/stat)
  echo $(( (b - a) * 100 / HZ / 2 ))
}

generator() { # PORT IN_FLIGHT SECONDS WARMUP_SECONDS, pinned to core 0
  taskset -c 0 java $JVM -cp "$BENCH_JAR" io.tollgate.benchmarks.grpc.GrpcUnaryLoadGenerator \
    127.0.0.1 "$1" "$CONNS" "$2" "$3" "$4" "$PAYLOAD"
}

# --- configs -------------------------------------------------------------------------------------

cat > "$OUT/tollgate.yaml" <<YAML
event_loops: 1
admin: { address: 127.0.0.1, port: 0 }
listeners:
  - name: grpc
    address: 127.0.0.1
    port: $TG
    protocols: [http1, h2c]
    route_config:
      virtual_hosts:
        - name: all
          domains: ["*"]
          routes: [ { match: { prefix: / }, route: { cluster: upstream } } ]
clusters:
  - name: upstream
    protocol: h2
    endpoints: [ { address: 127.0.0.1, port: $UP } ]
YAML

{ haproxy_defaults; cat <<CFG
frontend fe
  bind 127.0.0.1:$HA proto h2
  default_backend be
backend be
  server up 127.0.0.1:$UP proto h2
CFG
} > "$OUT/haproxy.cfg"

# --- measuring -----------------------------------------------------------------------------------

ROWS=()
declare -A RESULT
measure() { # TARGET IN_FLIGHT: one measured run, one row; CPU is that of $MEASURED over the window
  local target=$1 inflight=$2 scen="c$CONNS x $2" raw="$OUT/$1.c$CONNS.m$2.txt" fifo="$OUT/.fifo"
  local c0=0 c1=0 t0=0 t1=0 line rc summary qps p50 p99 errors cpu us
  rm -f "$fifo"; mkfifo "$fifo"
  generator "${PORT[$target]}" "$inflight" "$DUR" "$GEN_WARMUP" > "$fifo" 2>&1 &
  LOAD_PID=$!
  : > "$raw"
  while IFS= read -r line; do
    case "$line" in
      measuring) [ -n "$MEASURED" ] && c0=$(ticks "$MEASURED"); t0=$(date +%s.%N) ;;
      measured) [ -n "$MEASURED" ] && c1=$(ticks "$MEASURED"); t1=$(date +%s.%N) ;;
    esac
    echo "$line" >> "$raw"
  done < "$fifo"
  wait "$LOAD_PID"; rc=$?
  LOAD_PID=""
  rm -f "$fifo"
  summary=$(grep '^responses ' "$raw" | tail -1)
  if [ "$rc" != 0 ] || [ -z "$summary" ]; then
    echo "WARNING: $target $scen failed (exit $rc), see $raw" >&2
    ROWS+=("| $target | $scen | FAILED | - | - | - | - | see $raw |")
    return
  fi
  # summary: responses N, errors N, qps N, p50 N us, p99 N us
  read -r qps p50 p99 errors cpu us < <(awk -v c0="$c0" -v c1="$c1" -v t0="$t0" -v t1="$t1" -v hz="$HZ" \
      -v direct="$([ -z "$MEASURED" ] && echo 1)" '{
    gsub(/,/, ""); qps = $6; cpu = (c1 - c0) / hz / (t1 - t0) * 100
    if (direct) { cpu_s = "-"; us = "-" } else { cpu_s = sprintf("%.0f", cpu); us = sprintf("%.1f", cpu / 100 * 1e6 / qps) }
    printf "%.0f %s %s %s %s %s\n", qps, $8, $11, $4, cpu_s, us }' <<< "$summary")
  [ "$errors" = 0 ] || echo "WARNING: $target $scen: $(grep '^statuses ' "$raw")" >&2
  RESULT[$target,$inflight]="$qps $p99 $us"
  ROWS+=("| $target | $scen | $qps | $p50 | $p99 | $cpu | $us | $errors |")
  echo "${ROWS[-1]}" >&2
}

# --- run -----------------------------------------------------------------------------------------

{ echo "date: $(date -u +%FT%TZ)"; echo "host: $(uname -srm), $(nproc) cores"
  echo "uptime before: $(uptime)"; } | tee "$OUT/machine.txt" >&2

start upstream 0 "$UP" java $JVM -cp "$BENCH_JAR" io.tollgate.benchmarks.grpc.GrpcUpstreamServer "$UP" "$PAYLOAD"

for target in $ONLY; do
  [ -n "${PORT[$target]:-}" ] || die "unknown target '$target' (expected: direct tollgate haproxy)"
  busy=$(busy_pct)
  if [ "$busy" -gt 10 ]; then
    echo "WARNING: machine ${busy}% busy before $target (100 = one core); numbers will be noisy" >&2
  fi
  echo "$target: idle check ${busy}% busy, load $(cut -d' ' -f1-3 /proc/loadavg)" >> "$OUT/machine.txt"
  MEASURED=""
  warmup=$REF_WARMUP
  case $target in
    direct) warmup=$WARMUP ;;
    tollgate) # bin/tollgate's flags for TOLLGATE_MEMORY (default 256m), JVM_EXTRA after them
              start tollgate 1 "$TG" env TOLLGATE_JAR="$GW_JAR" TOLLGATE_MEMORY="${TOLLGATE_MEMORY:-256m}" JAVA_OPTS="${JVM_EXTRA:-}" \
                "$ROOT/bin/tollgate" run -c "$OUT/tollgate.yaml"
              MEASURED=$PID; warmup=$WARMUP ;;
    haproxy) start haproxy 1 "$HA" haproxy -db -f "$OUT/haproxy.cfg"
             MEASURED=$PID ;;
  esac
  echo "$target: warming up for ${warmup}s" >&2
  generator "${PORT[$target]}" 10 "$warmup" 0 > "$OUT/$target.warmup.txt" 2>&1 \
    || die "$target: no call succeeded during the warm-up, see $OUT/$target.warmup.txt"
  for inflight in $INFLIGHT; do measure "$target" "$inflight"; done
  if [ -n "$MEASURED" ]; then
    stop "$MEASURED"
    left=(); for p in "${STARTED[@]}"; do [ "$p" = "$MEASURED" ] || left+=("$p"); done; STARTED=("${left[@]}")
  fi
done
echo "uptime after: $(uptime)" | tee -a "$OUT/machine.txt" >&2

echo "| target | scenario | QPS | p50 us | p99 us | proxy CPU% | US/REQ | errors |"
echo "|---|---|---:|---:|---:|---:|---:|---:|"
printf '%s\n' "${ROWS[@]}"
for inflight in $INFLIGHT; do
  t=${RESULT[tollgate,$inflight]:-} h=${RESULT[haproxy,$inflight]:-}
  [ -n "$t" ] && [ -n "$h" ] || continue
  awk -v s="c$CONNS x $inflight" -v t="$t" -v h="$h" 'BEGIN { split(t, a, " "); split(h, b, " ")
    printf "%-10s tollgate/haproxy  QPS %sx  p99 %sx  US/REQ %sx\n", s, r(a[1], b[1]), r(a[2], b[2]), r(a[3], b[3]) }
    function r(x, y) { return y > 0 ? sprintf("%.2f", x / y) : "-" }'
done
echo "raw output: $OUT" >&2
