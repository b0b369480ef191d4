#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Compares the two thread_pool implementations (CUZK_THREAD_POOL=native|tbb, issue 10 item 5) on
# the CPU benchmarks that use the pool: MSM, NTT and the Groth16 CPU prover at every hardware
# thread, plus single-threaded controls (synthesis, one-thread MSM/NTT) that never enter the pool
# and so show the noise floor. Prints medians side by side with the relative difference and the
# verdict rule of the issue: adopt tbb if every pool row stays within 3 %.
#
#   scripts/bench_thread_pool.sh NATIVE TBB [OUT_DIR]
#
# NATIVE and TBB are build directories (…/bench/micro/cuzk-microbench is used) or the
# cuzk-microbench binaries themselves, built from the same commit with -DCUZK_THREAD_POOL=native
# and =tbb. Needs only the two binaries, bash and python3 (and libtbb12 for the tbb one), so it
# runs on any machine the binaries were copied to. OUT_DIR (default ./thread-pool-bench-<time>)
# receives the JSON of every run, the console logs and summary.md. Run on an otherwise idle
# machine. Environment: REPS (repetitions, default 5), PROVE_LG (BM_groth16_prove size, default
# 16), SKIP_CONTROLS=1 to leave out the single-threaded controls.
set -euo pipefail

if (($# < 2)); then
  sed -n '3,17p' "$0" | sed 's/^# \{0,1\}//'
  exit 2
fi

binary_of() {
  if [[ -d $1 ]]; then echo "$1/bench/micro/cuzk-microbench"; else echo "$1"; fi
}
native=$(binary_of "$1")
tbb=$(binary_of "$2")
out=${3:-thread-pool-bench-$(date -u +%Y%m%dT%H%M%SZ)}
reps=${REPS:-5}
prove_lg=${PROVE_LG:-16}
for b in "$native" "$tbb"; do
  [[ -x $b ]] || { echo "bench_thread_pool: $b is not an executable cuzk-microbench" >&2; exit 2; }
done
command -v python3 >/dev/null || { echo "bench_thread_pool: python3 is needed" >&2; exit 2; }
# The tbb binary must link libtbb and the native one must not: catches swapped arguments.
links_tbb() { ldd "$1" 2>/dev/null | grep -q 'libtbb'; }
if links_tbb "$native" || ! links_tbb "$tbb"; then
  echo "bench_thread_pool: expected NATIVE without and TBB with libtbb (ldd); arguments swapped?" >&2
  exit 2
fi
mkdir -p "$out"

# name | filter | uses the pool (1) or control (0)
groups=(
  "msm|^BM_msm_g1/(16|18)/[0-9]+/|1"
  "ntt|^BM_ntt_mt/(20|24)/|1"
  "prove|^BM_groth16_prove/${prove_lg}/|1"
)
if [[ ${SKIP_CONTROLS:-0} != 1 ]]; then
  groups+=(
    "ntt_1t|^BM_ntt/20\$|0"
    "synth|^BM_synth_porep_2k/2\$|^BM_synth_label_full\$|0"
  )
fi

{
  echo "date_utc: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "host: $(hostname)"
  echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
  echo "nproc: $(nproc)"
  echo "load_before: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "repetitions: $reps"
  echo "native: $native"
  echo "tbb: $tbb ($(ldd "$tbb" | grep -o 'libtbb[^ ]*' | head -1))"
} | tee "$out/machine.txt"

i=0
for g in "${groups[@]}"; do
  name=${g%%|*}
  rest=${g#*|}
  filter=${rest%|*}
  # Alternate which implementation runs first so slow drift (thermal, other load) does not always
  # favour the same one.
  order=(native tbb)
  ((i++ % 2)) && order=(tbb native)
  for impl in "${order[@]}"; do
    bin=$native
    [[ $impl == tbb ]] && bin=$tbb
    echo "== $name ($impl): $filter" >&2
    "$bin" --benchmark_filter="$filter" --benchmark_repetitions="$reps" \
      --benchmark_report_aggregates_only=true --benchmark_out="$out/$name-$impl.json" \
      --benchmark_out_format=json >"$out/$name-$impl.txt" 2>&1 ||
      { echo "bench_thread_pool: $impl failed, see $out/$name-$impl.txt" >&2; exit 1; }
  done
done
echo "load_after: $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$out/machine.txt"

pool_groups=""
for g in "${groups[@]}"; do
  if [[ ${g##*|} == 1 ]]; then pool_groups+="${g%%|*} "; fi
done
python3 - "$out" "$pool_groups" <<'PY' | tee "$out/summary.md"
import json, os, sys

out, pool_groups = sys.argv[1], sys.argv[2].split()
SCALE = {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1e3}


def load(path):
    with open(path) as f:
        doc = json.load(f)
    rows = {}
    for b in doc["benchmarks"]:
        if b.get("run_type") != "aggregate":
            continue
        agg = b["aggregate_name"]
        if agg not in ("median", "cv"):
            continue
        base = b["run_name"]
        # the cv aggregate's real_time is the ratio stddev / mean, not a time
        value = b["real_time"] * (SCALE[b["time_unit"]] if agg == "median" else 1.0)
        rows.setdefault(base, {})[agg] = value
    return doc["context"], rows


commits = {}
table = []
worst = 0.0
for name in sorted({f.rsplit("-", 1)[0] for f in os.listdir(out) if f.endswith(".json")}):
    ctx_n, native = load(os.path.join(out, f"{name}-native.json"))
    ctx_t, tbb = load(os.path.join(out, f"{name}-tbb.json"))
    commits["native"] = ctx_n.get("cuzk_commit", "?")
    commits["tbb"] = ctx_t.get("cuzk_commit", "?")
    uses_pool = name in pool_groups
    for bench in sorted(native):
        if bench not in tbb:
            continue
        n, t = native[bench]["median"], tbb[bench]["median"]
        delta = 100.0 * (t - n) / n
        threads = bench.split("/")[2] if bench.startswith(("BM_msm", "BM_ntt_mt")) else ""
        pool_row = uses_pool and threads != "1"
        if pool_row:
            worst = max(worst, delta)
        table.append((bench, n, t, delta, native[bench].get("cv"), tbb[bench].get("cv"),
                      "pool" if pool_row else "control"))

print(f"commit: native {commits.get('native')}, tbb {commits.get('tbb')}")
if commits.get("native") != commits.get("tbb"):
    print("WARNING: the two binaries were built from different commits")
print()
print("| benchmark | kind | native median (ms) | tbb median (ms) | tbb vs native | cv native | cv tbb |")
print("|---|---|---:|---:|---:|---:|---:|")
pct = lambda v: "—" if v is None else f"{100 * v:.1f} %"
for bench, n, t, delta, cvn, cvt, kind in table:
    print(f"| `{bench}` | {kind} | {n:.2f} | {t:.2f} | {delta:+.1f} % | {pct(cvn)} | {pct(cvt)} |")
print()
print("tbb vs native = (tbb - native) / native of the median real time; + means tbb is slower.")
print("Rule (issue 10 item 5): adopt tbb if no pool row is more than 3 % slower. Controls never")
print("enter the pool (one thread, or single-threaded synthesis): their spread is the noise floor.")
verdict = "within 3 %: adopt" if worst <= 3.0 else "more than 3 % slower: keep native"
print(f"Worst pool row: {worst:+.1f} % → {verdict}")
PY
