#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The sanitizer tier (CI, after scripts/test.sh): one clang-14 build in build-asan/ with ASan +
# UBSan and libFuzzer coverage (-DCUZK_FUZZ=ON), at -O0 (a cold build in 5 minutes, not 17), then
#   1. the unit tests of the decoders of untrusted bytes and the crypto core they rest on
#      (SANITIZER_TESTS below; docs/fuzzing.md says why these and not the whole unit tier), and
#   2. the fuzz smoke: every libFuzzer target for ${CUZK_FUZZ_SMOKE_SECONDS:-5} s on its corpus.
# Either failing fails the script. Prints the time of each phase.
#   scripts/test_sanitizers.sh
set -euo pipefail
cd "$(dirname "$0")/.."

# Unit tests run under the sanitizers: every decoder's test and the curve, hash and Groth16 code
# under them; pure field/tower/pairing arithmetic, NTT, MSM and the circuit tests stay in the
# normal build (compile time; docs/fuzzing.md).
SANITIZER_TESTS=(base_test base64_test hash_test sha256_test ec_test ec_vectors_test r1cs_test
                 iden3_io_test groth16_test params_io_test snarkjs_json_test porep_c1_test post_test
                 proofs_params_digest_test)

build=build-asan
jobs=$(nproc)
t0=$(date +%s)
launcher=()
command -v ccache >/dev/null 2>&1 && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
CC=clang-14 CXX=clang++-14 cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DCUZK_CUDA=OFF \
  -DCUZK_FUZZ=ON -DCUZK_BUILD_BENCH=OFF -DCUZK_SANITIZE_OPT=-O0 "${launcher[@]}" >/dev/null
cmake --build "$build" -j"$jobs" --target "${SANITIZER_TESTS[@]}" cuzk_fuzzers
t1=$(date +%s)

regex="^($(IFS='|'; echo "${SANITIZER_TESTS[*]}"))\$"
status=0
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:print_stacktrace=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
ctest --test-dir "$build" -R "$regex" --output-on-failure -j"$jobs" || status=1
t2=$(date +%s)
CUZK_FUZZ_BUILD_DIR=$build CUZK_FUZZ_NO_BUILD=1 ./scripts/fuzz.sh "${CUZK_FUZZ_SMOKE_SECONDS:-5}" ||
  status=1
t3=$(date +%s)
echo "test_sanitizers: build $((t1 - t0)) s, unit tests $((t2 - t1)) s, fuzz smoke $((t3 - t2)) s," \
  "total $((t3 - t0)) s"
exit "$status"
