#!/usr/bin/env bash
# scripts/test.sh: the whole test suite from a fresh Debian 12 machine: installs missing
# dependencies, builds flare twice (plain with -Werror, and with ASan+UBSan), runs every unit
# and CLI test against both builds, and ends with "N passed, N failed, N skipped".
set -eu
cd "$(dirname "$0")/.."
echo "== installing missing dependencies"
scripts/deps.sh --test
echo "== building build/flare (warnings are errors)"
make -j"$(nproc)" WERROR=1 >/dev/null
echo "== building build-asan/flare (AddressSanitizer + UndefinedBehaviorSanitizer)"
make -j"$(nproc)" WERROR=1 SAN=1 >/dev/null
echo "== running the tests (plain build, then sanitizer build)"
exec tests/run.sh build build-asan
