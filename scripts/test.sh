#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# README command 2 (and CI): install what is missing, install the npm test oracles (a failure is a
# failed run), build, and run the `unit`, `e2e` and `browser` test tiers (e2e: a 2 KiB PoRep setup,
# prove and verify, a few minutes; browser: the daemon's pipeline page in headless Chromium, which
# install_deps.sh installs; without it that test fails and says so). Heavier tiers by hand:
# ctest --test-dir build -L slow (and -L gpu on a GPU).
# Prints its wall time at the end, pass or fail.
set -euo pipefail
cd "$(dirname "$0")/.."
start=$SECONDS
# shellcheck disable=SC2317  # called by the EXIT trap
finish() {
  echo "test.sh: wall time $(((SECONDS - start) / 60)) min $(((SECONDS - start) % 60)) s"
}
trap finish EXIT
./scripts/install_deps.sh
# npm oracles. Their tests are always registered and fail without them, so a failed `npm ci` is
# a failed run here, with the reason, not a note and a green CI.
for dir in tests/oracle tests/snarkjs tests/commp; do
  if [[ -f $dir/package-lock.json ]]; then
    if ! (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error); then
      echo "test.sh: FAIL: npm ci failed in $dir; its oracle tests cannot run" >&2
      exit 1
    fi
  fi
done
./scripts/build.sh
# ctest ends with its label summary (tests and time per label). A skipped test (GTEST_SKIP exits 77,
# tests/support/skip_exit_code.cpp) is not a pass: nothing in these tiers is meant to skip.
log=build/test-unit-e2e-browser.log
status=0
ctest --test-dir build -L "unit|e2e|browser" --output-on-failure -j"$(nproc)" 2>&1 | tee "$log" || status=$?
if grep -q '(Skipped)' "$log"; then
  echo "test.sh: FAIL: the tests marked (Skipped) above did not run" >&2
  status=1
fi
exit "$status"
