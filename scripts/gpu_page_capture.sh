#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# On a GPU machine without a browser: runs cuzk-daemon (GPU 0) with its HTTP status listener,
# proves 2 KiB PoRep jobs through it with cuzk-bench (8 sectors, each sent twice: the retries
# attach), and saves what the pipeline page shows: the page itself (GET /) and /timeline.json
# taken while the jobs run and after they end, into $OUT. Rendering those files in headless
# Chromium elsewhere gives the page of the real GPU run (bench/results/h200/…-pipeline-page.png).
# Needs the binaries of gpu_carry_pack.sh CUZK_CARRY_SET=engine in the current directory.
set -uo pipefail
cd "$(dirname "$0")"
export LD_LIBRARY_PATH="$(pwd)${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
out=${OUT:-./page-out}
mkdir -p "$out"
[[ -f carry.tar.xz ]] && python3 -c 'import tarfile; tarfile.open("carry.tar.xz").extractall(".")'
w=$(mktemp -d)
./cuzk params generate --circuit porep --registered-proof StackedDrg2KiBV1_1 --out-dir "$w/params" \
  --seed page >/dev/null 2>&1
for i in 1 2 3 4 5 6 7 8; do
  ./cuzk porep seal --registered-proof StackedDrg2KiBV1_1 --sector-id "$i" --out-dir "$w/s$i" \
    >/dev/null 2>&1
done
printf '[daemon]\nlisten = "unix://%s/cuzk.sock"\nstatus_listen = "127.0.0.1:9821"\n[srs]\nparam_cache = "%s"\n' \
  "$w" "$w/params" >"$w/cuzk.toml"
./cuzk-daemon -c "$w/cuzk.toml" >"$out/daemon.log" 2>&1 &
daemon=$!
for _ in $(seq 100); do [[ -S $w/cuzk.sock ]] && break; sleep 0.1; done
get() { python3 -c 'import sys, urllib.request; sys.stdout.buffer.write(urllib.request.urlopen(sys.argv[1]).read())' "$1"; }
pids=()
for round in 1 2; do
  for i in 1 2 3 4 5 6 7 8; do
    ./cuzk-bench -a "unix://$w/cuzk.sock" single --c1 "$w/s$i/c1.json" \
      --registered-proof StackedDrg2KiBV1_1 --sector-num "$i" --miner-id 1000 \
      --request-id "porep-1000-$i" >>"$out/bench.log" 2>&1 &
    pids+=($!)
  done
  sleep 0.3
done
sleep 1.5
get "http://127.0.0.1:9821/timeline.json?since=-120" >"$out/timeline-running.json"
wait "${pids[@]}"
sleep 1
get "http://127.0.0.1:9821/" >"$out/page.html"
get "http://127.0.0.1:9821/timeline.json?since=-120" >"$out/timeline.json"
get "http://127.0.0.1:9821/metrics" >"$out/metrics.txt"
kill -TERM $daemon
wait $daemon
echo "daemon rc=$?" >>"$out/bench.log"
rm -rf "$w"
ls -la "$out"
