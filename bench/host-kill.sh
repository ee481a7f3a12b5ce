#!/usr/bin/env bash
# bench/host-kill.sh - what a host death costs under load: two nginx upstreams behind Tollgate
# (route retry_policy { retry_on: [connect-failure, reset], num_retries: 2 }, TCP health check
# every 500 ms, default circuit breakers), wrk -t1 -c200 keep-alive GETs as in bench/compare.sh,
# and one upstream killed with SIGKILL in the middle of each run. Prints one Markdown row per
# kill: requests, non-2xx answers and wrk's socket errors (a connection closed or reset without
# an answer counts as a read error). The killed upstream comes back between runs.
#
# Pinned as bench/compare.sh pins: core 0 runs wrk and the upstreams, core 1 only the gateway.
# Needs: nginx, wrk, taskset, java 17, and the gateway jar (./mvnw -B -q -pl gateway-server -am package -DskipTests)
# Usage: bench/host-kill.sh [-k KILLS] [-c CONNS] [-d SECS] [-w WARMUP_SECS]
#   TOLLGATE_JAR   the jar under test (default gateway-server/target/tollgate.jar), e.g. an older build for a before/after
# After the runs it prints the gateway's counters that explain the failures (errors by reason,
# retries, re-dispatches, host deaths learned; a jar older than issue 15 lacks the last two).
# Ports: upstreams 18181 and 18182, Tollgate 18190, its admin API 18199. Everything it starts, it stops.
set -u

ROOT=$(cd "$(dirname "$0")/.." && pwd)
JAR=${TOLLGATE_JAR:-$ROOT/gateway-server/target/tollgate.jar}
KILLS=3 CONNS=200 DUR=8 WARMUP=15 KILL_AT=3
while [ $# -gt 0 ]; do
  case "$1" in
    -k) KILLS=$2; shift ;;  -c) CONNS=$2; shift ;;
    -d) DUR=$2; shift ;;    -w) WARMUP=$2; shift ;;
    *) echo "usage: bench/host-kill.sh [-k KILLS] [-c CONNS] [-d SECS] [-w WARMUP_SECS]" >&2; exit 2 ;;
  esac
  shift
done
[ -f "$JAR" ] || { echo "host-kill.sh: $JAR missing" >&2; exit 1; }
OUT=$(mktemp -d)
declare -A PGID

start_nginx() { # NAME PORT: a one-worker nginx in its own process group, answering 1 KB
  local dir=$OUT/$1
  mkdir -p "$dir"
  cat > "$dir/nginx.conf" <<CFG
worker_processes 1;
daemon off;
pid $dir/nginx.pid;
error_log $dir/error.log warn;
events { worker_connections 20000; multi_accept on; }
http {
  access_log off;
  keepalive_requests 10000000;
  keepalive_timeout 300s;
  client_body_temp_path $dir/body;
  server { listen 127.0.0.1:$2 reuseport backlog=4096; location / { return 200 "$(head -c 1024 /dev/zero | tr '\0' x)"; } }
}
CFG
  setsid taskset -c 0 nginx -p "$dir" -c "$dir/nginx.conf" >/dev/null 2>&1 &
  PGID[$1]=$!
}

stop_group() { # NAME: SIGKILL to the process group started as NAME, reaped quietly
  [ -n "${PGID[$1]:-}" ] || return 0
  kill -9 -- "-${PGID[$1]}" 2>/dev/null
  wait "${PGID[$1]}" 2>/dev/null
  PGID[$1]=""
}

wait_port() { for _ in $(seq 100); do (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return 0; sleep 0.1; done; return 1; }

cleanup() { stop_group gateway; stop_group a; stop_group b; }
trap cleanup EXIT

start_nginx a 18181
start_nginx b 18182
cat > "$OUT/tollgate.yaml" <<YAML
event_loops: 1
admin: { address: 127.0.0.1, port: 18199 }
listeners:
  - name: http
    address: 127.0.0.1
    port: 18190
    route_config:
      virtual_hosts:
        - name: all
          domains: ["*"]
          routes:
            - match: { prefix: / }
              route: { cluster: upstream, retry_policy: { retry_on: [connect-failure, reset], num_retries: 2 } }
clusters:
  - name: upstream
    endpoints: [{ address: 127.0.0.1, port: 18181 }, { address: 127.0.0.1, port: 18182 }]
    health_check: { type: tcp, interval: 500ms, timeout: 200ms }
YAML
setsid taskset -c 1 env TOLLGATE_JAR="$JAR" TOLLGATE_MEMORY="${TOLLGATE_MEMORY:-256m}" "$ROOT/bin/tollgate" \
  run -c "$OUT/tollgate.yaml" > "$OUT/gateway.log" 2>&1 &
PGID[gateway]=$!
wait_port 18181 && wait_port 18182 && wait_port 18190 || { echo "host-kill.sh: a process did not start, see $OUT" >&2; exit 1; }
taskset -c 0 wrk -t1 -c"$CONNS" -d"${WARMUP}s" http://127.0.0.1:18190/ > "$OUT/warmup.txt"

echo "| jar | kill | requests | non-2xx | socket errors (connect/read/write/timeout) |"
echo "|---|---|---|---|---|"
for k in $(seq "$KILLS"); do
  taskset -c 0 wrk -t1 -c"$CONNS" -d"${DUR}s" http://127.0.0.1:18190/ > "$OUT/run$k.txt" &
  WRK=$!
  sleep "$KILL_AT"
  stop_group b
  wait "$WRK"
  requests=$(awk '/requests in/ {print $1}' "$OUT/run$k.txt")
  non2xx=$(awk '/Non-2xx/ {print $NF}' "$OUT/run$k.txt")
  errors=$(awk '/Socket errors/ {gsub(",", ""); print $4 "/" $6 "/" $8 "/" $10}' "$OUT/run$k.txt")
  echo "| $(basename "$JAR") | $k | ${requests:-?} | ${non2xx:-0} | ${errors:-0/0/0/0} |"
  start_nginx b 18182
  wait_port 18182
  sleep 3
done
echo
curl -s http://127.0.0.1:18199/stats/prometheus \
  | grep -E '^tollgate_(downstream_rq_error|upstream_rq_retry|upstream_rq_retry_overflow|upstream_rq_redispatch|upstream_cx_host_down|upstream_cx_connect_fail|upstream_rq_reset)_total' \
  | sed 's/^/    /'
