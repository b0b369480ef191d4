# SPDX-License-Identifier: Apache-2.0
# Shared by the full-size runs on a GPU machine (porep32g_run.sh, post_snap32g_run.sh), sourced
# from the folder that holds the binaries (scripts/gpu_carry_pack.sh copies it there). Expects
# `deadline` (a $SECONDS value), `out` (the results folder) and, for stop_daemon, `w` (the folder
# of the daemon socket) to be set by the caller.

# Seconds left before the run's deadline.
left() { echo $((deadline - SECONDS)); }
# A step's header: its name, the time since the start and what is left.
step() { echo "== $* (t = ${SECONDS} s, $(left) s left)"; }

# The machine (GPU, cores, memory, disk of $1) into $out/machine.txt.
machine_info() {
  {
    nvidia-smi --query-gpu=name,memory.total --format=csv,noheader
    echo "cpus $(nproc)"; free -g | head -2; df -h "$1" | tail -1
  } >"$out/machine.txt" 2>&1
}

# GPU memory and utilisation every second into $out/gpu.csv; sets gpu_sampler to its pid.
start_gpu_sampler() {
  nvidia-smi --query-gpu=timestamp,memory.used,utilization.gpu --format=csv -l 1 \
    >"$out/gpu.csv" 2>&1 &
  gpu_sampler=$!
}

# Starts ./cuzk-daemon with config $1 (its log in $out/daemon.log) and waits up to 10 s for the
# socket $2; sets daemon to its pid.
start_daemon() {
  ./cuzk-daemon -c "$1" >"$out/daemon.log" 2>&1 &
  daemon=$!
  for _ in $(seq 100); do [[ -S $2 ]] && break; sleep 0.1; done
}

# The engine's timeline from the status page at $1 (every phase of every partition, the prover's
# split) saved to $out/${timeline_name:-timeline}.json, and per phase: count, mean, min, max; for
# the proves, the lanes seen and the interval between partitions over the proving span.
timeline_summary() {
  python3 - "$1" "$out/${timeline_name:-timeline}.json" <<'PY'
import json, statistics, sys, urllib.request
doc = json.load(urllib.request.urlopen(f"http://{sys.argv[1]}/timeline.json?since=0", timeout=10))
json.dump(doc, open(sys.argv[2], "w"))
ev = doc.get("events", [])
for phase in ("compile", "load", "synthesis", "prove", "finalize", "verify"):
    d = [1e3 * (e["end"] - e["start"]) for e in ev if e["phase"] == phase]
    if d:
        print(f"{phase:9s} n={len(d):3d} mean {statistics.mean(d):9.1f} ms  min {min(d):9.1f}  max {max(d):9.1f}")
splits = [e["split"] for e in ev if e["phase"] == "prove" and e.get("split")]
peaks = [e.get("device_peak_bytes", 0) for e in ev if e["phase"] == "prove"]
if any(peaks):
    print(f"prove device peak (pool, beside the parameters) max {max(peaks) / 2**30:.2f} GiB, "
          f"min {min(p for p in peaks if p) / 2**30:.2f} GiB")
for key in (splits[0].keys() if splits else []):
    print(f"  prove split {key:11s} mean {statistics.mean(s[key] for s in splits):8.1f} ms")
proves = sorted((e["start"], e["end"], e["lane"]) for e in ev if e["phase"] == "prove")
if len(proves) > 1:
    span = proves[-1][1] - proves[0][0]
    lanes = sorted({p[2] for p in proves})
    print(f"prove lanes {lanes}; span {span:.2f} s for {len(proves)} partitions: "
          f"{1e3 * span / len(proves):.1f} ms per partition (idle gaps between jobs included)")
PY
}

# The daemon's end of a run: its peak and current RSS, the timeline summary (status page at $1),
# its GetStatus, then SIGTERM and its exit code.
stop_daemon() {
  grep -E "VmHWM|VmRSS" "/proc/$daemon/status"
  timeline_summary "$1"
  ./cuzk-bench -a "unix://$w/cuzk.sock" status 2>&1 | head -40
  kill -TERM "$daemon"
  wait "$daemon"
  echo "daemon rc=$?"
}

# Caps GPU 0 at $1 MiB for the daemon's next run (empty: the whole GPU): gpu_memory_hog holds all
# of its memory but that, and gpus_budget is set to the [gpus] line of a card of that size (its
# auto budget: 1 GiB less). Sets hog to the hog's pid (the caller's EXIT trap kills it).
cap_gpu() {
  gpus_budget=
  [[ -z $1 ]] && return
  ./gpu_memory_hog "$1" < <(sleep 100000) >"$out/hog-cap$1.txt" 2>&1 &
  hog=$!
  for _ in $(seq 600); do [[ -s $out/hog-cap$1.txt ]] && break; sleep 0.1; done
  echo "GPU 0 capped: $(cat "$out/hog-cap$1.txt")"
  gpus_budget="memory_budget = \"$(($1 - 1024))MiB\""$'\n'
}

# After a stopped daemon: the hog released, the plan the engine chose, the failures that must not
# happen (out of device memory, a GPU out of rotation, the CPU fallback), and the log kept as
# daemon$1.log when $1 (a cap's tag) is given.
uncap_gpu_and_check_log() {
  [[ -n ${hog:-} ]] && kill "$hog" 2>/dev/null
  hog=
  echo "plan: $(grep -o 'plan {.*}' "$out/daemon.log" | head -1)"
  echo "device faults and out-of-memory in the log (none expected):"
  grep -E 'out of device memory|taken out of rotation|proving on the CPU' "$out/daemon.log" ||
    echo "  none"
  [[ -n $1 ]] && mv "$out/daemon.log" "$out/daemon$1.log"
}

# The page-locked load of the largest .params file in $1 (the 16/24 GiB cards' path: `cuzk params
# load --residency host --decoder device`, the daemon's checks), when LOAD_HOST=1: the progress
# lines of its page-lock and load phases (timestamped) and the total.
host_load_step() {
  [[ ${LOAD_HOST:-0} == 1 ]] || return 0
  local file
  file=$(ls -S "$1"/*.params | head -1)
  step "page-locked load of $(basename "$file") (--residency host --decoder device)"
  timeout "$(left)" ./cuzk params load --params "$file" --checks on-curve --gpu 0 \
    --residency host --decoder device 2>&1 | grep --line-buffered -E ' (0|100)%|GB/s|error' |
    while IFS= read -r line; do echo "$(date +%T.%3N) $line"; done
  echo "rc=${PIPESTATUS[0]}"
}
