#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The 32 GiB PoSt and SnapDeals proofs end to end on one GPU machine, from built binaries (issues
# 14 and 15): run from a folder holding cuzk, cuzk-daemon and cuzk-bench (scripts/gpu_carry_pack.sh
# with CUZK_CARRY_SET=porep32g). WHAT picks the half (each fits one device call, and the disk holds
# one 32 GiB parameter set at a time):
#   WHAT=post: WindowPoSt (StackedDrgWindow32GiBV1_2: one full partition, 2,349 sectors,
#              125,279,217 constraints) and WinningPoSt (StackedDrgWinning32GiBV1, 66 × 1 challenge)
#   WHAT=snap: SnapDeals (StackedDrg32GiBV1 update: 16 partitions × 81,049,499 constraints)
# For each proof type:
#   1. parameters generated on GPU 0 (`cuzk params generate --gpu 0`, seeded: a benchmark key)
#   2. synthetic vanilla proofs (`cuzk-bench gen-vanilla … --synthetic`: sectors never sealed,
#      proofs that pass every vanilla check; post/synthetic.hpp, snap/synthetic.hpp)
#   3. the daemon on GPU 0 with those parameters; PROOFS proofs through `cuzk-bench single`, as
#      Curio sends them (the vanilla bytes over gRPC); the first loads the parameters onto the
#      device (cold), the rest are steady state; every proof verified by the client with the
#      generated .vk (--param-dir) besides the daemon's own self-verification
#   4. snap: BATCH more through `cuzk-bench batch`, BATCH_JOBS in flight (default 2)
# Logs phases with wall times, the daemon's peak RSS (VmHWM), the engine's timeline and GPU
# memory/utilisation samples to $OUT (default ./post-snap32g-out). Env: WHAT (post or snap),
# PROOFS (default 3), BATCH (default 0), DEADLINE (seconds for the whole run, default 570),
# GPU_CAPS_MIB (card sizes, e.g. "16384 24576 full", full the whole GPU: step 3 for each on the same parameters, GPU 0
# capped by gpu_memory_hog as in porep32g_run.sh; logs daemon-capN.log and timeline-capN.json,
# each checked for out-of-memory failures, device faults and a CPU fallback), LOAD_HOST (as in
# porep32g_run.sh).
set -uo pipefail
cd "$(dirname "$0")"
export LD_LIBRARY_PATH="$(pwd)${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
out=${OUT:-$(pwd)/post-snap32g-out}
mkdir -p "$out"
what=${WHAT:?WHAT=post or WHAT=snap}
proofs=${PROOFS:-3}
deadline=$((SECONDS + ${DEADLINE:-570}))
source ./gpu_run_lib.sh
w=$(mktemp -d)
daemon=
gpu_sampler=
hog=
trap 'kill $gpu_sampler $daemon $hog 2>/dev/null; rm -rf "$w"' EXIT
machine_info "$w"
start_gpu_sampler
rand=5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a1a

# params CIRCUIT PROOF: step 1 for one circuit.
params() {
  step "1. params generate $1 $2 --gpu 0"
  local t=$SECONDS
  timeout "$(left)" ./cuzk params generate --circuit "$1" --registered-proof "$2" \
    --out-dir "$w/params" --seed "$1-32g-bench" --gpu 0 2>&1 | grep -v ETA
  echo "rc=${PIPESTATUS[0]} wall $((SECONDS - t)) s"
  ls -la "$w/params"
}

# singles N NAME ARGS…: N proofs through `cuzk-bench single`, each timed.
singles() {
  local n=$1 name=$2
  shift 2
  for i in $(seq "$n"); do
    local t=$SECONDS
    timeout "$(left)" ./cuzk-bench -a "unix://$w/cuzk.sock" single "$@" --param-dir "$w/params" \
      --request-id "$name-$i" -o "$w/$name-$i.bin" 2>&1
    echo "$name $i: rc=$? wall $((SECONDS - t)) s"
  done
}

