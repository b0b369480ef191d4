# SPDX-License-Identifier: Apache-2.0
# Shared by the scripts that drive the cuzk CLI step by step (tests/e2e/*.sh and
# tests/snarkjs/roundtrip.sh; sourced, not run):
#   step MSG...          a timestamped step header
#   fail MSG...          the script's name, FAILED and the message on stderr; exit 1
#   expect_rc N CMD...   runs CMD with its output in ./out.log; fails unless it exits N (the log
#                        is shown on failure)
#   key NAME             a P-256 private key in ./NAME.key (openssl, for the TLS tests)
#   signed NAME CN [EXT] a key and a certificate ./NAME.pem for CN, signed by ./ca.pem (./ca.key),
#                        valid two days, with the extensions of file EXT (subjectAltName…)
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
key() { openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$1.key" 2>/dev/null; }
signed() {
  key "$1"
  openssl req -new -key "$1.key" -subj "/CN=$2" -out "$1.csr" 2>/dev/null
  openssl x509 -req -in "$1.csr" -CA ca.pem -CAkey ca.key -CAcreateserial -days 2 \
    ${3:+-extfile "$3"} -out "$1.pem" 2>/dev/null
}
