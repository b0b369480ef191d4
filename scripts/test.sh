#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# README command 2 (and CI): install what is missing, install the npm test oracles when the registry
# is reachable, build, and run the `unit` and `e2e` test tiers (e2e: a 2 KiB PoRep setup, prove and
# verify, a few minutes). Heavier tiers by hand: ctest --test-dir build -L slow (and -L gpu on a GPU).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install_deps.sh
# npm oracles (before configuring: their tests are registered only when node_modules exists)
for dir in tests/oracle tests/snarkjs tests/commp; do
  if [[ -f $dir/package-lock.json ]]; then
    (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error) ||
      echo "test.sh: npm ci failed in $dir; its oracle tests will be skipped"
  fi
done
./scripts/build.sh
ctest --test-dir build -L "unit|e2e" --output-on-failure -j"$(nproc)"
