#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The `cuzk` command line (CLI11) end to end: exit codes 0 ok / 2 usage error, one line on stderr
# naming the bad flag, strict decimal numbers, `help` and `--help` on stdout, the global
# --log-level flag (before or after the subcommand). Nothing here proves or writes files: every
# bad command line is rejected before its command runs. Usage: cli_flags_test.sh /path/to/cuzk
set -u
cuzk="$1"
fails=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# expect_rc N [--stderr-has TEXT] [--stdout-has TEXT] -- args...
expect_rc() {
  local want=$1; shift
  local err_has="" out_has=""
  while [[ $1 != -- ]]; do
    case $1 in
      --stderr-has) err_has=$2; shift 2 ;;
      --stdout-has) out_has=$2; shift 2 ;;
    esac
  done
  shift
  local rc=0
  "$cuzk" "$@" >"$tmp/out" 2>"$tmp/err" || rc=$?
  local why=""
  [[ $rc -ne $want ]] && why="rc=$rc, want $want"
  [[ -n $err_has ]] && ! grep -qF -- "$err_has" "$tmp/err" && why+=" stderr lacks '$err_has'"
  [[ -n $out_has ]] && ! grep -qF -- "$out_has" "$tmp/out" && why+=" stdout lacks '$out_has'"
  if [[ $want -eq 2 && $(wc -l <"$tmp/err") -ne 1 && -z $why ]]; then
    why="want exactly one line on stderr"
  fi
  if [[ -n $why ]]; then
    echo "FAIL: cuzk $* -> $why"
    sed 's/^/  stdout: /' "$tmp/out" | head -5
    sed 's/^/  stderr: /' "$tmp/err" | head -5
    fails=$((fails + 1))
  fi
}

seal=(porep seal --registered-proof StackedDrg2KiBV1_1 --out-dir "$tmp/never")
prove=(prove porep --c1 "$tmp/none.json" --proof-out "$tmp/never.bin")

# version and help
expect_rc 0 --stdout-has "cuzk " -- version
expect_rc 0 --stdout-has "cuzk " -- --version
expect_rc 0 --stdout-has "porep" -- help
expect_rc 0 --stdout-has "porep" -- --help
expect_rc 0 --stdout-has "public-inputs" -- porep help
expect_rc 0 --stdout-has "--out-dir" -- porep seal --help
expect_rc 0 --stdout-has "--partition" -- porep public-inputs help
expect_rc 0 --stdout-has "--proof-out" -- prove porep help
expect_rc 0 --stdout-has "--check-digests" -- prove porep --help
expect_rc 0 --stdout-has "--proof" -- verify porep --help
expect_rc 0 --stdout-has "--seed" -- params generate --help
expect_rc 0 --stdout-has "--params-dir" -- params check help
expect_rc 0 --stdout-has "export-snarkjs" -- groth16 help
expect_rc 0 --stdout-has "--arity" -- hash poseidon --help

# usage errors: exit 2, one line on stderr
expect_rc 2 -- frobnicate
expect_rc 2 -- porep
expect_rc 2 -- porep frobnicate
expect_rc 2 --stderr-has "--bogus" -- "${seal[@]}" --bogus 1
expect_rc 2 --stderr-has "--bogus" -- hash poseidon --arity 2 --bogus 0 1
expect_rc 2 --stderr-has "--out-dir" -- porep seal --registered-proof StackedDrg2KiBV1_1
expect_rc 2 --stderr-has "--sector-id" -- "${seal[@]}" --sector-id 12x
expect_rc 2 --stderr-has "--sector-id" -- "${seal[@]}" --sector-id -1
expect_rc 2 --stderr-has "--sector-id" -- "${seal[@]}" --sector-id 18446744073709551616
expect_rc 2 --stderr-has "--miner-id" -- "${seal[@]}" --miner-id 0x10
expect_rc 2 --stderr-has "--threads" -- "${seal[@]}" --threads 0
expect_rc 2 --stderr-has "--threads" -- "${seal[@]}" --threads 4097
expect_rc 2 --stderr-has "--prover-id" -- "${seal[@]}" --miner-id 1 --prover-id 00
expect_rc 2 --stderr-has "--sector-id" -- "${prove[@]}" --sector-id 12x
expect_rc 2 --stderr-has "--gpu" -- "${prove[@]}" --gpu 1024
expect_rc 2 --stderr-has "--gpu-memory-mib" -- "${prove[@]}" --gpu 0 --gpu-memory-mib 0
expect_rc 2 --stderr-has "--gpu-memory-mib" -- "${prove[@]}" --gpu 0 --gpu-memory-mib 1e9
expect_rc 2 --stderr-has "--gpu-memory-mib" -- "${prove[@]}" --gpu 0 \
  --gpu-memory-mib 18446744073709551616
