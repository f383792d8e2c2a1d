#!/usr/bin/env bash
# tests/fuzz/run.sh SECONDS HARNESS...: runs each libFuzzer harness (build-fuzz/NAME) for
# SECONDS on its corpus: tests/fuzz/corpus-NAME when there is one, the flamegraph test data
# for graph, perf.data seeds recorded here (tests/fuzz/seed-reader.sh) for reader and session,
# and an ELF of the build for symfile. New inputs go to a scratch corpus, never into the
# tree. Prints one line per harness; a crash, leak or timeout leaves its input in
# $FUZZ_ARTIFACTS (default: the scratch directory, removed unless something failed) and the
# script exits 1.
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
secs=$1; shift
work=$(mktemp -d "${TMPDIR:-/tmp}/flare-fuzz-run.XXXXXX")
art=${FUZZ_ARTIFACTS:-$work/artifacts}
mkdir -p "$art" "$work/tmp"
failed=0
seeds_made=0

seeds() {	# seeds NAME: prints the seed directories of harness NAME
	local name=$1
	[ -d "$ROOT/tests/fuzz/corpus-$name" ] && echo "$ROOT/tests/fuzz/corpus-$name"
	case $name in
	graph)
		mkdir -p "$work/graph-seeds"
		for f in "$ROOT"/tests/data/flamegraph/*; do
			case $f in
			*.gz) zcat "$f" | head -c 8192 >"$work/graph-seeds/$(basename "$f" .gz)" ;;
			*.folded) head -c 8192 "$f" >"$work/graph-seeds/$(basename "$f")" ;;
			esac
		done
		echo "$work/graph-seeds" ;;
	reader|session)
		if [ $seeds_made = 0 ] && command -v perf >/dev/null; then
			"$ROOT/tests/fuzz/seed-reader.sh" "$work/data-seeds" >/dev/null 2>&1
			seeds_made=1
		fi
		[ -d "$work/data-seeds" ] && echo "$work/data-seeds" ;;
	disasm)
		mkdir -p "$work/disasm-seeds"
		for b in "$ROOT"/build/workloads/exit_code "$ROOT"/build/workloads/cpu_burn; do
			[ -f "$b" ] || continue
			head -c 65535 "$b" >"$work/disasm-seeds/$(basename "$b")"
			# its code as bytes alone, for AT&T (0) and Intel (1)
			{ printf '\000'; tail -c +4097 "$b" | head -c 4096; } >"$work/disasm-seeds/$(basename "$b").att"
			{ printf '\001'; tail -c +4097 "$b" | head -c 4096; } >"$work/disasm-seeds/$(basename "$b").intel"
		done
		echo "$work/disasm-seeds" ;;
	symfile)
		mkdir -p "$work/elf-seeds"
		for b in "$ROOT"/build/workloads/exit_code "$ROOT"/build/workloads/cpu_burn; do
			[ -f "$b" ] && { printf '\000'; head -c 65535 "$b"; } >"$work/elf-seeds/$(basename "$b")"
		done
		echo "$work/elf-seeds" ;;
	esac
}

for bin in "$@"; do
	name=$(basename "$bin")
	[ -x "$bin" ] || { echo "FAIL - fuzz $name: $bin is not built"; failed=1; continue; }
	mkdir -p "$work/corpus-$name"
	# shellcheck disable=SC2046
	TMPDIR=$work/tmp "$bin" -max_total_time="$secs" -max_len=65536 -timeout=30 \
		-rss_limit_mb=2048 -artifact_prefix="$art/$name-" "$work/corpus-$name" \
		$(seeds "$name") >"$work/$name.log" 2>&1 &
	pid=$!
	wait $pid
	rc=$?
	rm -rf "/tmp/flare-fuzz-pmu/p$pid"	# options.c's stand-in sysfs, if it could not
	rmdir /tmp/flare-fuzz-pmu 2>/dev/null
	runs=$(sed -n 's/^Done \([0-9]*\) runs.*/\1/p' "$work/$name.log")
	if [ $rc -eq 0 ] && [ -n "$runs" ]; then
		echo "ok - fuzz $name: $runs runs in ${secs}s, no crash, leak or timeout"
	else
		echo "FAIL - fuzz $name: exit $rc: $(grep -E 'ERROR|SUMMARY|runtime error' "$work/$name.log" | head -3 | tr '\n' ' ')"
		ls "$art"/"$name"-* 2>/dev/null | sed 's/^/  input: /'
		failed=1
	fi
done
if [ $failed = 0 ] || [ -n "${FUZZ_ARTIFACTS:-}" ]; then
	rm -rf "$work"
else
	echo "inputs and logs kept in $work"
fi
exit $failed
