#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# A fleet on stock parts (issue #37 item 4, docs/deploy.md "Several proving boxes"), black-box on
# loopback: three real cuzk-daemon processes (CPU prover) on 127.0.0.11, .12 and .13, each with
# mutual TLS and bearer tokens; HAProxy in front with the shipped deploy/fleet/haproxy.cfg, only
# its addresses, ports and file paths replaced (plus a stats socket for the checks); and clients
# acting as Curio: `cuzk-bench batch --retry-unavailable` over mutual TLS with the certificate of
# tenant curio-a, Prove only, the same request again on UNAVAILABLE.
# 100 mixed 2 KiB jobs over three sectors: 2 PoRep (the porep_2k_params fixture), 10 WinningPoSt
# and 88 WindowPoSt (their parameters generated here from a fixed seed, seconds). Mid-run the
# first daemon is SIGKILLed while it proves, the second SIGTERMed (it drains) while it proves.
# Checks: every job answered COMPLETED and verified by the client with the .vk against its own
# sector (0 lost, 0 wrong); at least one call was retried after UNAVAILABLE (the kill hit work in
# flight); each daemon proved for tenant curio-a (the balancer's CN-to-token map); HAProxy marks
# both victims DOWN (/healthz, the closed port) and the third UP; the SIGTERMed daemon exits 0
# after its drain, the survivor keeps serving; the tenant's token is in no log and no metrics.
# A missing haproxy, openssl or python3 is a failure, never a skip. Minutes on 2 cores.
# usage: CUZK_TEST_PARAMS_DIR=DIR fleet_haproxy.sh CUZK_DAEMON CUZK_BENCH CUZK
set -euo pipefail

