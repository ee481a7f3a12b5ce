#!/usr/bin/env bash
# bench/bolt.sh - the SOFA Bolt rows of bench/rpc.sh: Bolt load generator direct and through
# Tollgate pinned to its own core, c=50 with 1 and 10 requests in flight, 1 KB requests and answers.
# Any rpc.sh option may follow (-r ROUNDS, -d SECS, -w SECS, --only 'direct tollgate tollgate-b').
exec "$(dirname "$0")/rpc.sh" -p bolt --only "direct tollgate" "$@"
