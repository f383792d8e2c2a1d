#!/usr/bin/env bash
# bench/record-overhead.sh [BUILD] [RUNS]: what `record -F 999 -g` costs a CPU-bound program,
# flare against perf, side by side in one run. cpu_burn runs for a fixed time and counts its
# loops, so the cost of sampling shows as lost loops: overhead = 1 - loops/loops_bare.
# Also the wall time of the whole command (perf adds ~1.1 s at exit).
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
B=${1:-build}
RUNS=${2:-5}
FLARE=$ROOT/$B/flare
WL=$ROOT/$B/workloads/cpu_burn
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cd "$T"
loops() { grep -o '[0-9]* loops' | awk '{ print $1 }'; }
median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
for i in $(seq "$RUNS"); do
	"$WL" 1 | loops >>bare
	s=$(date +%s.%N); $FLARE record -q -F 999 -g -o f.data "$WL" 1 2>/dev/null | loops >>flare
	e=$(date +%s.%N); echo "$e - $s" | bc >>flare.wall
	s=$(date +%s.%N); perf record -q -F 999 -g -o p.data "$WL" 1 2>/dev/null | loops >>perf
	e=$(date +%s.%N); echo "$e - $s" | bc >>perf.wall
done
b=$(median <bare); f=$(median <flare); p=$(median <perf)
awk -v b="$b" -v f="$f" -v p="$p" -v fw="$(median <flare.wall)" -v pw="$(median <perf.wall)" 'BEGIN {
	fo = 100 * (1 - f / b); po = 100 * (1 - p / b)
	printf "cpu_burn 1 s, median of runs: bare %d loops, flare %d, perf %d\n", b, f, p
	printf "overhead: flare %.2f%%, perf %.2f%%\n", fo, po
	printf "loops kept, flare/perf: %.3f\n", f / p
	printf "wall time: flare %.3f s, perf %.3f s, ratio flare/perf %.2f\n", fw, pw, fw / pw
}'
