#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# A real 32 GiB PoRep C2 end to end on one GPU machine, from built binaries (issue 19): run from a
# folder holding cuzk, cuzk-daemon and cuzk-bench (scripts/gpu_carry_pack.sh with
# CUZK_CARRY_SET=porep32g; run.sh unpacks it, then runs this, when called with CUZK_GPU_POREP32G=1).
#   1. parameters generated on GPU 0 (`cuzk params generate --gpu 0`, seeded: a benchmark key)
#   2. a synthetic 32 GiB C1 (`cuzk porep gen-vanilla --synthetic`: a sector never sealed)
#   2b. `cuzk-bench synth-only` of partition 0 (the challenges in parallel on every core), twice;
#   2c. the same of the witness only, then the a, b, c plan's build and CPU evaluation
#   2d. abc_plan_porep32g_gpu_test when it travelled (CUZK_CARRY_EXTRA): a whole partition's
#       a, b, c on the GPU against the CPU plan and proving_cs, every row
#   3. the daemon on GPU 0 with those parameters; PROOFS proofs through `cuzk-bench single`
#      (the first one loads the parameters onto the device; the rest are steady state)
#   4. the last proof verified with `cuzk verify porep` against the generated .vk
# Logs phases with wall times, the daemon's peak RSS (VmHWM) and GPU memory/utilisation samples
# (nvidia-smi, 1 s) to $OUT (default ./porep32g-out). Env: PROOFS (default 1), DEADLINE (seconds
# for the whole run, default 570: every step gets what is left, so a slow step ends the run with
# what was measured so far), SYNTH_ONLY (default 1: step 2b), SYNTH_WORKERS (the daemon's
# [pipeline] max_parallel_synthesis, the cap on partitions synthesized at once; default: the
# engine's), BATCH (default 0: after the single proofs, this many more through `cuzk-bench
# batch`, BATCH_JOBS at a time, default 2), GPU_CAP_MIB (default none: the consumer-card case — from
# step 3 on, gpu_memory_hog holds all of GPU 0's memory but this many MiB, and the daemon's
# gpus.memory_budget is 1 GiB less, as its auto budget would be on a card of that size: the
# parameters then stay in page-locked host memory and are streamed to the device per partition),
# LANES (default: the daemon's, 2: gpus.gpu_workers_per_device, the prover lanes per GPU),
# BATCH_ONE_LANE (default 0: after the verification, the daemon restarted with one lane per GPU
# and that many proofs batched again, an A/B of the lanes on the same machine;
# timeline-one-lane.json; not with GPU_CAP_MIB), GPU_CAPS_MIB (several caps, e.g. "16384 24576
# 81920": steps 3 and 4 for each on the same parameters, logs daemon-capN.log and
# timeline-capN.json, each checked for out-of-memory failures, device faults and a CPU fallback),
# LOAD_HOST (default 0; 1: after step 1, the parameters' page-locked load timed by `cuzk params
# load --residency host`), KEEP_DIR (default none: a temporary folder, removed at the end; a
# folder: the parameters and the C1 are kept there, and a later run on the same machine with the
# same KEEP_DIR skips steps 1 and 2 — a warm device machine keeps its files between calls, and
# generating the parameters takes ≈ 135 s).
set -uo pipefail
cd "$(dirname "$0")"
export LD_LIBRARY_PATH="$(pwd)${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
out=${OUT:-$(pwd)/porep32g-out}
mkdir -p "$out"
proofs=${PROOFS:-1}
deadline=$((SECONDS + ${DEADLINE:-570}))
source ./gpu_run_lib.sh
if [[ -n ${KEEP_DIR:-} ]]; then
  w=$KEEP_DIR
  mkdir -p "$w"
  keep=1
else
  w=$(mktemp -d)
  keep=0
