#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Runs the GPU tests and benchmarks from a folder of binaries built elsewhere (the device image has
# no GTest or Google Benchmark, and a GPU session is short): scripts/gpu_carry_pack.sh fills the
# folder; this script, run on the GPU machine, writes its logs to $OUT (default ./gpu-out):
#   machine.txt  GPU, driver, clocks, CPU count, memory
#   tests.log    arith, ntt, msm and prover GPU tests (gtest output; summary lines at the end)
#   porep.log    a 2 KiB PoRep: seal, parameters, CPU proof, GPU proof, both verified, a tampered
#                GPU proof rejected
#   bench.txt    cuzk-gpu-microbench: the partition-shaped proof
#   bench2.txt   cuzk-gpu-microbench: MSM, NTT, batch add, field multiply
#   setup.log    GPU parameter generation: the device inversion and fixed-base tests, `cuzk params
#                generate --gpu 0` of the 2 KiB PoRep against the CPU's bytes (same seed, both
#                timed), the GPU and CPU provers' proof bytes on that real partition, and
#                cuzk-gpu-microbench's fixed-base rates and verified proofs of real circuits
#   params32g.log  (CUZK_GPU_PARAMS_32G=1) 32 GiB PoRep parameters generated with --gpu 0
#   engine.log   the engine tests with GPU 0 as the prover worker, the daemon proving on the GPU
#                (its own log in daemon.log), and cuzk-bench pipeline (2 KiB PoRep jobs through
#                the engine vs one after the other, CPU and GPU)
# In that order (tests, bench, bench2, engine, porep), each file written as its step runs; a
# step runs when its binaries were carried (gpu_carry_pack.sh CUZK_CARRY_SET). Every step has its own time limit so a slow one cannot take the whole session's device time.
set -uo pipefail
cd "$(dirname "$0")"
dir=$(pwd)
export LD_LIBRARY_PATH="$dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
out=${OUT:-$dir/gpu-out}
mkdir -p "$out"
for archive in carry.tar.xz old/carry.tar.xz; do  # python's tarfile: xz(1) may be missing there
  [[ -f $archive ]] && python3 -c 'import sys, tarfile, os; a = sys.argv[1]; tarfile.open(a).extractall(os.path.dirname(a) or ".")' "$archive"
done
# CUZK_GPU_POREP32G=1: the GPU unit tests that travelled (tests.log), then only the whole 32 GiB
# proof (porep32g_run.sh, its own logs). CUZK_GPU_POST_SNAP32G=post or snap: the same, then
# post_snap32g_run.sh with WHAT set to it. CUZK_GPU_POST_LATENCY=1: the same, then
# post_latency_run.sh (WinningPoSt beside a saturating 32 GiB PoRep batch).
# CUZK_GPU_SKIP_PIPELINE=1: the engine step without its cuzk-bench pipeline comparison.
step() { echo "== $* ($(date +%T))"; }
# peak_rss CMD...: runs CMD and prints its peak resident set (getrusage of the child; python3 is
# on the device image, GNU time is not).
peak_rss() {
  python3 -c 'import resource, subprocess, sys
rc = subprocess.run(sys.argv[1:]).returncode
print(f"peak RSS {resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024:.0f} MiB, rc={rc}")' "$@"
}

kernels=0
engine=0
setup=0
[[ -x ./setup_gpu_test && ${CUZK_GPU_SKIP_SETUP:-0} != 1 ]] && setup=1
[[ -x ./cuzk-gpu-microbench && -x ./msm_gpu_test ]] && kernels=1
[[ -x ./engine_test ]] && engine=1
{
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit \
    --format=csv
  echo "cpus: $(nproc)"
  free -g | head -2
  ./cuzk version
} >"$out/machine.txt" 2>&1

# Every GPU unit test that travelled (the kernels set carries them all; another set may carry a
# few through CUZK_CARRY_EXTRA).
{
  for t in arith_gpu_test serialization_gpu_test ntt_gpu_test msm_gpu_test prover_gpu_test \
    abc_gpu_test gpu_streams_test host_registration_test; do
    [[ -x ./$t ]] || continue
    step "$t"
    timeout 150 "./$t" 2>&1 | grep -E '^\[ *(RUN|OK|FAILED|PASSED|  FAILED|==========)|Failure|seed|Expected|Actual|Which is|error|GB/s|measured' |
      grep -v '^\[ RUN'
    echo "rc=${PIPESTATUS[0]}"
  done
} >"$out/tests.log" 2>&1
[[ ${CUZK_GPU_POREP32G:-0} == 1 ]] && exec ./porep32g_run.sh
[[ -n ${CUZK_GPU_POST_SNAP32G:-} ]] && WHAT=$CUZK_GPU_POST_SNAP32G exec ./post_snap32g_run.sh
[[ ${CUZK_GPU_POST_LATENCY:-0} == 1 ]] && exec ./post_latency_run.sh

