#!/usr/bin/env bash
# bench/trace-replay.sh [BUILD] [CALLS] [RUNS]: replaying a syscall recording, side by side in
# one run. perf trace record of getppid_n CALLS (default 200,000: 2 samples per call), then
# the median wall time of RUNS (default 3) alternating runs of `trace -i` with every line (to
# /dev/null) and of `trace -s -i`, flare's and perf's, on that same file, and the ratios; CPU
# time (user + sys) beside it, the fairer number on a loaded machine.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
B=${1:-build}
N=${2:-200000}
R=${3:-3}
FLARE=$ROOT/$B/flare
WL=$ROOT/$B/workloads/getppid_n
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cd "$T" || exit 1

# wall NAME CMD...: appends CMD's wall time to $T/NAME and its CPU time to $T/NAME.cpu
wall() {
	local name=$1
	shift
	/usr/bin/time -f "%e %U %S" -o "$T/time" "$@" >/dev/null 2>&1
	awk '{ print $1 }' "$T/time" >>"$T/$name"
	awk '{ print $2 + $3 }' "$T/time" >>"$T/$name.cpu"
}
median() { sort -g "$T/$1" | awk '{ v[NR] = $1 } END { printf "%.4f", v[int((NR + 1) / 2)] }'; }

perf trace record -o rec.data -- "$WL" "$N" >/dev/null 2>&1
samples=$(perf script -i rec.data -F event 2>/dev/null | wc -l)
echo "perf trace record of getppid_n $N: $samples samples, $(du -m rec.data | cut -f1) MB"
for i in $(seq "$R"); do
	wall flare_l "$FLARE" trace -i rec.data -o /dev/null
	wall perf_l perf trace -i rec.data -o /dev/null
	wall flare_s "$FLARE" trace -s -i rec.data -o /dev/null
	wall perf_s perf trace -s -i rec.data -o /dev/null
done
for k in l s; do
	awk -v k="$k" -v f="$(median flare_$k)" -v p="$(median perf_$k)" \
		-v fc="$(median flare_$k.cpu)" -v pc="$(median perf_$k.cpu)" 'BEGIN {
		printf "trace %s-i: wall flare %.3f s, perf %.3f s, perf/flare %.2fx; ",
			(k == "s" ? "-s " : ""), f, p, (f > 0 ? p / f : 0)
		printf "CPU flare %.3f s, perf %.3f s, perf/flare %.2fx\n", fc, pc, (fc > 0 ? pc / fc : 0) }'
done
same=$(cmp -s <("$FLARE" trace -s -i rec.data 2>&1) <(perf trace -s -i rec.data 2>&1) && echo yes || echo no)
echo "-s tables identical: $same"
