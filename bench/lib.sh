#!/usr/bin/env bash
# bench/lib.sh - sourced by the bench scripts, which set OUT (raw output dir) and HZ before use: process
# handling (everything started is stopped by PID on exit) and the CPU / RSS / latency helpers.

port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# --- process handling: everything started here is stopped by PID on exit --------------------

STARTED=()
tree_pids() { # PID and all its descendants
  local all=$1 kids=$1 p
  while [ -n "$kids" ]; do
    kids=$(for p in $kids; do ps -o pid= --ppid "$p"; done | tr -s ' \n' ' ')
    all="$all $kids"
  done
  echo $all
}
stop_tree() { # TERM to the PID and its descendants, KILL what is left after 5 s
  local pids p alive
  pids=$(tree_pids "$1")
  kill -TERM $pids 2>/dev/null
  for _ in $(seq 20); do
    alive=0; for p in $pids; do kill -0 "$p" 2>/dev/null && alive=1; done
    [ $alive = 0 ] && break
    sleep 0.25
  done
  [ $alive = 0 ] || kill -KILL $pids 2>/dev/null
  local left=()
  for p in "${STARTED[@]}"; do [ "$p" = "$1" ] || left+=("$p"); done
  STARTED=("${left[@]}")
}
cleanup() {
  [ -n "$LOAD_PID" ] && stop_tree "$LOAD_PID"
  while [ ${#STARTED[@]} -gt 0 ]; do stop_tree "${STARTED[0]}"; done
}
# load tools run in the background so that Ctrl-C or TERM stops the script at once
LOAD_PID=""
load() { "$@" & LOAD_PID=$!; wait "$LOAD_PID"; LOAD_PID=""; }
trap cleanup EXIT
trap 'exit 130' INT TERM

# start NAME CPU PORT CMD [URL]: runs CMD pinned to CPU in the foreground of a background job, waits
# for PORT, then checks that GET URL (default http://127.0.0.1:PORT/; https is not verified) is 200
start() {
  local name=$1 cpu=$2 port=$3 cmd=$4 url=${5:-http://127.0.0.1:$3/} i=0
  taskset -c "$cpu" bash -c "exec $cmd" > "$OUT/$name.log" 2>&1 &
  PID=$!
  STARTED+=("$PID")
  until port_open "$port"; do
    kill -0 "$PID" 2>/dev/null || { tail -20 "$OUT/$name.log" >&2; die "$name exited during start-up"; }
    i=$((i + 1)); [ $i -gt 600 ] && die "$name is not listening on $port after 60 s"
    sleep 0.1
  done
  [ "$(curl -sk -o /dev/null -w '%{http_code}' --max-time 5 "$url")" = 200 ] \
    || die "GET $url through $name did not return 200"
}

# nginx_1k_conf DIR PORT: DIR/nginx.conf for a one-worker nginx in the foreground, its state in DIR,
# answering every request on 127.0.0.1:PORT with 1 KB over keep-alive connections that last
nginx_1k_conf() {
  cat > "$1/nginx.conf" <<CFG
worker_processes 1;
daemon off;
pid $1/nginx.pid;
error_log $1/error.log warn;
events { worker_connections 20000; multi_accept on; }
http {
  access_log off;
  keepalive_requests 10000000;
  keepalive_timeout 300s;
  client_body_temp_path $1/body;
  server { listen 127.0.0.1:$2 reuseport backlog=4096; location / { return 200 "$(head -c 1024 /dev/zero | tr '\0' x)"; } }
}
CFG
}

# --- measuring -------------------------------------------------------------------------------

cpu_ticks() { # utime+stime summed over the tree (fields 14 and 15 of /proc/PID/stat)
  local p t=0 v
  for p in $(tree_pids "$1"); do
    v=$(awk '{sub(/.*\) /, ""); print $12 + $13}' "/proc/$p/stat" 2>/dev/null) && t=$((t + ${v:-0}))
  done
  echo $t
}
rss_kb() {
  local p t=0 v
  for p in $(tree_pids "$1"); do
    v=$(awk '/^VmRSS:/{print $2}' "/proc/$p/status" 2>/dev/null) && t=$((t + ${v:-0}))
  done
  echo $t
}
busy_pct() { # whole-machine non-idle CPU over 2 s, 100 = one core
  local a b
  a=$(awk '/^cpu /{print $2+$3+$4+$7+$8+$9}' /proc/stat); sleep 2
  b=$(awk '/^cpu /{print $2+$3+$4+$7+$8+$9}' /proc/stat)
  echo $(( (b - a) * 100 / HZ / 2 ))
}
to_ms() { # wrk latency (512.00us, 1.23ms, 1.05s, 2.00m) -> ms
  awk -v v="$1" 'BEGIN{ n = v + 0; u = v; sub(/^[0-9.]+/, "", u)
    if (u == "us") n /= 1000; else if (u == "s") n *= 1000; else if (u == "m") n *= 60000
    printf "%.2f", n }'
}
