#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Runs an npm-oracle test only when its oracle is installed, and FAILS (never skips) otherwise:
# an oracle test that silently disappears would let CI pass without the independent check.
# usage: scripts/require_npm_oracle.sh DIR MODULE -- COMMAND [ARGS...]
#   DIR     the oracle's npm project (tests/oracle, tests/snarkjs, tests/commp), absolute or
#           relative to the source root
#   MODULE  a package that `npm ci` in DIR installs (@noble/curves, snarkjs, ...)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
[[ $# -ge 3 && $3 == "--" ]] || {
  echo "usage: $0 DIR MODULE -- COMMAND [ARGS...]" >&2
  exit 2
}
dir=$1
module=$2
shift 3
[[ $dir == /* ]] || dir="$root/$dir"
if ! command -v node >/dev/null 2>&1; then
  echo "FAIL: npm oracle test needs node on PATH (Debian: apt-get install nodejs npm)" >&2
  exit 1
fi
if [[ ! -f $dir/node_modules/$module/package.json ]]; then
  echo "FAIL: oracle $module is not installed in $dir (run: cd $dir && npm ci);" \
    "this test never passes without its independent oracle" >&2
  exit 1
fi
exec "$@"