expect_rc 2 --stderr-has "--gpu" -- "${prove[@]}" --gpu-memory-mib 24576
expect_rc 2 --stderr-has "--check-digests" -- "${prove[@]}" --parameters-json x.json
expect_rc 2 --stderr-has "--proof-out" -- prove porep --c1 "$tmp/none.json"
expect_rc 2 --stderr-has "--partition" -- porep public-inputs --c1 x --out - --partition 1001
expect_rc 2 --stderr-has "--format" -- porep gen-vanilla --registered-proof 1 --synthetic \
  --out "$tmp/never" --format yaml
expect_rc 2 --stderr-has "--circuit" -- params generate --circuit winning --registered-proof 1
expect_rc 2 --stderr-has "--public" -- groth16 export-snarkjs --vk a.vk --proof p.bin --out-dir d
expect_rc 2 --stderr-has "--log-msm" -- demo --log-msm 27
expect_rc 2 --stderr-has "--log-level" -- --log-level bogus version
expect_rc 2 --stderr-has "--log-level" -- version --log-level bogus

# --log-level: anywhere on the line; `off` silences the diagnostics, not the result or exit code
expect_rc 0 --stdout-has ba7816bf -- --log-level debug hash sha256-trunc254 616263
expect_rc 0 --stdout-has ba7816bf -- hash sha256-trunc254 616263 --log-level warn
rc=0
"$cuzk" >/dev/null 2>&1 || rc=$?
[[ $rc -eq 2 ]] || { echo "FAIL: bare cuzk -> rc=$rc, want 2"; fails=$((fails + 1)); }
rc=0
"$cuzk" --log-level off hash poseidon --arity 3 0 1 2 >"$tmp/out" 2>"$tmp/err" || rc=$?
if [[ $rc -ne 2 || -s $tmp/err ]]; then
  echo "FAIL: --log-level off: rc=$rc (want 2), stderr '$(cat "$tmp/err")' (want empty)"
  fails=$((fails + 1))
fi
[[ -e $tmp/never || -e $tmp/never.bin ]] && { echo "FAIL: a rejected command wrote output"; fails=$((fails + 1)); }

# A directory where a file is expected (issue 13: these aborted with an uncaught exception): a
# message naming the path and exit 1 or 2, never a signal.
d=$tmp/a_directory
mkdir -p "$d"
for cmd in "verify porep --c1 $d --params-dir $d --proof $d" \
  "prove porep --c1 $d --params-dir $d --proof-out $tmp/never.bin" \
  "groth16 verify --vk $d --proof $d --public $d" "piece commp $d" \
  "groth16 setup --r1cs $d --params-out $tmp/never --vk-out $tmp/never.vk"; do
  rc=0
  # shellcheck disable=SC2086 # the command is split into its words on purpose
  "$cuzk" $cmd >/dev/null 2>"$tmp/err" || rc=$?
  if [[ ($rc -ne 1 && $rc -ne 2) ]] || ! grep -qF "$d" "$tmp/err"; then
    echo "FAIL: cuzk $cmd -> rc=$rc (want 1 or 2 and the path named), stderr: $(head -c 200 "$tmp/err")"
    fails=$((fails + 1))
  fi
done
[[ -e $tmp/never || -e $tmp/never.bin ]] && { echo "FAIL: a failed command wrote output"; fails=$((fails + 1)); }

if [[ $fails -ne 0 ]]; then echo "$fails failure(s)"; exit 1; fi
echo "cuzk CLI flags: all checks passed"
