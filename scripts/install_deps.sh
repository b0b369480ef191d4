#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Installs what cuzk needs to build and test on Debian 12, idempotently: only missing packages are
# installed. Every dependency is a Debian package (CONTRIBUTING.md "Code rules"); the test oracles
# come from npm. `install_deps.sh --run` (scripts/run.sh): only what the build, as test.sh
# configures it, and the demo need; not chromium, clang-14, clang-format, node/npm or systemd, which
# only the tests, the sanitizer tier, the format check and the package test use (test.sh installs
# them after).
set -euo pipefail

packages=(build-essential cmake git pkg-config python3 libgtest-dev libgmock-dev libbenchmark-dev
          libgmp-dev libssl-dev openssl nlohmann-json3-dev libsimdjson-dev libb2-dev libtbb-dev libcli11-dev
          libspdlog-dev libtomlplusplus-dev
          libgrpc++-dev libprotobuf-dev protobuf-compiler protobuf-compiler-grpc libcpp-httplib-dev)
if [[ ${1:-} != --run ]]; then
  packages+=(clang-format
             chromium  # chromium: the browser test of the daemon's pipeline page (label browser)
             # libFuzzer, ASan, UBSan (test_sanitizers.sh, fuzz.sh); the engine's -Wthread-safety
             # check (check_thread_safety.sh)
             clang-14 libclang-rt-14-dev
             dpkg-dev systemd  # scripts/package_test.sh: dpkg-shlibdeps; systemd-sysusers, -tmpfiles
             haproxy)  # deploy/: sidecar_haproxy_e2e, deploy_configs_test (haproxy -c)
  command -v node >/dev/null 2>&1 || packages+=(nodejs)
  command -v npm >/dev/null 2>&1 || packages+=(npm)
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "install_deps: installing ${missing[*]}"
  SUDO=""
  [[ $(id -u) -ne 0 ]] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
else
  echo "install_deps: all Debian packages present"
fi
