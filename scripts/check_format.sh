#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# clang-format check over the tree (.clang-format): lists every tracked C++/CUDA source that
# clang-format would change and fails if there is one. `scripts/check_format.sh --fix` rewrites
# them instead. Generated sources (scripts/gen/) are excluded: their generator owns the layout.
set -euo pipefail
cd "$(dirname "$0")/.."
generated=(src/ff/bls12_381_params.hpp src/ff/mont_asm_x86.hpp)
mapfile -t files < <(git ls-files --cached --others --exclude-standard \
  '*.cpp' '*.hpp' '*.cu' '*.cuh' '*.h' | grep -v -F -x "${generated[@]/#/-e}" || true)
if [[ ${1:-} == --fix ]]; then
  clang-format -i "${files[@]}"
  exit 0
fi
bad=0
for f in "${files[@]}"; do
  [[ -f $f ]] || continue
  if ! clang-format --dry-run -Werror "$f" >/dev/null 2>&1; then
    echo "check_format: $f is not clang-formatted (scripts/check_format.sh --fix)"
    bad=1
  fi
done
((bad == 0)) && echo "check_format: ${#files[@]} files clean"
exit "$bad"
