#!/usr/bin/env bash
# bench/reader-walk.sh [BUILD_DIR (default build)] [SAMPLES (1000000)]
#
# The perf.data reader alone, side by side with perf's: decode every record and every sample
# of a ~1M-sample recording with call chains and print one line per sample, no symbols:
#   flare: `tests/unit/reader walk FILE` (lib/data reader: mmap, no per-record allocation)
#   perf:  perf script -F tid,time,ip,period (perf's reader and its sample parser)
# The recording: perf record -m 1024 -g -e syscalls:sys_enter_getppid over getppid_n SAMPLES,
# made by Linux perf in a scratch directory. Prints wall and CPU seconds, peak RSS, ratios
# (best of 3 runs by CPU time).
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
B=${1:-build}
N=${2:-1000000}
WALK=$ROOT/$B/tests/unit/reader
WL=$ROOT/$B/workloads/getppid_n
[ -x "$WALK" ] && [ -x "$WL" ] || { echo "build first: make BUILD=$B" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
perf record -q -m 1024 -g -e syscalls:sys_enter_getppid -o big.data -- "$WL" "$N" >/dev/null 2>&1
echo "recording: $(du -m big.data | cut -f1) MB, $("$WALK" walk big.data 2>&1 >/dev/null)"
run() {	# run cmd...: the run of 3 with the least CPU time; prints "wall cpu rss"
	local i
	for i in 1 2 3; do
		/usr/bin/time -a -o t.out -f "%e %U %S %M" "$@" >/dev/null 2>/dev/null
	done
	awk '{ c = $2 + $3; if (NR == 1 || c < best) { best = c; line = sprintf("%s %.2f %d", $1, c, $4) } }
		END { print line }' t.out
	rm -f t.out
}
read -r pw pc pm <<<"$(run perf script -i big.data -F tid,time,ip,period)"
read -r fw fc fm <<<"$(run "$WALK" walk big.data)"
echo "perf script -F tid,time,ip,period: wall $pw s, cpu $pc s, peak rss $pm KB"
echo "flare reader walk:                 wall $fw s, cpu $fc s, peak rss $fm KB"
awk -v pc="$pc" -v fc="$fc" -v pm="$pm" -v fm="$fm" 'BEGIN {
	printf "cpu time: flare is %.1fx faster; peak rss: flare uses %.2f of perf'"'"'s\n",
		pc / (fc > 0 ? fc : 0.01), fm / pm }'
