#!/usr/bin/env bash
# bench/discovery.sh - service discovery at scale under churn (issue 23's benchmark): a real ZooKeeper
# (Curator's TestingServer) with SERVICES x PER_SERVICE Dubbo provider registrations written as Dubbo
# 3.3.6 writes them at interface level, a gateway routing every Dubbo call to its own service's
# providers through a per_service template, a paced load calling every service in turn, and 1 % of
# the registrations re-registering every second. Prints the gateway's live heap, the time from a
# registry event to the new hosts serving (its tollgate.registry.change_to_serving timer), its
# event-loop delay probe, GC pauses, failed calls and CPU. See RegistryChurnBenchmark's Javadoc.
#
# Needs: ./mvnw -B -q -pl benchmarks -am package -DskipTests (or BENCH_CP, a class path holding
# benchmarks/target/classes and its dependencies), taskset (util-linux), 2 cores: the benchmark's
# JVM (ZooKeeper, the upstreams, the load) on core 0, the gateway alone on core 1.
# Usage: bench/discovery.sh [SERVICES [PER_SERVICE [SECONDS [CALLS_PER_SECOND]]]]
#        (defaults 1000 10 60 2000; env GATEWAY_JVM for the gateway's JVM options)
set -eu
die() { echo "discovery.sh: $*" >&2; exit 1; }
ROOT=$(cd "$(dirname "$0")/.." && pwd)
CP=${BENCH_CP:-$ROOT/benchmarks/target/benchmarks.jar}
[ -n "${BENCH_CP:-}" ] || [ -f "$CP" ] || die "build first: ./mvnw -B -q -pl benchmarks -am package -DskipTests"
[ "$(nproc)" -ge 2 ] || die "needs 2 cores, found $(nproc)"
command -v taskset >/dev/null || die "taskset not found: apt-get install util-linux"
export GATEWAY_CPUS=${GATEWAY_CPUS:-1}
exec taskset -c 0 java -Xmx1g -cp "$CP" io.tollgate.benchmarks.dubbo.RegistryChurnBenchmark "$@"
