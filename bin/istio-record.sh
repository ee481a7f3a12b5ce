#!/usr/bin/env bash
# bin/istio-record.sh - records what a real istiod sends a Tollgate ingress gateway node, for
# IstiodRecordedTest to replay (docs/istio.md, "Resources recorded from istiod").
#
# Runs pilot-discovery without Kubernetes on a directory of Istio configuration covering several
# features (a Gateway with an HTTP and a TLS server, a VirtualService with a header match, retries,
# a fault, a mirror and weighted routes, a ServiceEntry resolved by DNS, a mesh service reached
# with ISTIO_MUTUAL), connects to it as the node router~127.0.0.1~tollgate-1.istio-system~... with
# IstiodRecorder (test sources of gateway-server) and writes the four DiscoveryResponses it got,
# binary protobuf as the stream carries them, into gateway-server/src/test/resources/istio/recorded.
#
# Usage: bin/istio-record.sh PILOT_DISCOVERY [OUT_DIR]
#   PILOT_DISCOVERY  the pilot-discovery binary, built from Istio's source:
#                    cd istio && go build -o pilot-discovery ./pilot/cmd/pilot-discovery
#                    (Istio 1.29.6 pins pseudo-versions of istio.io/api and istio.io/client-go the Go
#                    module proxy refuses: add `replace` directives to their sources at commits
#                    1092f7f89789 and c9b1c0627182 first; see docs/istio.md)
# Compiles the gateway and its test classes first (./mvnw -o test-compile).
set -euo pipefail

pilot=${1:?usage: bin/istio-record.sh PILOT_DISCOVERY [OUT_DIR]}
root=$(cd "$(dirname "$0")/.." && pwd)
out=${2:-$root/gateway-server/src/test/resources/istio/recorded}
work=$(mktemp -d)
trap 'kill "${istiod:-}" 2>/dev/null || true; rm -rf "$work"' EXIT
mkdir -p "$work/config"

cat > "$work/config/gateway.yaml" <<'YAML'
apiVersion: networking.istio.io/v1
kind: Gateway
metadata: { name: ingress, namespace: istio-system }
spec:
  selector: { istio: ingressgateway }
  servers:
  - port: { number: 10080, name: http, protocol: HTTP }
    hosts: ["*"]
  - port: { number: 10443, name: https, protocol: HTTPS }
    hosts: ["shop.example.com"]
    tls: { mode: SIMPLE, credentialName: shop-cert }
---
apiVersion: networking.istio.io/v1
kind: VirtualService
metadata: { name: features, namespace: istio-system }
spec:
  hosts: ["*"]
  gateways: [istio-system/ingress]
  http:
  - name: canary
    match: [ { headers: { x-canary: { exact: "yes" } } } ]
    route: [ { destination: { host: b.example.com, port: { number: 80 } } } ]
  - name: retried
    match: [ { uri: { prefix: /retried } } ]
    retries: { attempts: 3, perTryTimeout: 2s, retryOn: "5xx,connect-failure" }
    route: [ { destination: { host: a.example.com, port: { number: 80 } } } ]
  - name: faulty
    match: [ { uri: { prefix: /faulty } } ]
    fault: { abort: { httpStatus: 503, percentage: { value: 50 } }, delay: { fixedDelay: 1s, percentage: { value: 10 } } }
    route: [ { destination: { host: a.example.com, port: { number: 80 } } } ]
  - name: mirrored
    match: [ { uri: { prefix: /mirrored } } ]
    route: [ { destination: { host: a.example.com, port: { number: 80 } } } ]
    mirror: { host: b.example.com, port: { number: 80 } }
    mirrorPercentage: { value: 25 }
  - name: dns
    match: [ { uri: { prefix: /dns } } ]
    route: [ { destination: { host: dns.example.com, port: { number: 80 } } } ]
  - name: mesh
    match: [ { uri: { prefix: /mesh } } ]
    route: [ { destination: { host: app.default.svc.cluster.local, port: { number: 80 } } } ]
  - name: split
    route:
    - { destination: { host: a.example.com, port: { number: 80 } }, weight: 70 }
    - { destination: { host: b.example.com, port: { number: 80 } }, weight: 30 }
