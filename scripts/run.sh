#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# README command 1: install what is missing, build, and run the main job on its embedded default:
#   1. `cuzk demo`: the arithmetic foundation (MSM, NTT, pairing) with timings and self-checks;
#   2. a 2 KiB PoRep end to end: seal a small sector (deterministic defaults: miner 1000, sector 1),
#      generate Groth16 parameters once into a cache directory (minutes; progress on stderr), prove
#      (self-verified, per-phase timings and peak RSS on stderr), then verify the proof.
# The parameters come from a single-party setup and are for development only, so they go to their
# own directory (CUZK_DEMO_PARAMS, default /var/tmp/cuzk-demo-parameters), never to the official
# Filecoin parameter cache.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install_deps.sh
./scripts/build.sh
cuzk=./build/apps/cuzk/cuzk
proof=StackedDrg2KiBV1_1

$cuzk version
$cuzk demo

params=${CUZK_DEMO_PARAMS:-/var/tmp/cuzk-demo-parameters}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "== 2 KiB PoRep: seal"
$cuzk porep seal --registered-proof "$proof" --out-dir "$work/sector"
# 032d3138… is the SHA-256 prefix of the 2 KiB PoRep parameter identifier (FILECOIN.md §5.7).
if ! compgen -G "$params/v28-stacked-proof-of-replication-*-032d3138*.params" >/dev/null; then
  echo "== 2 KiB PoRep: generating parameters into $params (once; a few minutes on 2 cores)"
  mkdir -p "$params"
  $cuzk params generate --circuit porep --registered-proof "$proof" --out-dir "$params"
fi
echo "== 2 KiB PoRep: prove"
$cuzk prove porep --c1 "$work/sector/c1.json" --params-dir "$params" --proof-out "$work/proof.bin"
echo "== 2 KiB PoRep: verify"
$cuzk verify porep --c1 "$work/sector/c1.json" --params-dir "$params" --proof "$work/proof.bin"
