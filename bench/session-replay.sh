#!/usr/bin/env bash
# bench/session-replay.sh [BUILD_DIR (default build)] [PAGES_PER_RUN (10000)] [RUNS (100)]
#
# The machinery under report, script and flamegraph, side by side with perf's: a replay of a
# perf.data of ~1M samples with call chains that resolves every frame to its symbol and dso
# and prints the same text (tests/cli/sym.sh checks the two texts are equal):
#   flare: the session unit binary's `dump` mode (lib/session + lib/sym, plain printf), and its
#          `count` mode (the same replay and resolution, nothing printed)
#   perf:  perf script -F comm,tid,ip,sym,symoff,dso
# The recording: perf record -e page-faults -c 1 -g over RUNS runs of touch_pages PAGES, made by
# Linux perf in a scratch directory. Prints wall and CPU seconds, peak RSS and the ratios.
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
B=${1:-build}
PAGES=${2:-10000}
RUNS=${3:-110}
DUMP=$ROOT/$B/tests/unit/session
WL=$ROOT/$B/workloads/touch_pages
[ -x "$DUMP" ] && [ -x "$WL" ] || { echo "build first: make BUILD=$B" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
perf record -q --no-bpf-event -e page-faults -c 1 -g -o big.data -- \
	sh -c "for i in \$(seq $RUNS); do $WL $PAGES; done" >/dev/null 2>&1
echo "recording: $(du -m big.data | cut -f1) MB, $("$DUMP" count big.data)"
run() {	# run cmd...: the run of 3 with the least CPU time; prints "wall cpu rss"
	local i
	for i in 1 2 3; do
		/usr/bin/time -a -o t.out -f "%e %U %S %M" "$@" >/dev/null 2>/dev/null
	done
	awk '{ c = $2 + $3; if (NR == 1 || c < best) { best = c; line = sprintf("%s %.2f %d", $1, c, $4) } }
		END { print line }' t.out
	rm -f t.out
}
p=$(run perf script -i big.data -F comm,tid,ip,sym,symoff,dso)
read -r pw pc pm <<<"$p"
echo "perf script:          wall $pw s, cpu $pc s, peak rss $pm KB"
for mode in dump count; do
	f=$(run "$DUMP" $mode big.data)
	read -r fw fc fm <<<"$f"
	printf "flare session %-6s wall %s s, cpu %s s, peak rss %s KB\n" "$mode:" "$fw" "$fc" "$fm"
	awk -v m="$mode" -v fw="$fw" -v fc="$fc" -v fm="$fm" -v pw="$pw" -v pc="$pc" -v pm="$pm" \
		'BEGIN { printf "  perf/flare (%s): wall %.1fx, cpu %.1fx; peak rss flare/perf %.2f\n",
			m, pw / fw, pc / (fc > 0 ? fc : 0.01), fm / pm }'
done
