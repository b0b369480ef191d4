#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The sidecar for an unmodified Curio (issue #37 item 1c, docs/deploy.md), black-box: a CA, a
# server certificate and a sidecar client certificate (CN curio-sidecar-1) from the openssl CLI;
# the real cuzk-daemon on 127.0.0.1 with TLS and tls_client_ca_file (CPU prover, the shared 2 KiB
# parameters of the porep_2k_params fixture); HAProxy in the foreground with the shipped
# deploy/sidecar/haproxy-sidecar.cfg, only its addresses and paths replaced, listening in
# plaintext.
# Checks: `cuzk-bench status` and a 2 KiB PoRep `cuzk-bench single` through the sidecar, dialled
# in plaintext as Curio dials (the proof verifies); the daemon logs the request from the tenant
# curio-sidecar-1 and counts it in cuzk_tenant_jobs_total; a plaintext call straight to the
# daemon's TLS port fails. A missing haproxy or openssl is a failure, never a skip. Seconds.
# usage: CUZK_TEST_PARAMS_DIR=DIR sidecar_haproxy.sh CUZK_DAEMON CUZK_BENCH CUZK
set -euo pipefail

[[ $# -eq 3 ]] || { echo "usage: $0 CUZK_DAEMON CUZK_BENCH CUZK" >&2; exit 2; }
daemon_bin=$(realpath "$1")
bench=$(realpath "$2")
cuzk=$(realpath "$3")
here=$(cd "$(dirname "$0")" && pwd)
conf_in=$here/../../deploy/sidecar/haproxy-sidecar.cfg
# step, fail, expect_rc
source "$here/e2e_lib.sh"
params=${CUZK_TEST_PARAMS_DIR:?CUZK_TEST_PARAMS_DIR is not set (run through ctest: fixture porep_2k_params)}
haproxy=$(command -v haproxy || { [[ -x /usr/sbin/haproxy ]] && echo /usr/sbin/haproxy; } || true)
[[ -n $haproxy ]] || fail "haproxy is not installed (apt-get install haproxy; scripts/install_deps.sh)"
command -v openssl >/dev/null || fail "openssl is not installed"
[[ -f $conf_in ]] || fail "missing $conf_in"

work=$(mktemp -d)
daemon_pid="" sidecar_pid=""
# Keeps the script's own exit status: under set -e a failing `wait` (haproxy ends with 143 on
# SIGTERM) would end this trap early, leave the daemon running and make a pass exit 143.
finish() {
  local rc=$?
  set +e
  if [[ -n $sidecar_pid ]]; then kill "$sidecar_pid" 2>/dev/null; wait "$sidecar_pid" 2>/dev/null; fi
  if [[ -n $daemon_pid ]]; then kill "$daemon_pid" 2>/dev/null; wait "$daemon_pid" 2>/dev/null; fi
  rm -rf "$work"
  exit "$rc"
}
trap finish EXIT
cd "$work"
show_logs() {
  echo "--- daemon.log" >&2; grep -v "^$" daemon.log | tail -n 40 >&2 || true
  echo "--- sidecar.log" >&2; tail -n 40 sidecar.log >&2 || true
}
die() { show_logs; fail "$@"; }

step "certificates: a CA, the daemon's server certificate, the sidecar's client certificate"
key ca
openssl req -x509 -new -key ca.key -days 2 -subj /CN=cuzk-test-ca -out ca.pem 2>/dev/null
printf 'subjectAltName=IP:127.0.0.1,DNS:localhost\n' >server.ext
signed server localhost server.ext
signed sidecar curio-sidecar-1
[[ -s ca.pem && -s server.pem && -s sidecar.pem ]] || fail "openssl did not make the certificates"
chmod 600 ./*.key

step "seal a 2 KiB sector"
expect_rc 0 "$cuzk" porep seal --registered-proof StackedDrg2KiBV1_1 --miner-id 1000 \
  --sector-id 7 --out-dir sector

read -r grpc_port sidecar_port status_port < <(python3 -c '
import socket
s = [socket.socket() for _ in range(3)]
for x in s: x.bind(("127.0.0.1", 0))
print(*[x.getsockname()[1] for x in s])')

step "cuzk-daemon: mutual TLS on 127.0.0.1:$grpc_port"
cat >cuzk.toml <<TOML
[daemon]
listen = "127.0.0.1:$grpc_port"
status_listen = "127.0.0.1:$status_port"
tls_cert_file = "$work/server.pem"
tls_key_file = "$work/server.key"
tls_client_ca_file = "$work/ca.pem"
[srs]
param_cache = "$params"
[memory]
total_budget = "8GiB"
[tenants.curio-sidecar-1]
weight = 1
TOML
"$daemon_bin" -c cuzk.toml --log-level debug >daemon.log 2>&1 &
daemon_pid=$!
for _ in $(seq 200); do
  grep -q "cuzk.v1 serving on" daemon.log && break
  kill -0 "$daemon_pid" 2>/dev/null || die "cuzk-daemon exited at start"
  sleep 0.05
done
grep -q "cuzk.v1 serving on" daemon.log || die "cuzk-daemon did not serve within 10 s"

step "haproxy: plaintext 127.0.0.1:$sidecar_port -> mutual TLS 127.0.0.1:$grpc_port"
# The shipped file with this test's addresses and paths; logs to stderr, in the foreground (-db).
cat sidecar.pem sidecar.key >sidecar-crt.pem
sed -e "s|log /dev/log local0|log stderr format short local0|" \
  -e "s|bind 127.0.0.1:9820|bind 127.0.0.1:$sidecar_port|" \
  -e "s|gpu-box.example:9820|127.0.0.1:$grpc_port|" -e "s|gpu-box.example|localhost|g" \
  -e "s|/etc/cuzk-sidecar/ca.pem|$work/ca.pem|" \
  -e "s|/etc/cuzk-sidecar/curio-a.pem|$work/sidecar-crt.pem|" "$conf_in" >sidecar.cfg
for want in "bind 127.0.0.1:$sidecar_port" "127.0.0.1:$grpc_port ssl verify required" \
  "ca-file $work/ca.pem" "crt $work/sidecar-crt.pem" "verifyhost localhost" "alpn h2"; do
  grep -qF "$want" sidecar.cfg || fail "sidecar.cfg: the shipped file did not give '$want'"
done
"$haproxy" -c -f sidecar.cfg >sidecar.log 2>&1 || die "haproxy -c refused the sidecar config"
"$haproxy" -db -f sidecar.cfg >sidecar.log 2>&1 &
sidecar_pid=$!
for _ in $(seq 200); do
  (exec 3<>"/dev/tcp/127.0.0.1/$sidecar_port") 2>/dev/null && break
  kill -0 "$sidecar_pid" 2>/dev/null || die "haproxy exited at start"
  sleep 0.05
done

step "cuzk-bench status through the sidecar (plaintext, as Curio dials)"
rc=0
timeout 20 "$bench" -a "127.0.0.1:$sidecar_port" status >out.log 2>&1 || rc=$?
[[ $rc -eq 0 ]] || { cat out.log >&2; die "cuzk-bench status through the sidecar exited $rc"; }
[[ -s out.log ]] || die "cuzk-bench status printed nothing"

step "a 2 KiB PoRep through the sidecar"
rc=0
timeout 240 "$bench" -a "127.0.0.1:$sidecar_port" single --c1 sector/c1.json \
  --registered-proof StackedDrg2KiBV1_1 --sector-num 7 --miner-id 1000 \
  --request-id sidecar-porep-7 -o proof.bin >out.log 2>&1 || rc=$?
[[ $rc -eq 0 ]] || { cat out.log >&2; die "cuzk-bench single through the sidecar exited $rc"; }
[[ $(stat -c %s proof.bin) -eq 192 ]] || die "expected a 192-byte proof"
expect_rc 0 "$cuzk" verify porep --c1 sector/c1.json --params-dir "$params" --miner-id 1000 \
  --proof proof.bin

step "the daemon saw the sidecar's tenant"
grep -q "request sidecar-porep-7 .*from tenant curio-sidecar-1 " daemon.log ||
  die "the daemon's log has no request sidecar-porep-7 from tenant curio-sidecar-1"
expect_rc 0 timeout 20 "$bench" -a "127.0.0.1:$sidecar_port" metrics
grep -q '^cuzk_tenant_jobs_total{tenant="curio-sidecar-1".*} 1$' out.log ||
  { cat out.log >&2; die "cuzk_tenant_jobs_total of curio-sidecar-1 is not 1"; }

step "plaintext straight to the daemon's TLS port fails"
rc=0
timeout 20 "$bench" -a "127.0.0.1:$grpc_port" status >out.log 2>&1 || rc=$?
[[ $rc -ne 0 ]] || { cat out.log >&2; die "a plaintext GetStatus to the TLS port succeeded"; }
# ... and TLS without a client certificate too (the CA checks the daemon; no certificate: refused)
rc=0
timeout 20 "$bench" -a "https://localhost:$grpc_port" --tls-ca ca.pem status >out.log 2>&1 || rc=$?
[[ $rc -ne 0 ]] || { cat out.log >&2; die "a TLS GetStatus without a client certificate succeeded"; }
kill -0 "$daemon_pid" 2>/dev/null || die "the daemon died"
echo "sidecar_haproxy: all checks passed"
