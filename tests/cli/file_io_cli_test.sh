#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Every file the `cuzk` CLI reads or writes goes through base/file_io (issue 13): a directory, a
# FIFO or /dev/zero where an input file is meant is refused with exit 2 and one message naming the
# flag, without hanging or reading; an output that cannot be a regular file (/dev/full, a
# directory) is a non-zero exit and never a "written"/"-> path" line. Seals one 2 KiB sector for
# a C1 (a second on 2 cores); nothing here needs parameters: every refusal comes before them.
# Usage: file_io_cli_test.sh /path/to/cuzk
set -u
cuzk="$1"
fails=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/dir"
mkfifo "$tmp/fifo"

# expect_rc WANT [--stderr-has TEXT] [--nonzero] -- args...: WANT is the exit status, or "nonzero".
# Every run is bounded by `timeout`, so a read that blocks on the FIFO fails the test (rc 124)
# instead of hanging it. Output never claims success: no "->", "written" or "self-verified" line.
expect_rc() {
  local want=$1; shift
  local err_has=""
  while [[ $1 != -- ]]; do
    case $1 in
      --stderr-has) err_has=$2; shift 2 ;;
    esac
  done
  shift
  local rc=0
  timeout 60 "$cuzk" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null || rc=$?
  local why=""
  if [[ $want == nonzero ]]; then
    [[ $rc -eq 0 || $rc -eq 124 || $rc -ge 128 ]] && why="rc=$rc, want a non-zero exit status"
  elif [[ $rc -ne $want ]]; then
    why="rc=$rc, want $want"
  fi
  [[ -n $err_has ]] && ! grep -qF -- "$err_has" "$tmp/err" && why+=" stderr lacks '$err_has'"
  grep -qE -- '->|written|self-verified' "$tmp/out" "$tmp/err" && why+=" output claims success"
  if [[ -n $why ]]; then
    echo "FAIL: cuzk $* -> $why"
    sed 's/^/  stdout: /' "$tmp/out" | head -5
    sed 's/^/  stderr: /' "$tmp/err" | head -5
    fails=$((fails + 1))
  fi
}

"$cuzk" --log-level warn porep seal --registered-proof StackedDrg2KiBV1_1 --out-dir "$tmp/sector" \
  >/dev/null || { echo "FAIL: porep seal"; exit 1; }
c1="$tmp/sector/c1.json"
none="$tmp/no-params"

# Inputs: a directory, a FIFO, /dev/zero where a file is meant → exit 2 naming what it is.
for bad in "$tmp/dir" "$tmp/fifo" /dev/zero; do
  expect_rc 2 --stderr-has "--c1" -- prove porep --c1 "$bad" --params-dir "$none" \
    --proof-out "$tmp/p.bin"
  expect_rc 2 --stderr-has "--c1" -- verify porep --c1 "$bad" --params-dir "$none" \
    --proof "$tmp/p.bin"
  expect_rc 2 --stderr-has "--proof" -- verify porep --c1 "$c1" --params-dir "$none" \
    --proof "$bad"
  expect_rc 2 --stderr-has "--c1" -- porep public-inputs --c1 "$bad" --partition 0 --out -
  expect_rc 2 --stderr-has "--data" -- porep seal --registered-proof StackedDrg2KiBV1_1 \
    --data "$bad" --out-dir "$tmp/never"
  expect_rc 2 --stderr-has "--parameters-json" -- prove porep --c1 "$c1" --params-dir "$none" \
    --check-digests --parameters-json "$bad" --proof-out "$tmp/p.bin"
  expect_rc 2 --stderr-has "--parameters-json" -- params check --params-dir "$none" \
    --parameters-json "$bad"
  expect_rc 2 --stderr-has "--vanilla" -- prove window-post --vanilla "$bad" \
    --randomness "$(printf '%064d' 0)" --registered-proof StackedDrgWindow2KiBV1_2 \
    --params-dir "$none" --proof-out "$tmp/p.bin"
  expect_rc 2 -- groth16 verify --vk "$bad" --proof "$tmp/p.bin" --public "$tmp/p.json"
  expect_rc 2 --stderr-has "--params" -- params load --params "$bad"
done
[[ -e $tmp/never ]] && { echo "FAIL: porep seal created its output with bad --data"; fails=$((fails + 1)); }
# A directory's error says so.
expect_rc 2 --stderr-has "is a directory" -- prove porep --c1 "$tmp/dir" --params-dir "$none" \
  --proof-out "$tmp/p.bin"
expect_rc 2 --stderr-has "is a FIFO" -- porep public-inputs --c1 "$tmp/fifo" --partition 0 --out -

# Outputs: /dev/full and a directory are refused (prove: before any parameter is touched); a
# missing directory is an error; the target is never replaced.
for bad in /dev/full "$tmp/dir" "$tmp/missing/out"; do
  expect_rc nonzero -- prove porep --c1 "$c1" --params-dir "$none" --proof-out "$bad"
  expect_rc nonzero -- porep public-inputs --c1 "$c1" --partition 0 --out "$bad"
  expect_rc nonzero -- porep gen-vanilla --registered-proof StackedDrg2KiBV1_1 --synthetic \
    --out "$bad"
done
expect_rc 2 --stderr-has "--proof-out" -- prove porep --c1 "$c1" --params-dir "$none" \
  --proof-out /dev/full
[[ -d $tmp/dir && -c /dev/full ]] || { echo "FAIL: an output target was replaced"; fails=$((fails + 1)); }
[[ -z $(ls -A "$tmp/dir") ]] || { echo "FAIL: files left in $tmp/dir: $(ls -A "$tmp/dir")"; fails=$((fails + 1)); }
# No temporary file is left beside a refused or failed output.
if ls -A "$tmp" | grep -q '\.tmp'; then
  echo "FAIL: temporary files left: $(ls -A "$tmp")"; fails=$((fails + 1))
fi

# The good paths still write through the same code.
"$cuzk" --log-level error porep public-inputs --c1 "$c1" --partition 0 --out "$tmp/public.json" ||
  { echo "FAIL: public-inputs to a regular file"; fails=$((fails + 1)); }
[[ -s $tmp/public.json ]] || { echo "FAIL: public.json is empty"; fails=$((fails + 1)); }

if [[ $fails -ne 0 ]]; then
  echo "$fails failure(s)"
  exit 1
fi
echo "file io: bad inputs refused (exit 2), bad outputs a non-zero exit, nothing claimed written"