fi
hog=
daemon=
gpu_sampler=
trap 'kill $gpu_sampler $daemon $hog 2>/dev/null; [[ $keep == 1 ]] || rm -rf "$w"' EXIT
proof=StackedDrg32GiBV1_1
machine_info "$w"
start_gpu_sampler
{
  if [[ -f $w/steps-1-2.done ]]; then
    step "1, 2. parameters and C1 kept in $w by an earlier run"
    ls -la "$w/params" "$w/c1.json"
  else
    step "1. params generate $proof --gpu 0"
    t=$SECONDS
    timeout "$(left)" ./cuzk params generate --circuit porep --registered-proof $proof \
      --out-dir "$w/params" --seed porep32g-bench --gpu 0 2>&1 | grep -v ETA
    params_rc=${PIPESTATUS[0]}
    echo "rc=$params_rc wall $((SECONDS - t)) s"
    ls -la "$w/params"
    host_load_step "$w/params"
    step "2. synthetic C1"
    t=$SECONDS
    timeout "$(left)" ./cuzk porep gen-vanilla --registered-proof $proof --synthetic \
      --out "$w/c1.json" 2>&1 | tail -2
    c1_rc=${PIPESTATUS[0]}
    echo "rc=$c1_rc wall $((SECONDS - t)) s, $(stat -c %s "$w/c1.json" 2>/dev/null) bytes"
    [[ $keep == 1 && $params_rc == 0 && $c1_rc == 0 ]] && touch "$w/steps-1-2.done"
  fi
  if [[ ${SYNTH_ONLY:-1} == 1 ]]; then
    step "2b. synth-only, partition 0, every core"
    timeout "$(left)" ./cuzk-bench synth-only --c1 "$w/c1.json" --partition 0 -i 2 2>&1 | tail -4
    step "2c. synth-only --witness, partition 0, every core (+ plan build, CPU a/b/c)"
    timeout "$(left)" ./cuzk-bench synth-only --c1 "$w/c1.json" --partition 0 -i 2 --witness \
      2>&1 | tail -6
  fi
  if [[ -x ./abc_plan_porep32g_gpu_test ]]; then
    step "2d. abc_plan_porep32g_gpu_test: GPU a, b, c = CPU plan = proving_cs, every row"
    timeout "$(left)" ./abc_plan_porep32g_gpu_test 2>&1 |
      grep -E '^\[ *(OK|FAILED|PASSED|  FAILED)|Failure|Expected|Which is|error|in [0-9.]+ s|plan|equal'
    echo "rc=${PIPESTATUS[0]}"
  fi
  # Steps 3 and 4 for one card size: $1 = MiB left to the daemon (empty: the whole GPU).
  daemon_run() {
    local cap=$1 tag=${1:+-cap$1} gpus=
    step "3. daemon on GPU 0${cap:+ capped at $cap MiB}, $proofs proof(s)"
    printf '[daemon]\nlisten = "unix://%s/cuzk.sock"\nstatus_listen = "127.0.0.1:9821"\n' "$w" \
      >"$w/cuzk.toml"
    printf '[srs]\nparam_cache = "%s"\n' "$w/params" >>"$w/cuzk.toml"
    cap_gpu "$cap"
    gpus=$gpus_budget
    [[ -n ${LANES:-} ]] && gpus="${gpus}gpu_workers_per_device = $LANES"$'\n'
    [[ -n $gpus ]] && printf '[gpus]\n%s' "$gpus" >>"$w/cuzk.toml"
    [[ -n ${SYNTH_WORKERS:-} ]] &&
      printf '[pipeline]\nmax_parallel_synthesis = %s\n' "$SYNTH_WORKERS" >>"$w/cuzk.toml"
    cat "$w/cuzk.toml"
    rm -f "$w/cuzk.sock"
    start_daemon "$w/cuzk.toml" "$w/cuzk.sock"
    for i in $(seq "$proofs"); do
      t=$SECONDS
      timeout "$(left)" ./cuzk-bench -a "unix://$w/cuzk.sock" single --c1 "$w/c1.json" \
        --registered-proof $proof --sector-num 1 --miner-id 1000 --request-id "p32$tag-$i" \
        -o "$w/proof-$i.bin" 2>&1
      echo "proof $i: rc=$? wall $((SECONDS - t)) s"
    done
    if [[ ${BATCH:-0} -gt 0 ]]; then
      # Proofs submitted BATCH_JOBS at a time, as Curio submits sectors: the next proof's first
      # partitions are synthesized while the last ones of the previous are on the GPU, so
      # total / count is the steady state of a full pipeline (back-to-back single proofs drain
      # it between proofs: the last partition's finalize, the self-verification, the next job's
      # prepare and its first synthesis).
      step "3b. $BATCH proofs, ${BATCH_JOBS:-2} in flight (cuzk-bench batch)"
      timeout "$(left)" ./cuzk-bench -a "unix://$w/cuzk.sock" batch --c1 "$w/c1.json" \
        --registered-proof $proof --sector-num 1 --miner-id 1000 -c "$BATCH" \
        -j "${BATCH_JOBS:-2}" 2>&1
      echo "batch rc=$?"
    fi
    timeline_name=timeline$tag stop_daemon 127.0.0.1:9821
    uncap_gpu_and_check_log "$tag"
    step "4. verify the last proof"
    timeout "$(left)" ./cuzk verify porep --c1 "$w/c1.json" --params-dir "$w/params" \
      --proof "$w/proof-$proofs.bin"
    echo "verify rc=$? (0 = valid)"
  }
  # GPU_CAPS_MIB: several card sizes one after the other on the same parameters and C1.
  caps=${GPU_CAPS_MIB:-${GPU_CAP_MIB:-}}
  if [[ -n $caps ]]; then
    for cap in $caps; do daemon_run "$cap"; done
  else
    daemon_run ""
  fi
  if [[ ${BATCH_ONE_LANE:-0} -gt 0 && -z ${GPU_CAP_MIB:-} ]]; then
    step "5. the daemon again with one prover lane per GPU: $BATCH_ONE_LANE proofs, ${BATCH_JOBS:-2} in flight"
    grep -v gpu_workers_per_device "$w/cuzk.toml" >"$w/one-lane.toml"
    if grep -q '^\[gpus\]' "$w/one-lane.toml"; then
      sed -i 's/^\[gpus\]$/[gpus]\ngpu_workers_per_device = 1/' "$w/one-lane.toml"
    else
      printf '[gpus]\ngpu_workers_per_device = 1\n' >>"$w/one-lane.toml"
    fi
    rm -f "$w/cuzk.sock"  # start_daemon waits for the new daemon's socket
    start_daemon "$w/one-lane.toml" "$w/cuzk.sock"
    timeout "$(left)" ./cuzk-bench -a "unix://$w/cuzk.sock" batch --c1 "$w/c1.json" \
      --registered-proof $proof --sector-num 1 --miner-id 1000 -c "$BATCH_ONE_LANE" \
      -j "${BATCH_JOBS:-2}" 2>&1
    echo "one-lane batch rc=$?"
    timeline_name=timeline-one-lane stop_daemon 127.0.0.1:9821
  fi
  step "done"
} >"$out/run.log" 2>&1
kill $gpu_sampler 2>/dev/null
echo "done: $(ls "$out")"