[[ $# -eq 3 ]] || { echo "usage: $0 CUZK_DAEMON CUZK_BENCH CUZK" >&2; exit 2; }
daemon_bin=$(realpath "$1")
bench=$(realpath "$2")
cuzk=$(realpath "$3")
here=$(cd "$(dirname "$0")" && pwd)
conf_in=$here/../../deploy/fleet/haproxy.cfg
# step, fail, expect_rc
source "$here/e2e_lib.sh"
porep_params=${CUZK_TEST_PARAMS_DIR:?CUZK_TEST_PARAMS_DIR is not set (run through ctest: fixture porep_2k_params)}
haproxy=$(command -v haproxy || { [[ -x /usr/sbin/haproxy ]] && echo /usr/sbin/haproxy; } || true)
[[ -n $haproxy ]] || fail "haproxy is not installed (apt-get install haproxy; scripts/install_deps.sh)"
command -v openssl >/dev/null || fail "openssl is not installed"
command -v python3 >/dev/null || fail "python3 is not installed"
[[ -f $conf_in ]] || fail "missing $conf_in"
compgen -G "$porep_params/*.params" >/dev/null || fail "no .params in $porep_params"

start=$SECONDS
work=$(mktemp -d)
declare -A daemon_pid=()
lb_pid=""
client_pids=()
# Keeps the script's own exit status (a failing `wait` under set -e would end the trap early).
finish() {
  local rc=$? pid
  set +e
  for pid in "${client_pids[@]}"; do kill "$pid" 2>/dev/null; done
  # SIGKILL: a daemon left with jobs would drain them for minutes on SIGTERM.
  for pid in "${daemon_pid[@]}"; do kill -KILL "$pid" 2>/dev/null; done
  [[ -n $lb_pid ]] && kill "$lb_pid" 2>/dev/null
  for pid in "${client_pids[@]}" "${daemon_pid[@]}" $lb_pid; do wait "$pid" 2>/dev/null; done
  rm -rf "$work"
  echo "fleet_haproxy: wall time $((SECONDS - start)) s"
  exit "$rc"
}
trap finish EXIT
cd "$work"
show_logs() {
  local f
  for f in daemon-*.log haproxy.log; do
    [[ -f $f ]] || continue
    echo "--- $f" >&2
    grep -v "^$" "$f" | tail -n 30 >&2 || true
  done
}
die() {
  show_logs
  fail "$@"
}

servers=(gpu1 gpu2 gpu3)
declare -A addr=([gpu1]=127.0.0.11 [gpu2]=127.0.0.12 [gpu3]=127.0.0.13)

step "certificates: one CA for the fleet, the daemons', the balancer's and Curio's"
key ca
openssl req -x509 -new -key ca.key -days 2 -subj /CN=cuzk-fleet-test-ca -out ca.pem 2>/dev/null
printf 'subjectAltName=IP:127.0.0.11,IP:127.0.0.12,IP:127.0.0.13\n' >daemon.ext
signed daemon localhost daemon.ext
printf 'subjectAltName=IP:127.0.0.1,DNS:localhost\n' >lb.ext
signed lb-server localhost lb.ext
signed lb-client cuzk-balancer
signed curio curio-a
for f in ca daemon lb-server lb-client curio; do
  [[ -s $f.pem ]] || fail "openssl did not make $f.pem"
done
# HAProxy takes a certificate and its key in one file.
cat lb-server.pem lb-server.key >lb-server-crt.pem
cat lb-client.pem lb-client.key >lb-client-crt.pem
chmod 600 ./*.key ./*-crt.pem
# The tenant's token: the daemons' tokens file and the balancer's CN map hold it; Curio never
# sees it. The operator's token is this test's, to read each daemon's job list.
token=$(openssl rand -hex 24)
operator_token=$(openssl rand -hex 24)
printf 'curio-a %s\nfleet-test %s readonly operator\n' "$token" "$operator_token" >tokens
printf 'curio-a %s\n' "$token" >tenant-tokens.map
chmod 600 tokens tenant-tokens.map

step "three 2 KiB sectors, their PoSt vanilla proofs and PoSt parameters"
mkdir params
ln -s "$porep_params"/* params/
rand=$(printf '%02x' $(seq 1 31))00
for s in 1 2 3; do
  expect_rc 0 "$cuzk" porep seal --registered-proof StackedDrg2KiBV1_1 --miner-id 1000 \
    --sector-id "$s" --out-dir "sector$s"
done
for kind in window-post winning-post; do
  proof=StackedDrgWindow2KiBV1_1
  [[ $kind == winning-post ]] && proof=StackedDrgWinning2KiBV1
  expect_rc 0 "$cuzk" params generate --circuit "$kind" --registered-proof "$proof" \
    --out-dir params --seed fleet-haproxy-e2e
  for s in 1 2 3; do
    expect_rc 0 "$cuzk" post gen-vanilla --registered-proof "$proof" --sector-dir "sector$s" \
      --sector-id "$s" --randomness "$rand" --out "$kind-$s.json"
  done
done

# The same two ports on the three daemon addresses (the shipped file checks one status port on
# every server), and the balancer's on 127.0.0.1.
read -r grpc_port status_port lb_port < <(python3 -c '
import socket
def free_on_all(hosts, taken):
    while True:
        probe = socket.socket(); probe.bind((hosts[0], 0)); port = probe.getsockname()[1]
        held = [probe]
        try:
            for h in hosts[1:]:
                s = socket.socket(); s.bind((h, port)); held.append(s)
            if port not in taken:
                return port, held
        except OSError:
            pass
        for s in held: s.close()
hosts = ["127.0.0.11", "127.0.0.12", "127.0.0.13"]
g, keep1 = free_on_all(hosts, set())
s, keep2 = free_on_all(hosts, {g})
b, keep3 = free_on_all(["127.0.0.1"], {g, s})
print(g, s, b)')

step "three daemons: mutual TLS and tokens on 127.0.0.1{1,2,3}:$grpc_port, status :$status_port"
for name in "${servers[@]}"; do
  cat >"$name.toml" <<TOML
[daemon]
listen = "${addr[$name]}:$grpc_port"
status_listen = "${addr[$name]}:$status_port"
tls_cert_file = "$work/daemon.pem"
tls_key_file = "$work/daemon.key"
tls_client_ca_file = "$work/ca.pem"
auth_tokens_file = "$work/tokens"
[srs]
param_cache = "$work/params"
[memory]
total_budget = "6GiB"
[tenants.curio-a]
weight = 1
TOML
  "$daemon_bin" -c "$name.toml" >"daemon-$name.log" 2>&1 &
  daemon_pid[$name]=$!
done
for name in "${servers[@]}"; do
  for _ in $(seq 200); do
    grep -q "cuzk.v1 serving on" "daemon-$name.log" && break
    kill -0 "${daemon_pid[$name]}" 2>/dev/null || die "cuzk-daemon $name exited at start"
    sleep 0.05
  done
  grep -q "cuzk.v1 serving on" "daemon-$name.log" ||
    die "cuzk-daemon $name did not serve within 10 s"
done

step "the status listener takes a resumed TLS session as HAProxy's health checks offer it"
# Once, OpenSSL answered a resumption on the peer-verifying status listener with an alert: every
# other health check failed and the balancer took healthy daemons out of rotation. A listener
# that hands out no session to resume (no file after the first handshake) passes too.
for attempt in first resumed; do
  sess=(-sess_out tls-session.pem)
  if [[ $attempt == resumed ]]; then
    [[ -s tls-session.pem ]] || break
    sess=(-sess_in tls-session.pem)
  fi
  rc=0
  timeout 10 openssl s_client -tls1_2 -connect "127.0.0.11:$status_port" -CAfile ca.pem \
    -cert lb-client.pem -key lb-client.key "${sess[@]}" </dev/null >s_client.log 2>&1 || rc=$?
  if ((rc != 0)) || grep -qi "alert" s_client.log; then
    cat s_client.log >&2
    die "the $attempt TLS 1.2 handshake with gpu1's status listener failed"
  fi
done

step "haproxy: mutual TLS 127.0.0.1:$lb_port -> the three daemons"
sed -e "s|log /dev/log local0|log stderr format short local0|" \
  -e "/^global/a\\    stats socket $work/haproxy.sock level admin" \
  -e "s|bind :9820 |bind 127.0.0.1:$lb_port |" \
  -e "s|/etc/haproxy/cuzk/lb-server.pem|$work/lb-server-crt.pem|" \
  -e "s|/etc/haproxy/cuzk/lb-client.pem|$work/lb-client-crt.pem|" \
  -e "s|/etc/haproxy/cuzk/clients-ca.pem|$work/ca.pem|" \
  -e "s|/etc/haproxy/cuzk/daemons-ca.pem|$work/ca.pem|" \
  -e "s|/etc/haproxy/cuzk/tenant-tokens.map|$work/tenant-tokens.map|g" \
  -e "s|http-check connect port 9821 |http-check connect port $status_port |" \
  -e "s|10\.0\.0\.1\([123]\):9820|127.0.0.1\1:$grpc_port|" "$conf_in" >haproxy.cfg
for want in "bind 127.0.0.1:$lb_port ssl" "balance leastconn" "uri /healthz" \
  "http-check connect port $status_port ssl" "server gpu1 127.0.0.11:$grpc_port" \
  "server gpu2 127.0.0.12:$grpc_port" "server gpu3 127.0.0.13:$grpc_port"; do
  grep -qF "$want" haproxy.cfg || fail "haproxy.cfg: the shipped file did not give '$want'"
done
grep -v "^ *#" haproxy.cfg | grep -q "/etc/haproxy\|10\.0\.0\." &&
  fail "haproxy.cfg: a path or address was not replaced"
"$haproxy" -c -f haproxy.cfg >haproxy.log 2>&1 || die "haproxy -c refused the fleet config"
"$haproxy" -db -f haproxy.cfg >haproxy.log 2>&1 &
lb_pid=$!

# server_states: "gpu1=UP gpu2=DOWN ..." from the stats socket (show stat: CSV, status is field 18).
server_states() {
  python3 - "$work/haproxy.sock" <<'PY'
import socket, sys
s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); s.sendall(b"show stat\n")
data = b""
while chunk := s.recv(65536): data += chunk
rows = [l.split(",") for l in data.decode().splitlines() if l.startswith("cuzk_daemons,gpu")]
print(" ".join(f"{r[1]}={r[17].split()[0]}" for r in rows))
PY
}
# wait_states WANT SECONDS: until server_states prints WANT.
wait_states() {
  local got=""
  for _ in $(seq $((${2} * 4))); do
    got=$(server_states 2>/dev/null || true)
    [[ $got == "$1" ]] && return 0
    kill -0 "$lb_pid" 2>/dev/null || die "haproxy exited"
    sleep 0.25
  done
  die "haproxy's servers: '$got', expected '$1' within $2 s"
}
# The health checks (GET /healthz over mutual TLS on the status port) must pass before traffic:
# a server whose check fails goes DOWN within `fall` checks, 4 s.
sleep 5
wait_states "gpu1=UP gpu2=UP gpu3=UP" 10

bench_tls=(-a "https://localhost:$lb_port" --tls-ca ca.pem --tls-cert curio.pem --tls-key curio.key)
# in_progress NAME: the jobs the daemon NAME is proving now, from GetStatus with the operator token.
in_progress() {
  timeout 10 "$bench" -a "https://${addr[$1]}:$grpc_port" --tls-ca ca.pem --tls-cert curio.pem \
    --tls-key curio.key --token "$operator_token" status 2>/dev/null |
    awk '/^queue .* in progress$/ { n += $(NF - 2) } END { print n + 0 }'
}
completed() { cat client-*.log 2>/dev/null | grep -c "\] COMPLETED" || true; }

step "100 jobs as Curio: 2 PoRep, 10 WinningPoSt, 88 WindowPoSt through the balancer"
common=(--miner-id 1000 --param-dir params --retry-unavailable 300)
launch() { # LOG ARGS...
  local log=$1
  shift
  "$bench" "${bench_tls[@]}" batch "${common[@]}" "$@" >"client-$log.log" 2>&1 &
  client_pids+=($!)
}
# Per sector 1, 2, 3. A 2 KiB PoRep costs about 50 CPU-seconds, a WinningPoSt 6 and a WindowPoSt
# 2: the mix keeps the run within minutes on 2 cores.
porep_counts=(0 1 1 0)
winning_counts=(0 4 3 3)
window_counts=(0 30 29 29)
for s in 1 2 3; do
  ((porep_counts[s] == 0)) ||
    launch "porep-$s" -t porep --c1 "sector$s/c1.json" --registered-proof StackedDrg2KiBV1_1 \
      --sector-num "$s" -c "${porep_counts[$s]}" -j 1
  launch "winning-$s" -t winning-post --vanilla "winning-post-$s.json" --randomness "$rand" \
    --registered-proof StackedDrgWinning2KiBV1 -c "${winning_counts[$s]}" -j 1
  launch "window-$s" -t window-post --vanilla "window-post-$s.json" --randomness "$rand" \
    --registered-proof StackedDrgWindow2KiBV1_1 -c "${window_counts[$s]}" -j 2
done

# kill_when_busy NAME SIGNAL AFTER: once AFTER jobs are answered and NAME is proving one.
kill_when_busy() {
  local name=$1 signal=$2 after=$3 busy=0
  for _ in $(seq 1200); do
    if (($(completed) >= after)) && (($(in_progress "$name") > 0)); then
      busy=1
      break
    fi
    sleep 0.25
  done
  ((busy)) || die "$name never proved a job after $after answers (no kill mid-run)"
  step "SIG$signal to $name while it proves ($(completed) of 100 answered)"
  kill -s "$signal" "${daemon_pid[$name]}"
}
kill_when_busy gpu1 KILL 10
wait "${daemon_pid[gpu1]}" 2>/dev/null || true
unset 'daemon_pid[gpu1]'
kill_when_busy gpu2 TERM 30

step "waiting for every answer"
client_failures=0
for pid in "${client_pids[@]}"; do wait "$pid" || client_failures=$((client_failures + 1)); done
client_pids=()
rc=0
wait "${daemon_pid[gpu2]}" || rc=$?
unset 'daemon_pid[gpu2]'

step "checks"
for log in client-*.log; do
  grep -q "^total .*, 0 failed," "$log" || { cat "$log" >&2; die "$log: a job was lost or wrong"; }
done
((client_failures == 0)) || die "$client_failures client(s) exited non-zero"
answered=$(completed)
((answered == 100)) || die "$answered of 100 jobs answered COMPLETED and verified"
grep -h "^\[[0-9]*/[0-9]*\] \(WRONG\|ERROR\|FAILED\)" client-*.log &&
  die "a client saw a wrong or failed answer"
retries=$(cat client-*.log | grep -c "\] retry [0-9]* of .* after UNAVAILABLE" || true)
((retries > 0)) || die "no call was retried after UNAVAILABLE: the kills hit no work in flight"
echo "100 of 100 answered and verified; $retries retries after UNAVAILABLE"
((rc == 0)) || die "the SIGTERMed daemon exited $rc"
grep -q "SIGTERM: draining" daemon-gpu2.log || die "gpu2 did not log its drain"
grep -q "drain timeout" daemon-gpu2.log && die "gpu2 cancelled jobs at its drain timeout"
grep -q "stopped" daemon-gpu2.log || die "gpu2 did not stop cleanly"
for name in "${servers[@]}"; do
  grep -q "request .* from tenant curio-a " "daemon-$name.log" ||
    die "$name served no request of tenant curio-a (the balancer spread nothing to it)"
done
wait_states "gpu1=DOWN gpu2=DOWN gpu3=UP" 10
echo "gpu3 left rotation $(grep -c "Server cuzk_daemons/gpu3 is DOWN" haproxy.log) time(s)"
kill -0 "${daemon_pid[gpu3]}" 2>/dev/null || die "gpu3 died"
expect_rc 0 timeout 20 "$bench" "${bench_tls[@]}" batch -t window-post \
  --vanilla window-post-1.json --randomness "$rand" --registered-proof StackedDrgWindow2KiBV1_1 \
  --miner-id 1000 --param-dir params -c 1
expect_rc 0 timeout 20 "$bench" -a "https://127.0.0.13:$grpc_port" --tls-ca ca.pem \
  --tls-cert curio.pem --tls-key curio.key --token "$operator_token" metrics
grep -q '^cuzk_tenant_jobs_total{tenant="curio-a"' out.log ||
  die "gpu3's metrics name no curio-a jobs"
cp out.log metrics-gpu3.txt
for secret in "$token" "$operator_token"; do
  if grep -l -F "$secret" daemon-*.log haproxy.log client-*.log metrics-gpu3.txt; then
    die "a bearer token appears in the file(s) above"
  fi
done
echo "fleet_haproxy: all checks passed"
