#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Rewrites docs/hardware.md's table (between <!-- plan-table:begin --> and <!-- plan-table:end -->)
# with what `cuzk plan --table` prints; tests/cli/plan_cli_test.sh fails while they differ.
# Usage: scripts/gen_hardware_table.sh [path/to/cuzk]   (default build/apps/cuzk/cuzk)
set -euo pipefail
cd "$(dirname "$0")/.."
cuzk=${1:-build/apps/cuzk/cuzk}
doc=docs/hardware.md
table=$("$cuzk" plan --table)
python3 - "$doc" "$table" <<'PY'
import sys
path, table = sys.argv[1], sys.argv[2]
text = open(path).read()
begin, end = "<!-- plan-table:begin -->\n", "<!-- plan-table:end -->"
head, rest = text.split(begin, 1)
_, tail = rest.split(end, 1)
open(path + ".tmp", "w").write(head + begin + table.rstrip("\n") + "\n" + end + tail)
PY
mv "$doc.tmp" "$doc"
echo "gen_hardware_table: $doc updated"
