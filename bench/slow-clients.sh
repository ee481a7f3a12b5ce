#!/usr/bin/env bash
# bench/slow-clients.sh - p99 of normal clients with and without 1000 slow clients holding
# connections (half silent, half trickling a request head: bench/slow-clients.py, which reopens
# what the gateway closes so that 1000 stay held). Rounds alternate baseline and slow so that
# drift on a shared machine hits both alike. The normal clients send at a fixed rate
# (h2load --rps, well below what the gateway can serve), so the percentiles show the gateway's
# latency rather than the queue a saturating closed-loop client builds.
#
# Layout (2 cores): core 1 runs only Tollgate (bench/gateway.sh, one event loop); core 0 runs the
# nginx upstream (1 KB answers), wrk (warm-up), h2load (measured) and the slow clients.
#
# Usage: bench/slow-clients.sh [-r ROUNDS=3] [-d SECONDS=10] [-c CONNS=20] [-q RPS_PER_CONN=250]
#                               [-s SLOW=1000] [-w WARMUP=30]
# Needs: nginx, wrk, h2load, python3, taskset; the jar (./mvnw -pl gateway-server -am package -DskipTests).
set -eu
ROUNDS=3 DUR=10 CONNS=20 RPS=250 SLOW=1000 WARMUP=30
while getopts r:d:c:q:s:w: o; do
  case $o in r) ROUNDS=$OPTARG ;; d) DUR=$OPTARG ;; c) CONNS=$OPTARG ;; q) RPS=$OPTARG ;; s) SLOW=$OPTARG ;;
    w) WARMUP=$OPTARG ;; *) sed -n 2,17p "$0"; exit 2 ;; esac
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

pct() { # P: the P-th percentile, in ms, of the request durations (us, column 3) in h2load's log
  awk '{print $3}' "$OUT/h2load.log" | sort -n | awk -v p="$1" '{v[NR]=$1} END{i=int(NR*p/100); if(i<1)i=1; printf "%.2f", v[i]/1000}'
}
echo "| round | slow clients | req/s | p50 ms | p99 ms | p99.9 ms |"
echo "|---|---|---|---|---|---|"
for r in $(seq "$ROUNDS"); do
  for slow in 0 "$SLOW"; do
    HOLDER=""
    if [ "$slow" -gt 0 ]; then
      taskset -c 0 python3 "$HERE/slow-clients.py" 127.0.0.1 "$PROXY" "$slow" > /dev/null 2>"$OUT/holder.log" &
      HOLDER=$!; PIDS+=("$HOLDER"); sleep 3
    fi
    taskset -c 0 h2load --h1 -t1 -c"$CONNS" --rps="$RPS" -D "$DUR" --log-file="$OUT/h2load.log" "$URL" > "$OUT/h2load.txt"
    rate=$(awk '/^finished in/{gsub(/,/,""); print int($4)}' "$OUT/h2load.txt")
    echo "| $r | $slow | $rate | $(pct 50) | $(pct 99) | $(pct 99.9) |"
    if [ -n "$HOLDER" ]; then kill "$HOLDER"; wait "$HOLDER" 2>/dev/null || true; sleep 1; fi
  done
done
