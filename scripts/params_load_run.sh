#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# How fast full-size parameters load on one GPU machine (issue 36 item 5), from built binaries:
# run from a folder holding cuzk (scripts/gpu_carry_pack.sh copies this script there). For each
# circuit of CIRCUITS (default "porep"; also "window-post"):
#   1. the 32 GiB parameters generated on GPU 0 (`cuzk params generate --gpu 0`, seeded: a
#      benchmark key), so the file starts in the page cache, as after a download or a copy;
#   2. the page cache's own rate: one `dd` of the whole file to /dev/null;
#   3. `cuzk params load --gpu 0 --checks on-curve` (the daemon's checks), each mode once:
#      --decoder device (the file's bytes copied, decoded on the GPU), --decoder host (decoded on
#      every core, then copied: the previous path), and the same two with --residency host (into
#      page-locked host memory, the small cards' path: the device decoder works through two
#      64 MiB device buffers), and, with HOST_LOAD=1, the CPU prover's load into host memory (no
#      --gpu); MODES ("RESIDENCY,DECODER" words, default all four: "device,device device,host
#      host,device host,host") picks some;
#   4. cold: the file dropped from the page cache (posix_fadvise DONTNEED; `fincore` shows what
#      stayed) and --decoder device again, so the figure is the disk's.
# Each load prints its time and GB/s; the peak RSS of each comes from gpu_run_lib's peak_rss.
# Logs to $OUT (default ./params-load-out)/params-load.log; DEADLINE (default 570 s) bounds the
# whole run.
set -uo pipefail
cd "$(dirname "$0")"
export LD_LIBRARY_PATH="$(pwd)${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
out=${OUT:-$(pwd)/params-load-out}
mkdir -p "$out"
deadline=$((SECONDS + ${DEADLINE:-570}))
source ./gpu_run_lib.sh
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
machine_info "$w"

# peak_rss CMD...: CMD's output, then its peak resident set (getrusage of the child).
peak_rss() {
  python3 -c 'import resource, subprocess, sys
rc = subprocess.run(sys.argv[1:]).returncode
print(f"peak RSS {resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024:.0f} MiB, rc={rc}")' "$@"
}
drop_from_page_cache() {
  python3 -c 'import os, sys
fd = os.open(sys.argv[1], os.O_RDONLY)
os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
os.close(fd)' "$1"
  command -v fincore >/dev/null && fincore "$1"
}

{
  for circuit in ${CIRCUITS:-porep}; do
    case $circuit in
    porep) proof=StackedDrg32GiBV1_1 ;;
    window-post) proof=StackedDrgWindow32GiBV1_2 ;;
    *) echo "unknown circuit $circuit" && continue ;;
    esac
    step "$circuit: params generate $proof --gpu 0"
    t=$SECONDS
    rm -rf "$w/params"
    timeout "$(left)" ./cuzk params generate --circuit "$circuit" --registered-proof $proof \
      --out-dir "$w/params" --seed params-load-bench --gpu 0 2>&1 | grep -v ETA | tail -3
    echo "rc=${PIPESTATUS[0]} wall $((SECONDS - t)) s"
    file=$(ls -S "$w"/params/*.params | head -1)
    ls -la "$w/params"
    step "$circuit: page cache read (dd)"
    timeout "$(left)" dd if="$file" of=/dev/null bs=64M 2>&1 | tail -1
    modes=${MODES:-"device,device device,host host,device host,host"}
    for mode in $modes; do
      mode="--residency ${mode%,*} --decoder ${mode#*,}"
      step "$circuit: load --gpu 0 $mode"
      # shellcheck disable=SC2086  # $mode is four words on purpose
      peak_rss timeout "$(left)" ./cuzk params load --params "$file" --checks on-curve --gpu 0 \
        $mode 2>&1 | grep -v ETA | tail -2
    done
    if [[ ${HOST_LOAD:-0} == 1 ]]; then
      step "$circuit: load into host memory (CPU prover)"
      peak_rss timeout "$(left)" ./cuzk params load --params "$file" --checks on-curve 2>&1 |
        grep -v ETA | tail -2
    fi
    step "$circuit: cold (dropped from the page cache), load --gpu 0 --decoder device"
    drop_from_page_cache "$file"
    peak_rss timeout "$(left)" ./cuzk params load --params "$file" --checks on-curve --gpu 0 \
      --decoder device 2>&1 | grep -v ETA | tail -2
    rm -rf "$w/params"
  done
} 2>&1 | tee "$out/params-load.log"
