# SPDX-License-Identifier: Apache-2.0
# Shared by the scripts that drive the cuzk CLI step by step (tests/e2e/*.sh and
# tests/snarkjs/roundtrip.sh; sourced, not run):
#   step MSG...          a timestamped step header
#   fail MSG...          the script's name, FAILED and the message on stderr; exit 1
#   expect_rc N CMD...   runs CMD with its output in ./out.log; fails unless it exits N (the log
#                        is shown on failure)
step() { echo "== $* ($(date +%T))"; }
fail() {
  echo "${0##*/}: FAILED: $*" >&2
  exit 1
}
expect_rc() {
  local want=$1 rc=0
  shift
  "$@" >out.log 2>&1 || rc=$?
  if [[ $rc -ne $want ]]; then
    cat out.log >&2
    fail "'$*' exited $rc, expected $want"
  fi
}
