#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# README command 1: install what is missing, build, and run the main job on its embedded default.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install_deps.sh
./scripts/build.sh
./build/apps/cuzk/cuzk version
./build/apps/cuzk/cuzk demo
