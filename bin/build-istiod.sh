#!/usr/bin/env bash
# bin/build-istiod.sh - builds istiod 1.29.6 (pilot-discovery) from Istio's source, the binary that
# IstiodIngressTest (PILOT_DISCOVERY=...) and bin/istio-record.sh run without Kubernetes
# (docs/istio.md, "Building istiod").
#
# Istio 1.29.6's go.mod pins pseudo-versions of istio.io/api and istio.io/client-go that the Go module
# proxy refuses, so the build replaces them by their sources at those commits:
#   istio/istio      tag 1.29.6
#   istio/api        1092f7f897896b437df36d8d0df85728706022f2   (v1.29.6-0.20260710004629-1092f7f89789)
#   istio/client-go  c9b1c0627182495187ff91097058329f70dc770b   (v1.29.6-0.20260710004929-c9b1c0627182)
# and adds `replace` directives to go.mod; nothing else of Istio's tree changes.
#
# Usage: bin/build-istiod.sh [OUT]      OUT: the binary to write (default ./pilot-discovery-1.29.6)
# Environment: ISTIO_GIT   where the three repositories are cloned from (default https://github.com/istio;
#                          a directory holding istio, api and client-go clones works too)
#              WORK        the directory the sources go to (default: a temporary one, removed after)
# Needs git and Go 1.25.9 or later (go.mod's `go` line); the build takes 5-40 minutes and ~5 GB of
# Go's build cache.
set -euo pipefail

out=$(realpath -m "${1:-pilot-discovery-1.29.6}")
git_base=${ISTIO_GIT:-https://github.com/istio}
if [[ -n "${WORK:-}" ]]; then
  work=$WORK
  mkdir -p "$work"
else
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
fi

# checkout REPOSITORY REVISION DIR: the tree of REVISION (a tag or a full commit), fetched alone
checkout() {
  local repo=$1 revision=$2 dir=$3
  if [[ ! -d "$dir/.git" ]]; then
    git init -q "$dir"
    git -C "$dir" fetch -q --depth 1 "$git_base/$repo" "$revision"
    git -C "$dir" -c advice.detachedHead=false checkout -q FETCH_HEAD
  fi
}

checkout istio refs/tags/1.29.6 "$work/istio"
checkout api 1092f7f897896b437df36d8d0df85728706022f2 "$work/api"
checkout client-go c9b1c0627182495187ff91097058329f70dc770b "$work/client-go"

cd "$work/istio"
go mod edit -replace istio.io/api=../api -replace istio.io/client-go=../client-go
CGO_ENABLED=0 go build -buildvcs=false -o "$out" ./pilot/cmd/pilot-discovery
echo "built $out"
