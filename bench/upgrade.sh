#!/usr/bin/env bash
# bench/upgrade.sh - a hot restart under load: requests per second, second by second, across
# 'tollgate run --upgrade', and p99 latency during the switch against steady state.
#
# Needs: apt-get install nginx wrk curl, java 17, and the gateway jar:
#        ./mvnw -B -q -pl gateway-server -am package -DskipTests
#
# Layout as bench/compare.sh's on a 2-core machine: core 0 runs the load generator and an nginx
# upstream answering every request with a 1 KB body; core 1 runs the gateway, and the new gateway
# process of the hot restart beside the old one (so the new JVM's start-up competes with the old
# one's traffic, as on a host with one core to spare). After a wrk -t1 -c200 warm-up,
# bench/UpgradeLoad.java keeps C keep-alive HTTP/1.1 connections busy (one request in flight each)
# for -d seconds and, -u seconds in, the new process is started with --upgrade.
# Prints one row per second (requests, p50, p99, errors, reconnects) and a summary: the median
# p99 of the steady seconds before the restart against the worst p99 of the switch (the seconds
# from the new process being ready to the old one's exit, both sharing the socket), and the
# fewest requests in one whole second (the new JVM's start-up on the gateway's core included).
. "$(dirname "$0")/lib.sh"
set -u

usage() {
  cat <<USAGE
Usage: bench/upgrade.sh [-d SECS] [-u SECS] [-w SECS] [-c CONNS] [-o DIR]
  -d SECS    length of the measured run                              (default 20)
  -u SECS    when, into the run, the new process starts              (default 8)
  -w SECS    untimed wrk warm-up of the first process                (default 30)
  -c CONNS   keep-alive connections of the load generator            (default 50)
  -o DIR     output dir for raw output, configs, logs                 (default: mktemp -d)
Ports: upstream 18680, tollgate 18690, its admin API 18699; the hot restart socket lives in DIR.
USAGE
  exit 2
}

die() { echo "upgrade.sh: $*" >&2; exit 1; }

DUR=20 AT=8 WARMUP=30 CONNS=50 OUT=""
while [ $# -gt 0 ]; do
  case "$1" in
    -d) DUR=$2; shift ;;  -u) AT=$2; shift ;;  -w) WARMUP=$2; shift ;;
    -c) CONNS=$2; shift ;;  -o) OUT=$2; shift ;;  *) usage ;;
  esac
  shift
done
ROOT=$(cd "$(dirname "$0")/.." && pwd)
JAR=${TOLLGATE_JAR:-$ROOT/gateway-server/target/tollgate.jar}
[ -f "$JAR" ] || die "$JAR missing: ./mvnw -B -q -pl gateway-server -am package -DskipTests"
OUT=${OUT:-$(mktemp -d)}
mkdir -p "$OUT"
HZ=$(getconf CLK_TCK)
# both epochs start through bin/tollgate, with its flags for TOLLGATE_MEMORY (default 256m)
GW="env TOLLGATE_JAR=$JAR TOLLGATE_MEMORY=${TOLLGATE_MEMORY:-256m} $ROOT/bin/tollgate"

mkdir -p "$OUT/nginx"
cat > "$OUT/nginx/nginx.conf" <<CFG
worker_processes 1;
daemon off;
pid $OUT/nginx/nginx.pid;
error_log $OUT/nginx/error.log warn;
events { worker_connections 20000; }
http {
  access_log off;
  keepalive_requests 10000000;
  keepalive_timeout 300s;
  client_body_temp_path $OUT/nginx/body;
  server { listen 127.0.0.1:18680 backlog=4096; location / { return 200 "$(head -c 1024 /dev/zero | tr '\0' x)"; } }
}
CFG
cat > "$OUT/tollgate.yaml" <<YAML
event_loops: 1
admin: { address: 127.0.0.1, port: 18699 }
upgrade: { socket_path: $OUT/upgrade.sock }
listeners:
  - name: http
    address: 127.0.0.1
    port: 18690
    route_config:
      virtual_hosts:
        - { name: all, domains: ["*"], routes: [ { match: { prefix: / }, route: { cluster: nginx } } ] }
clusters:
  - name: nginx
    endpoints: [ { address: 127.0.0.1, port: 18680 } ]
YAML

start upstream 0 18680 "nginx -p $OUT/nginx -c $OUT/nginx/nginx.conf"
start epoch-0 1 18690 "$GW run -c $OUT/tollgate.yaml"
OLD=$PID
echo "warm-up: wrk -t1 -c200 -d${WARMUP}s" >&2
load taskset -c 0 wrk -t1 -c200 -d"${WARMUP}s" http://127.0.0.1:18690/ > "$OUT/warmup.txt"

echo "measuring ${DUR}s, hot restart at ${AT}s" >&2
taskset -c 0 java "$ROOT/bench/UpgradeLoad.java" 18690 "$CONNS" "$DUR" > "$OUT/seconds.txt" &
LOAD=$!
sleep "$AT"
# shellcheck disable=SC2086 # the command is meant to split into words
taskset -c 1 $GW run -c "$OUT/tollgate.yaml" --upgrade > "$OUT/epoch-1.log" 2>&1 &
STARTED+=("$!")
READY=""
while kill -0 "$OLD" 2>/dev/null; do
  [ -z "$READY" ] && grep -q "gateway ready" "$OUT/epoch-1.log" && READY=$(date +%s%3N)
  sleep 0.05
done
EXITED=$(date +%s%3N)
wait "$LOAD"
grep -q "restart epoch 1" "$OUT/epoch-1.log" || die "the new process did not take over: $(tail -5 "$OUT/epoch-1.log")"
READY=${READY:-$EXITED}
BEGAN=$(awk '/^# started at/{print $4}' "$OUT/seconds.txt")
FROM=$(( (READY - BEGAN) / 1000 )) TO=$(( (EXITED - BEGAN) / 1000 ))

echo "| second | requests | p50 ms | p99 ms | errors | reconnects |"
echo "|---|---|---|---|---|---|"
tail -n +3 "$OUT/seconds.txt" | awk '{printf "| %s | %s | %s | %s | %s | %s |\n", $1, $2, $3, $4, $5, $6}'
STEADY=$(tail -n +3 "$OUT/seconds.txt" | awk -v at="$AT" '$1 >= 2 && $1 < at {print $4}' | sort -n \
  | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}')
tail -n +3 "$OUT/seconds.txt" | awk -v at="$AT" -v from="$FROM" -v to="$TO" -v steady="$STEADY" -v dur="$DUR" '
  $1 >= from && $1 <= to { if ($4 > worst) worst = $4 }
  $1 >= 1 && $1 < dur - 1 { if (min == "" || $2 + 0 < min + 0) min = $2 }
  { errors += $5 }
  END {
    printf "\nsteady p99 (median of seconds 2..%d): %s ms; worst p99 of the switch (seconds %d..%d, new process ready to old one gone): %.2f ms; fewest requests in a whole second (1..%d): %d; errors: %d\n", at - 1, steady, from, to, worst, dur - 2, min, errors
  }'
grep -h "hot_restart_connections\|drain (hot_restart) done" "$OUT/epoch-0.log" "$OUT/epoch-1.log" 2>/dev/null | tail -3
curl -s http://127.0.0.1:18699/stats/prometheus | grep '^tollgate_hot_restart_connections_total' || true
