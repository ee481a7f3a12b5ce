#!/usr/bin/env bash
# bench/dubbo.sh - the Dubbo rows of bench/rpc.sh: Dubbo load generator direct, through Tollgate and
# through Envoy's dubbo_proxy (ENVOY_BIN, or envoy on PATH), each proxy pinned to its own core,
# c=50 with 1 and 10 requests in flight, 1 KB requests and answers captured from Dubbo 3.3.6.
# Any rpc.sh option may follow (-r ROUNDS, -d SECS, -w SECS, --only '...').
exec "$(dirname "$0")/rpc.sh" -p dubbo --only "direct tollgate envoy" "$@"
