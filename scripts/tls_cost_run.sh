#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# What TLS costs on a 32 GiB PoRep C1 request (issue 37 item 6): the wall time from the client's
# send to the daemon's answer and the CPU each side spends, over the unix socket, plaintext TCP
# on loopback, TLS (server certificate) and mutual TLS.
#
#   scripts/tls_cost_run.sh [BUILD_DIR]        (default: build)
#
# No 32 GiB parameters are needed: each daemon runs with memory.total_budget = 16MiB, so a Prove
# of the 51 MB C1 is received, its C1 decoded (the engine's submit check) and then refused
# RESOURCE_EXHAUSTED ("exceed the host budget") without queuing anything. Request kinds:
#   prove      the C1 as Curio sends it, on a connection opened before the call (Curio's channel);
#   transport  the same bytes with proof_kind 0: answered INVALID_ARGUMENT as soon as the message
#              is in and parsed, i.e. the transfer alone;
#   prove-new  prove on a new connection (TCP connect and, with TLS, the handshake included);
#   status-new, status  a GetStatus (no payload) on a new / an open connection: the handshake.
# The client is scripts/tls_cost_client.cpp (built here from proto/ with protoc and Debian's
# grpc++); it reports per call the wall time, its own CPU (getrusage) and the daemon's
# (/proc/PID/stat, 10 ms ticks). Four daemons run side by side, idle between calls; each round
# visits the transports in a rotated order, each visit makes 1 + CALLS calls of each kind on one
# client process and keeps the last CALLS (the first warms the process, as Curio's long-lived
# client is). ROUNDS (default 8) x CALLS (default 2) samples per cell. PERF=0 skips the perf
# profiles (by library) of TCP and TLS transfers. Prints the machine, the commit, the binaries'
# build type, the ciphers' rates, every call and the summary (median, min-max, mean). About 6
# minutes on 2 cores. Results: bench/results/cpu-2core/2026-12-06-tls-cost.md.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$repo/build}" && pwd)
rounds=${ROUNDS:-8}
calls=${CALLS:-2}
w=$(mktemp -d /tmp/tls-cost.XXXXXX)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$w"
}
trap cleanup EXIT
step() { echo "== $* ($(date +%T))"; }

step "machine"
echo "date $(date -u +%FT%TZ), $(uname -srm)"
echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2-), $(nproc) cores;" \
  "flags: $(grep -m1 -o -w -E 'aes|vaes|vpclmulqdq|avx512f' /proc/cpuinfo | sort -u | tr '\n' ' ')"
echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg) (the machine may be shared)"
echo "commit $(git -C "$repo" rev-parse --short HEAD)$(git -C "$repo" diff --quiet HEAD -- \
  src apps proto 2>/dev/null || echo ' (src/apps/proto modified)')"
echo "build dir $build: CMAKE_BUILD_TYPE=$(sed -n 's/^CMAKE_BUILD_TYPE:STRING=//p' \
  "$build/CMakeCache.txt"), CMAKE_CXX_FLAGS_RELEASE=$(sed -n \
  's/^CMAKE_CXX_FLAGS_RELEASE:STRING=//p' "$build/CMakeCache.txt")"
mkdir -p "$w/bin" "$w/params" "$w/certs"
# A snapshot: the build dir may be rebuilt while this runs.
cp "$build/apps/cuzk-daemon/cuzk-daemon" "$build/apps/cuzk/cuzk" "$w/bin/"
"$w/bin/cuzk-daemon" --version
echo "$(openssl version); grpc++ $(dpkg-query -W -f '${Version}' libgrpc++1.51 2>/dev/null ||
  echo '?'); protobuf $(pkg-config --modversion protobuf)"

step "ciphers (openssl speed, 16 KiB blocks, one core)"
for c in aes-128-gcm aes-256-gcm chacha20-poly1305; do
  openssl speed -seconds 2 -bytes 16384 -evp "$c" 2>/dev/null | tail -1
done

