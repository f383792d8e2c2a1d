#!/usr/bin/env bash
# tests/run.sh [BUILD_DIR...] [-k PATTERN]: runs the unit tests and the CLI tests against each
# build directory (default: build), prints one line per check and ends with
#   N passed, N failed, N skipped
# Exits non-zero when anything failed.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
builds=()
pattern=""
while [ $# -gt 0 ]; do
	case $1 in
	-k) pattern=$2; shift 2 ;;
	*) builds+=("$1"); shift ;;
	esac
done
[ ${#builds[@]} -gt 0 ] || builds=(build)
log=$(mktemp)
trap 'rm -f "$log"' EXIT

if ! mountpoint -q /sys/kernel/tracing 2>/dev/null; then
	mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null || true
fi

# the golden fixtures name their workloads at a fixed path
"$ROOT/tests/data/install-bins.sh" || echo "warning: cannot install the fixture binaries"

for b in "${builds[@]}"; do
	bdir=$ROOT/$b
	tag=""
	[ "$b" = build ] || tag="[$b] "
	export FLARE=$bdir/flare WL=$ROOT/build/workloads TESTDATA=$ROOT/tests/data ROOT
	[ -x "$WL/cpu_burn" ] || WL=$bdir/workloads
	export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:exitcode=99
	export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1:exitcode=98
	for t in "$bdir"/tests/unit/*; do
		[ -x "$t" ] || continue
		case $(basename "$t") in *.d|*.o) continue ;; esac
		[ -z "$pattern" ] || [[ $t == *$pattern* ]] || continue
		out=$(timeout 300 "$t" 2>&1); rc=$?
		printf '%s\n' "$out" | sed "s/^\(ok\|FAIL\|skip\) - /&$tag/" | tee -a "$log"
		if [ $rc -ne 0 ] && ! grep -q '^FAIL' <<<"$out"; then
			echo "FAIL - ${tag}unit/$(basename "$t"): exited $rc" | tee -a "$log"
		fi
	done
	for s in "$ROOT"/tests/cli/*.sh; do
		[ -f "$s" ] || continue
		[ -z "$pattern" ] || [[ $s == *$pattern* ]] || continue
		TMP=$(mktemp -d)
		export TMP
		out=$(cd "$TMP" && timeout 900 bash "$s" 2>&1); rc=$?
		printf '%s\n' "$out" | grep -E '^(ok|FAIL|skip) - ' | sed "s/^\(ok\|FAIL\|skip\) - /&$tag/" | tee -a "$log"
		if [ $rc -ne 0 ]; then
			echo "FAIL - ${tag}$(basename "$s" .sh): script exited $rc: $(printf '%s\n' "$out" | grep -vE '^(ok|skip) - ' | tail -5 | tr '\n' ' ')" | tee -a "$log"
		fi
		rm -rf "$TMP"
	done
done

p=$(grep -c '^ok - ' "$log")
f=$(grep -c '^FAIL - ' "$log")
s=$(grep -c '^skip - ' "$log")
if [ "$f" -gt 0 ]; then
	echo
	echo "failures:"
	grep '^FAIL - ' "$log"
fi
echo
echo "$p passed, $f failed, $s skipped"
[ "$f" -eq 0 ]