[[ $setup == 1 ]] && {
  for t in arith_gpu_test setup_gpu_test; do
    step "$t"
    timeout 200 "./$t" 2>&1 | grep -E '^\[ *(RUN|OK|FAILED|PASSED|  FAILED|==========)|Failure|seed|Expected|Actual|Which is|error' |
      grep -v '^\[ RUN'
    echo "rc=${PIPESTATUS[0]}"
  done
  w=$(mktemp -d)
  for dev in cpu gpu; do
    step "params generate 2 KiB PoRep ($dev, seed cuzk-test-params-2k)"
    gpu_flag=()
    [[ $dev == gpu ]] && gpu_flag=(--gpu 0)
    SECONDS=0
    timeout 400 ./cuzk params generate --circuit porep --registered-proof StackedDrg2KiBV1_1 \
      --out-dir "$w/$dev" --seed cuzk-test-params-2k "${gpu_flag[@]}" 2>&1 | tail -2
    echo "rc=${PIPESTATUS[0]} wall ${SECONDS} s"
  done
  for f in "$w"/cpu/*; do
    cmp "$f" "$w/gpu/$(basename "$f")" && echo "identical: $(basename "$f")"
  done
  step "porep_gpu_equality_test"
  CUZK_TEST_PARAMS_DIR="$w/cpu" timeout 300 ./porep_gpu_equality_test 2>&1 |
    grep -E '^\[ *(OK|FAILED|PASSED|  FAILED|==========)|Failure|seed|Expected|Actual|Which is|error'
  echo "rc=${PIPESTATUS[0]}"
  rm -rf "$w"
  step "bench fixed base and verified proofs of real circuits"
  peak_rss timeout 400 ./cuzk-gpu-microbench \
    --benchmark_filter='BM_gpu_fixed_base|BM_gpu_groth16_prove_verified' \
    --benchmark_counters_tabular=true 2>&1
} >"$out/setup.log" 2>&1

# CUZK_GPU_PARAMS_32G=1: the 32 GiB PoRep parameters generated on GPU 0 (streaming QAP on the
# host, fixed-base multiplications on the device, the 47 GB .params written to local disk and
# then deleted), with its phases, wall time and peak RSS (params32g.log).
[[ ${CUZK_GPU_PARAMS_32G:-0} == 1 ]] && {
  w=$(mktemp -d)
  df -h "$w" | tail -1
  step "params generate 32 GiB PoRep --gpu 0"
  SECONDS=0
  peak_rss timeout 560 ./cuzk params generate --circuit porep --registered-proof StackedDrg32GiBV1_1 \
    --out-dir "$w" --seed bench-32g --gpu 0 2>&1 | grep -v ETA
  echo "wall ${SECONDS} s"
  ls -la "$w"
  rm -rf "$w"
} >"$out/params32g.log" 2>&1

bench() {
  step "bench $1"
  timeout "$2" ./cuzk-gpu-microbench --benchmark_filter="$1" --benchmark_min_time=0.2 \
    --benchmark_counters_tabular=true 2>&1
  echo "rc=$?"
}
[[ $kernels == 1 ]] && {
  step "bench BM_gpu_groth16_prove_porep32g|BM_gpu_groth16_prove/22"
  peak_rss timeout 150 ./cuzk-gpu-microbench \
    --benchmark_filter='BM_gpu_groth16_prove_porep32g|BM_gpu_groth16_prove/22' \
    --benchmark_min_time=0.2 --benchmark_counters_tabular=true 2>&1
  # A second build (old/, e.g. the previous commit) for before/after host-memory figures.
  if [[ -x old/cuzk-gpu-microbench ]]; then
    step "old/ bench BM_gpu_groth16_prove_porep32g"
    peak_rss timeout 150 old/cuzk-gpu-microbench --benchmark_filter='BM_gpu_groth16_prove_porep32g' \
      --benchmark_min_time=0.2 --benchmark_counters_tabular=true 2>&1
  fi
} >"$out/bench.txt" 2>&1

[[ $kernels == 1 ]] && {
  # Names end in /real_time: anchor on the argument's slash, not on $.
  bench 'BM_gpu_msm_g1/(24|26|27)/|BM_gpu_ntt/(24|27)/|BM_gpu_msm_g2/(20|22)/|BM_gpu_batch_add/27/' 120
  bench 'BM_gpu_field' 60
} >"$out/bench2.txt" 2>&1
[[ $engine == 1 ]] && {
  w=$(mktemp -d)
  step "params generate (2 KiB PoRep, seeded) for the engine steps"
  timeout 300 ./cuzk params generate --circuit porep --registered-proof StackedDrg2KiBV1_1 \
    --out-dir "$w/params" --seed engine --gpu 0 2>&1 | tail -2
  step "params generate (2 KiB SnapDeals, seeded) for engine_snap_e2e_test"
  timeout 300 ./cuzk params generate --circuit snap --registered-proof 0 \
    --out-dir "$w/snap-params" --seed engine --gpu 0 2>&1 | tail -2
  for t in engine_test engine_porep_e2e_test engine_post_e2e_test engine_snap_e2e_test; do
    [[ -x ./$t ]] || continue
    step "$t (gpu worker)"
    CUZK_TEST_PARAMS_DIR="$w/params" CUZK_TEST_SNAP_PARAMS_DIR="$w/snap-params" \
      CUZK_ENGINE_TEST_WORKER=gpu timeout 300 "./$t" 2>&1 |
      grep -E '^\[ *(RUN|OK|FAILED|PASSED|  FAILED|==========)|Failure|seed|Expected|Actual|Which is|error|\[engine\]' |
      grep -v '^\[ RUN'
    echo "rc=${PIPESTATUS[0]}"
  done
  [[ -x ./cuzk-daemon && -x ./cuzk-bench ]] && {
  step "the daemon on the GPU: cuzk-daemon, three cuzk-bench single proofs, verify, SIGTERM"
  ./cuzk porep seal --registered-proof StackedDrg2KiBV1_1 --out-dir "$w/sector" >/dev/null 2>&1
  printf '[daemon]\nlisten = "unix://%s/cuzk.sock"\n[srs]\nparam_cache = "%s"\n' "$w" "$w/params" \
    >"$w/cuzk.toml"
  ./cuzk-daemon -c "$w/cuzk.toml" >"$out/daemon.log" 2>&1 &
  daemon=$!
  for _ in $(seq 100); do [[ -S $w/cuzk.sock ]] && break; sleep 0.1; done
  for i in 1 2 3; do
    timeout 120 ./cuzk-bench -a "unix://$w/cuzk.sock" single --c1 "$w/sector/c1.json" \
      --registered-proof StackedDrg2KiBV1_1 --sector-num 1 --miner-id 1000 --request-id "gpu-$i" \
      -o "$w/daemon-$i.bin" 2>&1
  done
  ./cuzk verify porep --c1 "$w/sector/c1.json" --params-dir "$w/params" --proof "$w/daemon-3.bin"
  echo "verify rc=$? (0 = valid)"
  ./cuzk-bench -a "unix://$w/cuzk.sock" status 2>&1
  kill -TERM $daemon
  wait $daemon
  echo "daemon rc=$?"
  }
  [[ -x ./cuzk-bench && ${CUZK_GPU_SKIP_PIPELINE:-0} != 1 ]] && for dev in -1 0; do
    step "cuzk-bench pipeline --gpu $dev"
    peak_rss timeout 300 ./cuzk-bench pipeline --param-dir "$w/params" --sectors 8 --gpu $dev 2>&1
  done
  rm -rf "$w"
} >"$out/engine.log" 2>&1
if [[ ${CUZK_GPU_SKIP_POREP:-0} != 1 && $kernels == 1 ]]; then
  {
    w=$(mktemp -d)
    proof=StackedDrg2KiBV1_1
    step seal
    ./cuzk porep seal --registered-proof $proof --out-dir "$w/sector"
    echo "rc=$?"
    step "params generate"
    time timeout 150 ./cuzk params generate --circuit porep --registered-proof $proof \
      --out-dir "$w/params" 2>&1 | tail -4
    for dev in cpu gpu; do
      step "prove ($dev)"
      gpu_flag=()
      [[ $dev == gpu ]] && gpu_flag=(--gpu 0)
      peak_rss timeout 120 ./cuzk prove porep --c1 "$w/sector/c1.json" --params-dir "$w/params" \
        "${gpu_flag[@]}" --proof-out "$w/$dev.bin"
      if [[ $dev == gpu && -x old/cuzk ]]; then
        step "prove (gpu, old/cuzk: before/after host memory)"
        peak_rss timeout 120 old/cuzk prove porep --c1 "$w/sector/c1.json" --params-dir "$w/params" \
          --gpu 0 --proof-out "$w/old.bin"
      fi
      step "verify ($dev)"
      ./cuzk verify porep --c1 "$w/sector/c1.json" --params-dir "$w/params" --proof "$w/$dev.bin"
      echo "rc=$? (0 = valid)"
    done
    step "verify (gpu proof, one byte flipped: must be rejected)"
    cp "$w/gpu.bin" "$w/bad.bin"
    # XOR, not a fixed byte: a byte already holding the written value would leave the proof intact.
    perl -e 'open(my $f, "+<", $ARGV[0]) or die; seek($f, 100, 0); read($f, my $b, 1);
      seek($f, 100, 0); print $f chr(ord($b) ^ 1)' "$w/bad.bin"
    ./cuzk verify porep --c1 "$w/sector/c1.json" --params-dir "$w/params" --proof "$w/bad.bin"
    echo "rc=$? (non-zero = rejected: 1 invalid proof, 2 undecodable bytes)"
    rm -rf "$w"
  } >"$out/porep.log" 2>&1
fi

echo "done: $(ls "$out")"
