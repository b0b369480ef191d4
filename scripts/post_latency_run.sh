#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# WinningPoSt on a GPU saturated by 32 GiB PoRep, end to end as Curio sees it (issue 37 item 3),
# from built binaries: run from a folder holding cuzk, cuzk-daemon and cuzk-bench
# (scripts/gpu_carry_pack.sh with CUZK_CARRY_SET=porep32g).
#   1. 32 GiB PoRep and 32 GiB WinningPoSt parameters generated on GPU 0 (seeded: benchmark keys)
#   2. a synthetic 32 GiB C1 and a synthetic WinningPoSt vanilla proof
#   3. for each value of EXPRESS (default "true false": gpus.express_lane on, then off, on the same
#      machine): the daemon on GPU 0; one WinningPoSt (its parameters load); POREP proofs
#      (default 8) through `cuzk-bench batch`, 2 in flight, in the background; after WARMUP
#      seconds (default 20: the PoRep parameters loaded, both lanes busy) a WinningPoSt every
#      INTERVAL seconds (default 2.5), COUNT of them (default 20), each through `cuzk-bench single`
#      (its Prove wall is what Curio waits; the proof verified with the generated .vk); then 3 more
#      on the idle GPU. Per value: the WinningPoSt walls (p50, p90, p99, max), the PoRep batch's
#      throughput, the daemon's timeline (timeline-express-VALUE.json) and its log checked for
#      out-of-memory failures, device faults and a CPU fallback.
#   2b. CLI_POREP=1: first the same C1 proved by the CLI on GPU 0 (`cuzk prove porep --gpu 0`: the
#      in-process engine, as the daemon proves) with its wall and peak RSS, verified with
#      `cuzk verify porep`
# Logs to $OUT (default ./post-latency-out). DEADLINE: seconds for the whole run (default 570).
set -uo pipefail
cd "$(dirname "$0")"
export LD_LIBRARY_PATH="$(pwd)${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
out=${OUT:-$(pwd)/post-latency-out}
mkdir -p "$out"
deadline=$((SECONDS + ${DEADLINE:-570}))
source ./gpu_run_lib.sh
w=$(mktemp -d)
daemon=
gpu_sampler=
batch=
trap 'kill $gpu_sampler $daemon $batch 2>/dev/null; rm -rf "$w"' EXIT
machine_info "$w"
start_gpu_sampler
porep=StackedDrg32GiBV1_1
winning=StackedDrgWinning32GiBV1
rand=5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a1a

# One WinningPoSt through the daemon: $1 its request id; the Prove line goes to the log.
winning_post() {
  timeout "$(left)" ./cuzk-bench -a "unix://$w/cuzk.sock" single -t winning-post \
    --registered-proof $winning --randomness $rand --vanilla "$w/winning.json" \
    --param-dir "$w/params" --request-id "$1" 2>&1 | sed "s/^/$1: /"
}

{
  step "1. params generate porep $porep and winning-post $winning --gpu 0"
  t=$SECONDS
  timeout "$(left)" ./cuzk params generate --circuit porep --registered-proof $porep \
    --out-dir "$w/params" --seed porep32g-bench --gpu 0 2>&1 | grep -v ETA
  timeout "$(left)" ./cuzk params generate --circuit winning-post --registered-proof $winning \
    --out-dir "$w/params" --seed winning-post-32g-bench --gpu 0 2>&1 | grep -v ETA
  echo "wall $((SECONDS - t)) s"
  step "2. synthetic C1 and WinningPoSt vanilla proof"
  timeout "$(left)" ./cuzk porep gen-vanilla --registered-proof $porep --synthetic \
    --out "$w/c1.json" 2>&1 | tail -1
  timeout "$(left)" ./cuzk-bench gen-vanilla winning-post --synthetic --registered-proof $winning \
    --randomness $rand --sector-number 77 -o "$w/winning.json"
  ls -la "$w"/*.json
  if [[ ${CLI_POREP:-0} == 1 ]]; then
    step "2b. cuzk prove porep --gpu 0 (the CLI) and cuzk verify porep"
    t=$SECONDS
    python3 -c 'import resource, subprocess, sys
rc = subprocess.run(sys.argv[1:]).returncode
print(f"peak RSS {resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024:.0f} MiB, rc={rc}")' \
      timeout "$(left)" ./cuzk prove porep --c1 "$w/c1.json" --params-dir "$w/params" --gpu 0 \
      --proof-out "$w/cli.bin" 2>&1 | grep -v ETA | tail -20
    echo "wall $((SECONDS - t)) s"
    ./cuzk verify porep --c1 "$w/c1.json" --params-dir "$w/params" --proof "$w/cli.bin"
    echo "verify rc=$? (0 = valid)"
  fi
  for express in ${EXPRESS:-true false}; do
    step "3. express_lane = $express"
    printf '[daemon]\nlisten = "unix://%s/cuzk.sock"\nstatus_listen = "127.0.0.1:9821"\n' "$w" \
      >"$w/cuzk.toml"
    printf '[srs]\nparam_cache = "%s"\n[gpus]\nexpress_lane = %s\n' "$w/params" "$express" \
      >>"$w/cuzk.toml"
    rm -f "$w/cuzk.sock"
    start_daemon "$w/cuzk.toml" "$w/cuzk.sock"
    winning_post "cold-$express"
    timeout "$(left)" ./cuzk-bench -a "unix://$w/cuzk.sock" batch --c1 "$w/c1.json" \
      --registered-proof $porep --sector-num 1 --miner-id 1000 -c "${POREP:-8}" -j 2 \
      >"$out/porep-batch-express-$express.txt" 2>&1 &
    batch=$!
    sleep "${WARMUP:-20}"
    for i in $(seq "${COUNT:-20}"); do
      kill -0 "$batch" 2>/dev/null || { echo "the PoRep batch ended before WinningPoSt $i"; break; }
      winning_post "busy-$express-$i" &
      sleep "${INTERVAL:-2.5}"
    done
    wait "$batch"
    echo "PoRep batch rc=$?:"
    tail -4 "$out/porep-batch-express-$express.txt"
    for i in 1 2 3; do winning_post "idle-$express-$i"; done
    timeline_name=timeline-express-$express stop_daemon 127.0.0.1:9821
    uncap_gpu_and_check_log "-express-$express"
  done
  step "4. WinningPoSt Prove walls"
  python3 - "$out/run.log" <<'PY'
import re, sys
walls = {}
for line in open(sys.argv[1]):
    m = re.match(r"(busy|idle)-(true|false)-\d+: .* COMPLETED: ok, .* wall ([0-9.]+) s", line)
    if m:
        walls.setdefault((m[2], m[1]), []).append(float(m[3]))
def pct(v, p):
    v = sorted(v)
    return v[min(len(v) - 1, int(round(p / 100 * (len(v) - 1))))]
for (express, state), v in sorted(walls.items()):
    print(f"express_lane={express} {state}: n={len(v)} p50 {pct(v, 50):.2f} s, p90 {pct(v, 90):.2f} s, "
          f"p99 {pct(v, 99):.2f} s, max {max(v):.2f} s")
PY
  grep -c "proof checked: .*valid\|COMPLETED" "$out/run.log" | sed 's/^/completed or checked lines: /'
  step "done"
} >"$out/run.log" 2>&1
kill $gpu_sampler 2>/dev/null
echo "done: $(ls "$out")"
