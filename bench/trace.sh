#!/usr/bin/env bash
# bench/trace.sh [BUILD] [CALLS] [RUNS] [all|live|replay]: the cost of tracing syscalls, side by
# side in one run (default: all parts; live: 1-3, replay: 4).
#  1. getppid_n CALLS (default 100,000): bare, `flare trace -s`, `perf trace -s`, `strace -c`;
#     median wall time of RUNS (default 3) alternating runs, the time each adds, and the ratio
#     of what flare adds to what perf adds (the target is <= 0.1).
#  2. The same with every line printed (to /dev/null): flare trace vs perf trace, added time
#     per syscall.
#  3. A burst of 1,000,000 getppid from two processes on both CPUs: how many each tracer counted
#     with -s and how many events it reported lost with lines on.
#  4. Replaying: perf trace record of getppid_n 2 * CALLS, then `trace -i` with every line (to
#     /dev/null) and `trace -s -i`, flare's and perf's, on that same file: median wall and CPU
#     (user + sys, the fairer number on a loaded machine) of RUNS alternating runs, the ratios.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
B=${1:-build}
N=${2:-100000}
R=${3:-3}
PART=${4:-all}
FLARE=$ROOT/$B/flare
WL=$ROOT/$B/workloads/getppid_n
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cd "$T" || exit 1

# wall NAME CMD...: appends CMD's wall time (seconds) to $T/NAME, its CPU time to $T/NAME.cpu
wall() {
	local name=$1
	shift
	/usr/bin/time -f "%e %U %S" -o "$T/time" "$@" >/dev/null 2>&1
	awk '{ print $1 }' "$T/time" >>"$T/$name"
	awk '{ print $2 + $3 }' "$T/time" >>"$T/$name.cpu"
}
median() { sort -g "$T/$1" | awk '{ v[NR] = $1 } END { printf "%.4f", v[int((NR + 1) / 2)] }'; }

replay() {
	local m=$((2 * N)) k
	perf trace record -o rec.data -- "$WL" "$m" >/dev/null 2>&1
	echo "perf trace record of getppid_n $m: $(perf script -i rec.data -F event 2>/dev/null |
		wc -l) samples, $(du -m rec.data | cut -f1) MB"
	for i in $(seq "$R"); do
		wall flare_ri "$FLARE" trace -i rec.data -o /dev/null
		wall perf_ri perf trace -i rec.data -o /dev/null
		wall flare_rs "$FLARE" trace -s -i rec.data -o /dev/null
		wall perf_rs perf trace -s -i rec.data -o /dev/null
	done
	for k in ri rs; do
		awk -v k="$k" -v f="$(median flare_$k)" -v p="$(median perf_$k)" \
			-v fc="$(median flare_$k.cpu)" -v pc="$(median perf_$k.cpu)" 'BEGIN {
			printf "trace %s-i: wall flare %.3f s, perf %.3f s, perf/flare %.2fx; ",
				(k == "rs" ? "-s " : ""), f, p, (f > 0 ? p / f : 0)
			printf "CPU flare %.3f s, perf %.3f s, perf/flare %.2fx\n", fc, pc,
				(fc > 0 ? pc / fc : 0) }'
	done
	cmp -s <("$FLARE" trace -s -i rec.data 2>&1) <(perf trace -s -i rec.data 2>&1) &&
		echo "-s tables identical: yes" || echo "-s tables identical: no"
}
if [ "$PART" = replay ]; then
	replay
	exit 0
fi

for i in $(seq "$R"); do
	wall bare "$WL" "$N"
	wall flare_s "$FLARE" trace -s -- "$WL" "$N"
	wall perf_s perf trace -s -- "$WL" "$N"
	wall strace_c strace -c -o /dev/null "$WL" "$N"
	wall flare_l "$FLARE" trace -o /dev/null -- "$WL" "$N"
	wall perf_l perf trace -o /dev/null -- "$WL" "$N"
done
b=$(median bare)
echo "getppid_n $N, median of $R runs (s): bare $b"
for k in flare_s perf_s strace_c flare_l perf_l; do
	printf '  %-9s %8.4f s, adds %8.4f s (%.2f us per call)\n' "$k" "$(median $k)" \
		"$(echo "$(median $k) - $b" | bc -l)" "$(echo "($(median $k) - $b) * 1000000 / $N" | bc -l)"
done
af=$(echo "$(median flare_s) - $b" | bc -l)
ap=$(echo "$(median perf_s) - $b" | bc -l)
awk -v f="$af" -v p="$ap" 'BEGIN { printf "-s: flare adds %.4f of what perf adds (target <= 0.1)\n", f / p }'
af=$(echo "$(median flare_l) - $b" | bc -l)
ap=$(echo "$(median perf_l) - $b" | bc -l)
awk -v f="$af" -v p="$ap" 'BEGIN { printf "lines: flare adds %.4f of what perf adds per event (target <= 1)\n", f / p }'

# the burst: two processes, 500,000 getppid each, one per CPU
burst="$WL 500000 & $WL 500000; wait"
count() { awk '$1 == "getppid" { n += $2 } END { print n + 0 }' "$1"; }
"$FLARE" trace -s -o fs.txt -- sh -c "$burst" 2>fs.err
perf trace -s -o ps.txt -- sh -c "$burst" 2>ps.err
echo "burst of 1,000,000 getppid on 2 CPUs, -s: flare counted $(count fs.txt), perf $(count ps.txt)"
"$FLARE" trace -e getppid -o fl.txt -- sh -c "$burst" 2>fl.err
perf trace -e getppid -o pl.txt -- sh -c "$burst" 2>pl.err
fl=$(grep -c ' getppid()' fl.txt)
pl=$(grep -c ' getppid()' pl.txt)
flost=$(grep -oE 'LOST [0-9]+' fl.err | awk '{ n += $2 } END { print n + 0 }')
plost=$(cat pl.txt pl.err | grep -oE 'LOST [0-9]+' | awk '{ n += $2 } END { print n + 0 }')
echo "burst with lines: flare printed $fl, reported $flost lost; perf printed $pl, reported $plost lost"
[ "$PART" = live ] || replay
