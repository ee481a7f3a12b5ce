# bench/haproxy-defaults.sh - sourced by the bench scripts: prints the global and defaults
# sections every HAProxy peer of this harness runs with (one thread, keep-alive both ways,
# connections to the upstream reused by every client).
haproxy_defaults() {
  cat <<CFG
global
  nbthread 1
  maxconn 9000
defaults
  mode http
  option http-keep-alive
  http-reuse always
  timeout connect 5s
  timeout client 60s
  timeout server 60s
CFG
}
