#!/usr/bin/env bash
# tests/fuzz/seed-reader.sh DIR [BUILD_DIR (default build)]: writes seed inputs for the reader
# fuzzer into DIR: small perf 6.1 recordings of every shape the reader knows (-g, -a -g,
# tracepoint, several events, -z, pipe mode with a tracepoint), each cut to 60 KB so the
# fuzzer's -max_len keeps their header, attrs, first records and (pipe) tracing data.
#   tests/fuzz/seed-reader.sh /tmp/seeds && build-fuzz/reader -max_len=65536 CORPUS /tmp/seeds
set -eu
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
OUT=$(mkdir -p "$1" && cd "$1" && pwd)
WL=$ROOT/${2:-build}/workloads
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
rec() {	# rec NAME perf-record-args...
	local name=$1; shift
	perf record -q "$@" >/dev/null 2>&1 || true
	[ -s "$name" ] && head -c 61440 "$name" > "$OUT/$name"
}
rec fp.data -F 999 -g -o fp.data "$WL/cpu_burn" 0.2
rec sysw.data -a -g -o sysw.data -- sleep 0.2
rec tp.data -e syscalls:sys_enter_openat -o tp.data "$WL/open_n" 20
rec multi.data -e cpu-clock -e page-faults -c 10000 -o multi.data "$WL/touch_pages"
rec z.data -z -F 999 -g -o z.data "$WL/cpu_burn" 0.2
perf record -q -e syscalls:sys_enter_openat -o - "$WL/open_n" 20 2>/dev/null | head -c 61440 \
	> "$OUT/tppipe.data" || true
ls -la "$OUT"
