#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Sector ids round-trip over the full u64 range through the CLI (issue 13): `porep seal
# --sector-id 18446744073709551615` once wrote "SectorNum":-1, which `porep public-inputs` then
# read as "no SectorNum" and refused. Seals a 2 KiB sector (a second on 2 cores) with the largest
# id, checks the wrapper's text, and derives the public inputs from the C1's own SectorNum; a C1
# without --miner-id needs no sector number at all. Usage: sector_id_cli_test.sh /path/to/cuzk
set -euo pipefail
cuzk="$1"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
max=18446744073709551615
"$cuzk" --log-level warn porep seal --registered-proof StackedDrg2KiBV1_1 --sector-id "$max" \
  --out-dir "$tmp/sector" >/dev/null
grep -q "\"SectorNum\":$max," "$tmp/sector/c1.json" ||
  { echo "FAIL: c1.json lacks \"SectorNum\":$max: $(head -c 80 "$tmp/sector/c1.json")"; exit 1; }
# The C1's SectorNum stands in for --sector-id: the same public inputs as with it given.
"$cuzk" --log-level warn porep public-inputs --c1 "$tmp/sector/c1.json" --miner-id 1000 \
  --partition 0 --out "$tmp/from_c1.json"
"$cuzk" --log-level warn porep public-inputs --c1 "$tmp/sector/c1.json" --miner-id 1000 \
  --sector-id "$max" --partition 0 --out "$tmp/given.json"
cmp -s "$tmp/from_c1.json" "$tmp/given.json" ||
  { echo "FAIL: public inputs from the C1's SectorNum differ from --sector-id $max"; exit 1; }
echo "sector ids: u64 max round-trips through seal and public-inputs"