YAML
# The ServiceEntries live in application namespaces, not in the gateway's: istiod takes a proxy's
# labels from the first service instance at the proxy's IP in the proxy's namespace, and these
# endpoints share the node's 127.0.0.1, so in istio-system their labels would replace the node's
# LABELS and the Gateway would select no proxy (no listener sent).
cat > "$work/config/services.yaml" <<'YAML'
apiVersion: networking.istio.io/v1
kind: ServiceEntry
metadata: { name: a, namespace: shop }
spec:
  hosts: [a.example.com]
  location: MESH_EXTERNAL
  resolution: STATIC
  ports: [ { number: 80, name: http, protocol: HTTP } ]
  endpoints: [ { address: 127.0.0.1, ports: { http: 18081 } } ]
---
apiVersion: networking.istio.io/v1
kind: ServiceEntry
metadata: { name: b, namespace: shop }
spec:
  hosts: [b.example.com]
  location: MESH_EXTERNAL
  resolution: STATIC
  ports: [ { number: 80, name: http, protocol: HTTP } ]
  endpoints: [ { address: 127.0.0.1, ports: { http: 18082 } } ]
---
apiVersion: networking.istio.io/v1
kind: ServiceEntry
metadata: { name: dns, namespace: shop }
spec:
  hosts: [dns.example.com]
  location: MESH_EXTERNAL
  resolution: DNS
  ports: [ { number: 80, name: http, protocol: HTTP } ]
  endpoints: [ { address: localhost, ports: { http: 18083 } } ]
---
apiVersion: networking.istio.io/v1
kind: ServiceEntry
metadata: { name: app, namespace: default }
spec:
  hosts: [app.default.svc.cluster.local]
  location: MESH_INTERNAL
  resolution: STATIC
  ports: [ { number: 80, name: http, protocol: HTTP } ]
  endpoints:
  - { address: 127.0.0.1, ports: { http: 18084 }, labels: { app: app, security.istio.io/tlsMode: istio }, serviceAccount: app }
---
apiVersion: networking.istio.io/v1
kind: DestinationRule
metadata: { name: app, namespace: default }
spec:
  host: app.default.svc.cluster.local
  trafficPolicy: { tls: { mode: ISTIO_MUTUAL } }
YAML
printf 'enableTracing: false\n' > "$work/mesh.yaml"
: > "$work/none.yaml"

xds=127.0.0.1:15910
http=15914
"$pilot" discovery --configDir="$work/config" --registries= --meshConfig="$work/mesh.yaml" \
  --networksConfig="$work/none.yaml" --grpcAddr=$xds --httpAddr=127.0.0.1:$http \
  --httpsAddr=127.0.0.1:15917 --secureGRPCAddr=127.0.0.1:15912 --monitoringAddr=127.0.0.1:15915 \
  --domain=cluster.local --clusterID=Kubernetes --namespace=istio-system > "$work/istiod.log" 2>&1 &
istiod=$!
for _ in $(seq 1 120); do
  curl -fs "http://127.0.0.1:$http/debug/syncz" >/dev/null 2>&1 && break
  sleep 1
done
curl -fs "http://127.0.0.1:$http/debug/syncz" >/dev/null || { cat "$work/istiod.log" >&2; echo "istiod not ready" >&2; exit 1; }

cd "$root"
./mvnw -B -q -o test-compile dependency:build-classpath -pl gateway-server -am -Dmdep.includeScope=test \
  -Dmdep.outputFile="$work/classpath" >/dev/null
java -cp "gateway-server/target/test-classes:gateway-server/target/classes:$(cat "$work/classpath")" \
  io.tollgate.server.IstiodRecorder "$xds" "$out"
echo "recorded into $out:" && ls -l "$out"
