#!/usr/bin/env bash
# bench/console.sh - what an open console costs the proxy (issue 25, item 7: at most 2 % more CPU per
# request): one Tollgate (bench/gateway.sh, one event loop) in front of a one-worker nginx answering
# 1 KB, under wrk -t1 -cCONNS GET /, measured with and without a console client attached, in turns.
#
# The console client does what an open browser tab of GET /ui does, at the page's rates: it reads
# /stats/stream (server-sent events: each second's sample and, as the stream opens the live access
# log, every finished request) with curl -N, loads /stats/series, /config_dump and
# /access_log?limit=500 once, then polls /server_info, /config/version and /clusters every second,
# /services every 2 s and /listeners every 5 s (console.js's timers).
#
# Pinned as bench/compare.sh pins: core 0 runs wrk, nginx and the console client, core 1 only the
# gateway. Per round both modes run (their order alternating by round, so that a slow minute of a
# shared host does not always hit the same one) against the same warmed process; CPU is the
# gateway process's utime+stime over the run (the admin thread's sampling and serialising
# included), US/REQ its CPU microseconds per request, RATIO the console run's US/REQ over the
# other's. The summary gives the median of the per-round ratios.
#
# Needs: nginx, wrk, curl, taskset, java 17 and the gateway jar (./mvnw -B -q -pl gateway-server -am
# package -DskipTests). Ports: upstream 18280, Tollgate 18290, its admin API 18299.
# Usage: bench/console.sh [-d SECS] [-w WARMUP_SECS] [-r ROUNDS] [-c CONNS] [-o DIR]
. "$(dirname "$0")/lib.sh"
set -u

die() { echo "console.sh: $*" >&2; exit 1; }
ROOT=$(cd "$(dirname "$0")/.." && pwd)
DUR=10 WARMUP=60 ROUNDS=1 CONNS=200 OUT=""
while [ $# -gt 0 ]; do
  case "$1" in
    -d) DUR=$2; shift ;;    -w) WARMUP=$2; shift ;;
    -r) ROUNDS=$2; shift ;; -c) CONNS=$2; shift ;;
    -o) OUT=$2; shift ;;
    *) echo "usage: bench/console.sh [-d SECS] [-w WARMUP_SECS] [-r ROUNDS] [-c CONNS] [-o DIR]" >&2; exit 2 ;;
  esac
  shift
done
for tool in nginx wrk curl taskset; do command -v $tool >/dev/null || die "$tool is missing"; done
for p in 18280 18290 18299; do port_open $p && die "port $p is already in use"; done
[ -n "$OUT" ] || OUT=$(mktemp -d /tmp/tollgate-console.XXXXXX)
mkdir -p "$OUT/nginx" || die "cannot create $OUT"
ulimit -n 20000 2>/dev/null || ulimit -n "$(ulimit -Hn)"
HZ=$(getconf CLK_TCK)
ADMIN=http://127.0.0.1:18299

nginx_1k_conf "$OUT/nginx" 18280
start nginx 0 18280 "nginx -p $OUT/nginx -c $OUT/nginx/nginx.conf"
start tollgate 1 18290 "env PROXY_PORT=18290 UPSTREAM_URL=http://127.0.0.1:18280 ADMIN_PORT=18299 CONF_DIR=$OUT $ROOT/bench/gateway.sh"
GATEWAY=$PID

# console: the stream reader and the page's polls, on core 0, until stopped
console() {
  taskset -c 0 curl -sN "$ADMIN/stats/stream" > "$OUT/stream.txt" &
  for path in /stats/series /config_dump "/access_log?limit=500"; do curl -s -o /dev/null "$ADMIN$path"; done
  local s=0
  while :; do
    for path in /server_info /config/version /clusters; do curl -s -o /dev/null "$ADMIN$path"; done
    [ $((s % 2)) = 0 ] && curl -s -o /dev/null "$ADMIN/services"
    [ $((s % 5)) = 0 ] && curl -s -o /dev/null "$ADMIN/listeners"
    s=$((s + 1))
    sleep 1
  done
}

# run MODE ROUND: one measured wrk run; sets REQUESTS and US_REQ
run() {
  local mode=$1 round=$2 raw="$OUT/$1.r$2.txt" c0 c1 client="" requests
  if [ "$mode" = console ]; then
    console & client=$!
    STARTED+=("$client")
    sleep 2  # subscribed, the first polls done, the access-log tap open
  fi
  c0=$(cpu_ticks "$GATEWAY")
  load taskset -c 0 wrk -t1 -c"$CONNS" -d"${DUR}s" --timeout 5s http://127.0.0.1:18290/ > "$raw" 2>&1
  c1=$(cpu_ticks "$GATEWAY")
  [ -n "$client" ] && stop_tree "$client"
  requests=$(awk '/requests in/{print $1}' "$raw")
  [ -n "$requests" ] && [ "$requests" -gt 0 ] || die "wrk gave no result, see $raw"
  REQUESTS=$requests
  US_REQ=$(awk -v r="$requests" -v c="$((c1 - c0))" -v hz="$HZ" 'BEGIN{ printf "%.2f", c / hz * 1e6 / r }')
}

echo "warming up for ${WARMUP}s (with a console attached half the time)..." >&2
console & WARM_CLIENT=$!
STARTED+=("$WARM_CLIENT")
taskset -c 0 wrk -t1 -c"$CONNS" -d"$((WARMUP / 2 + 1))s" http://127.0.0.1:18290/ > "$OUT/warmup1.txt"
stop_tree "$WARM_CLIENT"
taskset -c 0 wrk -t1 -c"$CONNS" -d"$((WARMUP / 2 + 1))s" http://127.0.0.1:18290/ > "$OUT/warmup2.txt"

echo "| round | requests without | US/REQ without | requests with console | US/REQ with console | ratio |"
echo "|---|---|---|---|---|---|"
RATIOS=()
for round in $(seq "$ROUNDS"); do
  for mode in $([ $((round % 2)) = 1 ] && echo "plain console" || echo "console plain"); do
    run "$mode" "$round"
    if [ "$mode" = plain ]; then q0=$REQUESTS u0=$US_REQ; else q1=$REQUESTS u1=$US_REQ; fi
  done
  ratio=$(awk -v a="$u1" -v b="$u0" 'BEGIN{ printf "%.3f", a / b }')
  RATIOS+=("$ratio")
  echo "| $round | $q0 | $u0 | $q1 | $u1 | $ratio |"
done
grep -c '^event: sample' "$OUT/stream.txt" >/dev/null 2>&1 || die "the console client got no sample: see $OUT/stream.txt"
printf '%s\n' "${RATIOS[@]}" | sort -n | awk '{ r[NR] = $1 } END{
  m = NR % 2 ? r[(NR + 1) / 2] : (r[NR / 2] + r[NR / 2 + 1]) / 2
  printf "\nUS/REQ with the console open / without: median %.3f over %d rounds (%+.1f %%)\n", m, NR, (m - 1) * 100 }'
echo "raw output: $OUT" >&2
