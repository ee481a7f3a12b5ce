#!/usr/bin/env bash
# Regenerates the TLS test fixtures in this directory (run from here; needs openssl 3).
# ca: the test CA; other-ca: a CA nobody trusts; server certificates signed by ca for
# localhost (IP 127.0.0.1 too), a.test and b.test, and a second localhost certificate (for
# reload tests); client certificates signed by ca: client (SAN spiffe://tollgate/client),
# stranger (SAN spiffe://tollgate/stranger) and expired (valid in 2000 only); other-client
# signed by other-ca. Keys are unencrypted PKCS#8; validity 100 years.
set -eu
days=36500
ca() {
  openssl req -x509 -newkey rsa:2048 -nodes -days $days -subj "/CN=$1" -keyout "$1.key" -out "$1.crt" 2>/dev/null
}
leaf() { # name issuer san [extra x509 args]
  local name=$1 issuer=$2 san=$3; shift 3
  openssl req -newkey rsa:2048 -nodes -subj "/CN=$name" -keyout "$name.key" -out "$name.csr" 2>/dev/null
  printf 'subjectAltName=%s\n' "$san" > "$name.ext"
  openssl x509 -req -in "$name.csr" -CA "$issuer.crt" -CAkey "$issuer.key" -CAcreateserial \
    -extfile "$name.ext" -out "$name.crt" "$@" 2>/dev/null
  rm -f "$name.csr" "$name.ext"
}
ca ca
ca other-ca
leaf localhost ca "DNS:localhost,IP:127.0.0.1" -days $days
leaf localhost-next ca "DNS:localhost,IP:127.0.0.1" -days $days
leaf a.test ca "DNS:a.test" -days $days
leaf b.test ca "DNS:b.test,DNS:*.b.test" -days $days
leaf client ca "URI:spiffe://tollgate/client" -days $days
leaf stranger ca "URI:spiffe://tollgate/stranger" -days $days
leaf other-client other-ca "URI:spiffe://tollgate/client" -days $days
# openssl 3.0's x509 cannot backdate: the expired certificate goes through "openssl ca"
openssl req -newkey rsa:2048 -nodes -subj /CN=expired -keyout expired.key -out expired.csr 2>/dev/null
mkdir -p ca.db && : > ca.db/index.txt
cat > ca.db/ca.cnf <<CNF
[ca]
default_ca = test
[test]
database = ca.db/index.txt
new_certs_dir = ca.db
serial = ca.db/serial
default_md = sha256
policy = any
copy_extensions = none
x509_extensions = san
[any]
commonName = supplied
[san]
subjectAltName = URI:spiffe://tollgate/client
CNF
echo 01 > ca.db/serial
openssl ca -batch -config ca.db/ca.cnf -cert ca.crt -keyfile ca.key -in expired.csr -out expired.crt \
  -startdate 20000101000000Z -enddate 20000102000000Z -notext 2>/dev/null
rm -rf ca.db expired.csr ./*.srl