{
  if [[ $what == post ]]; then
    window=StackedDrgWindow32GiBV1_2
    winning=StackedDrgWinning32GiBV1
    params window-post $window
    params winning-post $winning
    host_load_step "$w/params"
    step "2. synthetic vanilla proofs"
    timeout "$(left)" ./cuzk-bench gen-vanilla window-post --synthetic --registered-proof $window \
      --randomness $rand --sector-number 1 -o "$w/wpost.json"
    timeout "$(left)" ./cuzk-bench gen-vanilla winning-post --synthetic \
      --registered-proof $winning --randomness $rand --sector-number 77 -o "$w/winning.json"
    ls -la "$w"/*.json
  elif [[ $what == snap ]]; then
    update=StackedDrg32GiBV1
    params snap $update
    host_load_step "$w/params"
    step "2. synthetic update"
    timeout "$(left)" ./cuzk-bench gen-vanilla snap-prove --synthetic --registered-proof $update \
      -o "$w/snap.json"
    ls -la "$w"/*.json
  else
    echo "WHAT=$what: expected post or snap"
    exit 2
  fi

  # Step 3 for one card size: $1 = MiB left to the daemon (empty: the whole GPU).
  daemon_run() {
    local cap=$1 tag=${1:+-cap$1}
    step "3. daemon on GPU 0${cap:+ capped at $cap MiB}"
    printf '[daemon]\nlisten = "unix://%s/cuzk.sock"\nstatus_listen = "127.0.0.1:9821"\n' "$w" \
      >"$w/cuzk.toml"
    printf '[srs]\nparam_cache = "%s"\n' "$w/params" >>"$w/cuzk.toml"
    cap_gpu "$cap"
    [[ -n $gpus_budget ]] && printf '[gpus]\n%s' "$gpus_budget" >>"$w/cuzk.toml"
    rm -f "$w/cuzk.sock"
    start_daemon "$w/cuzk.toml" "$w/cuzk.sock"
    if [[ $what == post ]]; then
      step "3a. WindowPoSt, $proofs proof(s) of one full partition"
      singles "$proofs" "wpost$tag" -t window-post --registered-proof $window --randomness $rand \
        --vanilla "$w/wpost.json"
      step "3b. WinningPoSt, $((proofs + 2)) proof(s)"
      singles $((proofs + 2)) "winning$tag" -t winning-post --registered-proof $winning \
        --randomness $rand --vanilla "$w/winning.json"
    else
      step "3a. SnapDeals, $proofs proof(s)"
      singles "$proofs" "snap$tag" -t snap --registered-proof $update --vanilla "$w/snap.json" \
        --commitments "$w/snap-commitments.json"
      if [[ ${BATCH:-0} -gt 0 ]]; then
        step "3b. $BATCH proofs, ${BATCH_JOBS:-2} in flight (cuzk-bench batch)"
        timeout "$(left)" ./cuzk-bench -a "unix://$w/cuzk.sock" batch -t snap \
          --registered-proof $update --vanilla "$w/snap.json" \
          --commitments "$w/snap-commitments.json" --param-dir "$w/params" \
          -c "$BATCH" -j "${BATCH_JOBS:-2}" 2>&1
        echo "batch rc=$?"
      fi
    fi
    timeline_name=timeline$tag stop_daemon 127.0.0.1:9821
    uncap_gpu_and_check_log "$tag"
  }
  # GPU_CAPS_MIB: several card sizes one after the other on the same parameters ("full": the
  # whole GPU).
  if [[ -n ${GPU_CAPS_MIB:-} ]]; then
    for cap in $GPU_CAPS_MIB; do
      [[ $cap == full ]] && cap=
      daemon_run "$cap"
    done
  else
    daemon_run ""
  fi
  step "done"
} >"$out/run.log" 2>&1
kill $gpu_sampler 2>/dev/null
echo "done: $(ls "$out")"
