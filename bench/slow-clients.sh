#!/usr/bin/env bash
# bench/slow-clients.sh - p99 of normal clients with and without 1000 slow clients holding
# connections (half silent, half trickling a request head: bench/slow-clients.py, which reopens
# what the gateway closes so that 1000 stay held). Rounds alternate baseline and slow so that
# drift on a shared machine hits both alike.
#
# Layout (2 cores): core 1 runs only Tollgate (bench/gateway.sh, one event loop); core 0 runs the
# nginx upstream (1 KB answers), wrk and the slow clients.
#
# Usage: bench/slow-clients.sh [-r ROUNDS=3] [-d SECONDS=10] [-c CONNS=20] [-s SLOW=1000] [-w WARMUP=30]
# Needs: nginx, wrk, python3, taskset; the jar (./mvnw -pl gateway-server -am package -DskipTests).
set -eu
ROUNDS=3 DUR=10 CONNS=20 SLOW=1000 WARMUP=30
while getopts r:d:c:s:w: o; do
  case $o in r) ROUNDS=$OPTARG ;; d) DUR=$OPTARG ;; c) CONNS=$OPTARG ;; s) SLOW=$OPTARG ;; w) WARMUP=$OPTARG ;;
    *) sed -n 2,13p "$0"; exit 2 ;; esac
done
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=$(mktemp -d "${TMPDIR:-/tmp}/tollgate-slow.XXXXXX")
UP=18180 PROXY=18190
PIDS=()
cleanup() { for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; }
trap cleanup EXIT

cat > "$OUT/nginx.conf" <<CFG
worker_processes 1;
daemon off;
pid $OUT/nginx.pid;
error_log $OUT/nginx-error.log warn;
events { worker_connections 20000; }
http {
  access_log off;
  keepalive_requests 10000000;
  client_body_temp_path $OUT/body;
  server { listen 127.0.0.1:$UP backlog=4096; location / { return 200 "$(head -c 1024 /dev/zero | tr '\0' x)"; } }
}
CFG
taskset -c 0 nginx -p "$OUT" -c "$OUT/nginx.conf" > "$OUT/nginx.log" 2>&1 & PIDS+=($!)
PROXY_PORT=$PROXY UPSTREAM_URL=http://127.0.0.1:$UP CONF_DIR=$OUT taskset -c 1 "$HERE/gateway.sh" > "$OUT/gateway.log" 2>&1 &
PIDS+=($!)
for _ in $(seq 600); do curl -sf -o /dev/null "http://127.0.0.1:$PROXY/" && break; sleep 0.1; done
URL="http://127.0.0.1:$PROXY/"
taskset -c 0 wrk -t1 -c"$CONNS" -d"${WARMUP}s" "$URL" > /dev/null

p99() { # wrk --latency output -> p99 in ms
  awk '/^ +99%/{v=$2; n=v+0; if (v ~ /us$/) n/=1000; else if (v ~ /[0-9]s$/) n*=1000; printf "%.2f", n}'
}
rps() { awk '/^Requests\/sec/{printf "%.0f", $2}'; }
echo "| round | slow clients | req/s | p99 ms |"
echo "|---|---|---|---|"
for r in $(seq "$ROUNDS"); do
  for slow in 0 "$SLOW"; do
    HOLDER=""
    if [ "$slow" -gt 0 ]; then
      taskset -c 0 python3 "$HERE/slow-clients.py" 127.0.0.1 "$PROXY" "$slow" > /dev/null 2>"$OUT/holder.log" &
      HOLDER=$!; PIDS+=("$HOLDER"); sleep 3
    fi
    taskset -c 0 wrk -t1 -c"$CONNS" -d"${DUR}s" --latency "$URL" > "$OUT/wrk.txt"
    echo "| $r | $slow | $(rps < "$OUT/wrk.txt") | $(p99 < "$OUT/wrk.txt") |"
    if [ -n "$HOLDER" ]; then kill "$HOLDER"; wait "$HOLDER" 2>/dev/null || true; sleep 1; fi
  done
done
