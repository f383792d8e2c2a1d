#!/usr/bin/env bash
# bench/sched-latency.sh [BUILD] [ROUND_TRIPS] [RUNS]: perf sched record of the pipe ping-pong
# workload (ROUND_TRIPS round trips, ~6 sched events each: 170000 make ~1M), then
# 'flare sched latency' and 'perf sched latency' on that one file, alternating, RUNS times
# each: the median wall and CPU (user+sys) seconds of each, their ratio, and whether the two
# tables are the same bytes.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
B=${1:-build}
N=${2:-170000}
R=${3:-5}
FLARE=$ROOT/$B/flare
WL=$ROOT/$B/workloads/pingpong
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cd "$T"
perf sched record -q -o sched.data -- "$WL" "$N" >/dev/null 2>&1
n=$(perf report -i sched.data --stats 2>/dev/null | awk '/SAMPLE events:/ { print $3; exit }')
echo "perf sched record of pingpong $N: $n samples, $(du -m sched.data | cut -f1) MB"
# one "wall cpu" line per run
run() { /usr/bin/time -f '%e %U %S' -o t.txt "$@" >out.txt 2>/dev/null; awk '{ print $1, $2 + $3 }' t.txt; }
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
: >f.txt; : >p.txt
for i in $(seq "$R"); do
	run "$FLARE" sched latency -i sched.data >>f.txt; cp out.txt f.out
	run perf sched latency -i sched.data >>p.txt; cp out.txt p.out
done
fw=$(cut -d' ' -f1 f.txt | median); fc=$(cut -d' ' -f2 f.txt | median)
pw=$(cut -d' ' -f1 p.txt | median); pc=$(cut -d' ' -f2 p.txt | median)
echo "sched latency, median of $R runs: flare ${fw} s wall ${fc} s cpu, perf ${pw} s wall ${pc} s cpu"
awk -v fw="$fw" -v pw="$pw" -v fc="$fc" -v pc="$pc" 'BEGIN {
	printf "speedup perf/flare: wall %.1fx, cpu %.1fx\n", pw / (fw > 0 ? fw : 0.001), pc / (fc > 0 ? fc : 0.001) }'
if cmp -s f.out p.out; then echo "tables: identical"; else echo "tables: DIFFERENT"; diff p.out f.out | head -6; fi
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