step "the client, the C1, the certificates"
protoc -I "$repo/proto" --cpp_out="$w" --grpc_out="$w" \
  --plugin=protoc-gen-grpc="$(command -v grpc_cpp_plugin)" cuzk/v1/proving.proto
# shellcheck disable=SC2046 # pkg-config's words
g++ -std=c++20 -O2 -I "$w" "$repo/scripts/tls_cost_client.cpp" "$w/cuzk/v1/proving.pb.cc" \
  "$w/cuzk/v1/proving.grpc.pb.cc" -o "$w/client" $(pkg-config --cflags --libs grpc++ protobuf)
"$w/bin/cuzk" porep gen-vanilla --registered-proof StackedDrg32GiBV1_1 --synthetic \
  --out "$w/c1.json" | tail -1
(
  cd "$w/certs"
  key() { openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$1.key" 2>/dev/null; }
  key ca
  openssl req -x509 -new -key ca.key -days 2 -subj /CN=tls-cost-ca -out ca.pem 2>/dev/null
  printf 'subjectAltName=IP:127.0.0.1,DNS:localhost\n' >daemon.ext
  for n in daemon client; do
    key $n
    openssl req -new -key $n.key -subj "/CN=tls-cost-$n" -out $n.csr 2>/dev/null
    ext=()
    [[ $n == daemon ]] && ext=(-extfile daemon.ext)
    openssl x509 -req -in $n.csr -CA ca.pem -CAkey ca.key -CAcreateserial -days 2 "${ext[@]}" \
      -out $n.pem 2>/dev/null
  done
  ls ./*.pem
)

step "four daemons: unix socket, TCP, TLS, mutual TLS (memory.total_budget = 16MiB)"
read -r p_tcp p_tls p_mtls < <(python3 -c 'import socket
ss = [socket.socket() for _ in range(3)]
for s in ss: s.bind(("127.0.0.1", 0))
print(*[s.getsockname()[1] for s in ss])')
declare -A addr=([unix]="unix://$w/cuzk.sock" [tcp]="127.0.0.1:$p_tcp" [tls]="127.0.0.1:$p_tls"
  [mtls]="127.0.0.1:$p_mtls")
declare -A creds=([unix]="" [tcp]="" [tls]="$w/certs/ca.pem"
  [mtls]="$w/certs/ca.pem $w/certs/client.pem $w/certs/client.key")
declare -A dpid
transports=(unix tcp tls mtls)
for t in "${transports[@]}"; do
  {
    echo "[daemon]"
    echo "listen = \"${addr[$t]}\""
    if [[ $t == tls || $t == mtls ]]; then
      echo "tls_cert_file = \"$w/certs/daemon.pem\""
      echo "tls_key_file = \"$w/certs/daemon.key\""
    fi
    [[ $t == mtls ]] && echo "tls_client_ca_file = \"$w/certs/ca.pem\""
    printf '[srs]\nparam_cache = "%s"\n[memory]\ntotal_budget = "16MiB"\n' "$w/params"
  } >"$w/$t.toml"
  "$w/bin/cuzk-daemon" -c "$w/$t.toml" >"$w/$t.log" 2>&1 &
  dpid[$t]=$!
  pids+=("$!")
done
for t in "${transports[@]}"; do
  for _ in $(seq 100); do
    if grep -q "serving on" "$w/$t.log"; then break; fi
    sleep 0.1
  done
  grep "serving on" "$w/$t.log" || {
    cat "$w/$t.log"
    exit 1
  }
done

# one T KIND ROUND: 1 + calls calls of KIND over transport T on one client process; the calls
# after the first go to $w/raw as "T KIND ROUND CALL wall_ms client_cpu_ms daemon_cpu_ms code".
one() {
  local t=$1 kind=$2 round=$3 mode=reuse rpc=$2
  case $kind in
  prove-new) mode=fresh rpc=prove ;;
  status-new) mode=fresh rpc=status ;;
  esac
  # shellcheck disable=SC2086 # creds: 0 to 3 words
  "$w/client" "${addr[$t]}" "$w/c1.json" "${dpid[$t]}" $((1 + calls)) $mode $rpc ${creds[$t]} |
    awk -v t="$t" -v k="$kind" -v r="$round" \
      '$1 == "call" && $2 > 0 { print t, k, r, $2, $4, $6, $8, $10 }' | tee -a "$w/raw"
}

kinds=(prove transport prove-new status-new status)
step "rounds: $rounds x $calls calls per transport and kind"
echo "transport kind round call wall_ms client_cpu_ms daemon_cpu_ms grpc_code"
for t in "${transports[@]}"; do one "$t" prove 0 >/dev/null; done  # every daemon warm
: >"$w/raw"
for r in $(seq "$rounds"); do
  for i in 0 1 2 3; do
    t=${transports[$(((i + r) % 4))]}
    for k in "${kinds[@]}"; do one "$t" "$k" "$r"; done
  done
done
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"

step "the daemons' CPU while idle (5 s)"
for t in "${transports[@]}"; do
  a=$(awk '{print $14 + $15}' "/proc/${dpid[$t]}/stat")
  sleep 1
  echo "$t: $(($(awk '{print $14 + $15}' "/proc/${dpid[$t]}/stat") - a)) ticks in 1 s"
done

step "summary: median [min-max] (mean) over $((rounds * calls)) calls; delta: median minus TCP's"
python3 - "$w/raw" <<'EOF'
import statistics as st, sys
rows = [l.split() for l in open(sys.argv[1]) if l.strip()]
cells = {}
for t, k, r, c, wall, ccpu, dcpu, code in rows:
    cells.setdefault((k, t), []).append((float(wall), float(ccpu), float(dcpu), code))
def fmt(xs):
    return f"{st.median(xs):7.1f} [{min(xs):.0f}-{max(xs):.0f}] ({st.mean(xs):.1f})"
for k in ["prove", "transport", "prove-new", "status-new", "status"]:
    print(f"-- {k}")
    print(f"{'':6} {'wall ms':>26} {'client CPU ms':>26} {'daemon CPU ms':>26}  codes")
    base = cells.get((k, "tcp"))
    for t in ["unix", "tcp", "tls", "mtls"]:
        v = cells.get((k, t))
        if not v: continue
        cols = [[x[i] for x in v] for i in range(3)]
        line = f"{t:6} " + " ".join(f"{fmt(c):>26}" for c in cols)
        print(line + "  " + ",".join(sorted({x[3] for x in v})))
    for t in ["tls", "mtls"]:
        v = cells.get((k, t))
        if not v or not base: continue
        d = [st.median([x[i] for x in v]) - st.median([x[i] for x in base]) for i in range(3)]
        m = [st.mean([x[i] for x in v]) - st.mean([x[i] for x in base]) for i in range(3)]
        print(f"{t} - tcp: wall {d[0]:+.1f} ms, client CPU {d[1]:+.1f} ms, daemon CPU {d[2]:+.1f} ms"
              f" (means: {m[0]:+.1f}, {m[1]:+.1f}, {m[2]:+.1f})")
EOF

if [[ ${PERF:-1} == 1 ]] && command -v perf >/dev/null; then
  for t in tcp tls; do
    step "perf: where 4 transport calls over $t spend their CPU (samples at 1999 Hz, by library)"
    perf record -q -F 1999 -o "$w/d-$t.data" -p "${dpid[$t]}" 2>/dev/null &
    rec=$!
    sleep 0.5
    # shellcheck disable=SC2086
    perf record -q -F 1999 -o "$w/c-$t.data" -- "$w/client" "${addr[$t]}" "$w/c1.json" \
      "${dpid[$t]}" 4 reuse transport ${creds[$t]} >/dev/null 2>&1
    kill -INT "$rec"
    wait "$rec" || true
    for side in daemon client; do
      echo "-- $side"
      perf report -q -n -i "$w/${side:0:1}-$t.data" --no-children --sort dso --stdio 2>/dev/null |
        grep -v '^$' | head -6 || true  # head's early exit: SIGPIPE
    done
  done
fi
