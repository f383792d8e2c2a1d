#!/usr/bin/env bash
# bench/top.sh [BUILD] [SECONDS] [RUNS]: the CPU time `top -a -F 4000 -g --stdio` takes,
# flare against perf, while both CPUs are busy (two cpu_burn), each run SECONDS long and the
# two run one after the other RUNS times. Prints each side's user+system CPU seconds (median)
# and the ratio flare/perf (the issue's target: at most 1/3).
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
B=${1:-build}
SECS=${2:-10}
RUNS=${3:-3}
FLARE=$ROOT/$B/flare
WL=$ROOT/$B/workloads/cpu_burn
T=$(mktemp -d)
trap 'kill $B1 $B2 2>/dev/null; rm -rf "$T"' EXIT
cd "$T"
median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
# cpu CMD...: the user+system seconds of CMD run for SECS then sent SIGINT
cpu() {
	/usr/bin/time -f '%U %S' -o t.txt timeout -s INT "$SECS" "$@" >/dev/null 2>err.txt
	tail -1 t.txt | awk '{ print $1 + $2 }'
}
"$WL" $((SECS * RUNS * 3)) >/dev/null & B1=$!
"$WL" $((SECS * RUNS * 3)) >/dev/null & B2=$!
for i in $(seq "$RUNS"); do
	cpu "$FLARE" top -a -F 4000 -g --stdio >>flare
	# perf top reads keys from stdin: give it one that stays open and says nothing
	sleep $((SECS + 5)) | cpu perf top -a -F 4000 -g --stdio >>perf
done
f=$(median <flare); p=$(median <perf)
awk -v f="$f" -v p="$p" -v s="$SECS" -v r="$RUNS" 'BEGIN {
	printf "top -a -F 4000 -g --stdio, %d s each, median of %d, 2 cpu_burn busy:\n", s, r
	printf "CPU time: flare %.2f s, perf %.2f s, flare/perf %.3f\n", f, p, f / p
}'
