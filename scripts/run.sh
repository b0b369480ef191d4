#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# README command 1: install what is missing of what the build and the demo need
# (install_deps.sh --run), build (CUDA device code for the GPUs present, or sm_90 PTX only
# without one: scripts/build.sh), and run the main job on its embedded default:
#   1. `cuzk demo`: the arithmetic foundation (MSM, NTT, pairing) with timings and self-checks;
#   2. a 2 KiB PoRep end to end: seal a small sector (deterministic defaults: miner 1000, sector 1),
#      generate Groth16 parameters once into a cache directory (minutes; progress on stderr), prove
#      (self-verified, per-phase timings and peak RSS on stderr), then verify the proof;
#   3. the same C1 through the daemon: cuzk-daemon on a unix socket in a temp dir, `cuzk-bench
#      single` sends it as Curio does (Prove), the answer is verified, SIGTERM stops the daemon.
# The parameters come from a single-party setup and are for development only, so they go to their
# own directory (CUZK_DEMO_PARAMS, default /var/tmp/cuzk-demo-parameters), never to the official
# Filecoin parameter cache.
# Only the three binaries are built (configured as scripts/test.sh builds, so test.sh afterwards
# builds just the tests and benchmarks on top); the wall time is printed at the end, pass or fail
# (docs/notes/ci-time.md).
set -euo pipefail
cd "$(dirname "$0")/.."
start=$SECONDS
work=""
daemon=""
finish() {
  local rc=$? outcome="done"
  [[ -n $daemon ]] && kill "$daemon" 2>/dev/null
  [[ -n $work ]] && rm -rf "$work"
  [[ $rc -eq 0 ]] || outcome="FAILED (exit $rc)"
  echo "run.sh: $outcome, wall time $(((SECONDS - start) / 60)) min $(((SECONDS - start) % 60)) s"
}
trap finish EXIT
./scripts/install_deps.sh --run
echo "run.sh: dependencies ready after $((SECONDS - start)) s"
CUZK_BUILD_TARGETS="cuzk cuzk-daemon cuzk-bench" ./scripts/build.sh
cuzk=./build/apps/cuzk/cuzk
proof=StackedDrg2KiBV1_1

$cuzk version
$cuzk demo

params=${CUZK_DEMO_PARAMS:-/var/tmp/cuzk-demo-parameters}
work=$(mktemp -d)
echo "== 2 KiB PoRep: seal"
$cuzk porep seal --registered-proof "$proof" --out-dir "$work/sector"
# 032d3138… is the SHA-256 prefix of the 2 KiB PoRep parameter identifier (docs/spec/params.md
# §1–§2).
if ! compgen -G "$params/v28-stacked-proof-of-replication-*-032d3138*.params" >/dev/null; then
  echo "== 2 KiB PoRep: generating parameters into $params (once; a few minutes on 2 cores)"
  mkdir -p "$params"
  $cuzk params generate --circuit porep --registered-proof "$proof" --out-dir "$params"
fi
echo "== 2 KiB PoRep: prove"
$cuzk prove porep --c1 "$work/sector/c1.json" --params-dir "$params" --proof-out "$work/proof.bin"
echo "== 2 KiB PoRep: verify"
$cuzk verify porep --c1 "$work/sector/c1.json" --params-dir "$params" --proof "$work/proof.bin"

echo "== 2 KiB PoRep through the daemon (cuzk.v1 Prove over a unix socket)"
printf '[daemon]\nlisten = "unix://%s/cuzk.sock"\n[srs]\nparam_cache = "%s"\n' "$work" "$params" \
  >"$work/cuzk.toml"
./build/apps/cuzk-daemon/cuzk-daemon -c "$work/cuzk.toml" &
daemon=$!
for _ in $(seq 100); do [[ -S $work/cuzk.sock ]] && break; sleep 0.1; done
./build/apps/cuzk-bench/cuzk-bench -a "unix://$work/cuzk.sock" single --c1 "$work/sector/c1.json" \
  --registered-proof "$proof" --sector-num 1 --miner-id 1000 -o "$work/daemon-proof.bin"
$cuzk verify porep --c1 "$work/sector/c1.json" --params-dir "$params" --proof "$work/daemon-proof.bin"
kill -TERM "$daemon"
wait "$daemon"
daemon=""
