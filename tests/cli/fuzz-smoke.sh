#!/usr/bin/env bash
# Every libFuzzer harness of tests/fuzz, built with clang (make fuzz, incremental in
# build-fuzz/) and run a few seconds on its corpus: a smoke run that catches a harness that
# no longer builds or a parser that crashes on its own seeds. `make fuzz-long` runs longer.
source "$ROOT/tests/lib.sh"

# the harnesses are one build of their own, sanitizers included: run them in the first
# build's pass only, not again for build-asan
case $FLARE in */build/flare) ;; *) exit 0 ;; esac
if ! command -v clang >/dev/null; then
	skip "fuzz harnesses" "clang is not installed (scripts/deps.sh --test)"
	exit 0
fi
if ! make -C "$ROOT" -s -j2 fuzz >"$TMP/build.log" 2>&1; then
	fail "fuzz harnesses build" "$(grep -m3 -E 'error' "$TMP/build.log" | tr '\n' ' ')"
	exit 0
fi
pass "fuzz harnesses build"
bins=()
for f in "$ROOT"/tests/fuzz/*.c; do
	bins+=("$ROOT/build-fuzz/$(basename "$f" .c)")
done
"$ROOT/tests/fuzz/run.sh" "${FUZZ_SMOKE_SECS:-8}" "${bins[@]}" 2>&1 | grep -E '^(ok|FAIL|  input|inputs)'
