#!/usr/bin/env bash
# bench/flamegraph.sh [PERF_DATA]: perf.data -> SVG flame graph, flare against the Perl
# pipeline, side by side in one run:
#   flare flamegraph -i PERF_DATA -o flare.svg
#   perf script -i PERF_DATA | stackcollapse-perf.pl | flamegraph.pl > perl.svg
# Without PERF_DATA it records one of at least 1M samples with call graphs
# (perf record -F 49000 -a -g -- mt_burn 11; about 120 MB).
# FlameGraph's scripts come from FLAMEGRAPH_DIR, a checkout of
# https://github.com/brendangregg/FlameGraph (git clone it anywhere and point at it).
# FLARE (default build/flare) and WL (default build/workloads) locate flare's build.
# Prints both wall times (best of RUNS, default 1), the ratio, and checks that the two SVGs
# draw the same frames (titles and geometry).
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
FLARE=${FLARE:-$ROOT/build/flare}
WL=${WL:-$ROOT/build/workloads}
RUNS=${RUNS:-1}
FG=${FLAMEGRAPH_DIR:-}
if [ -z "$FG" ] || [ ! -f "$FG/flamegraph.pl" ] || [ ! -f "$FG/stackcollapse-perf.pl" ]; then
	echo "bench/flamegraph.sh: set FLAMEGRAPH_DIR to a checkout of" \
		"https://github.com/brendangregg/FlameGraph (git clone https://github.com/brendangregg/FlameGraph)" >&2
	exit 2
fi
command -v perf >/dev/null || { echo "bench/flamegraph.sh: needs Linux perf" >&2; exit 2; }
[ -x "$FLARE" ] || { echo "bench/flamegraph.sh: no flare at $FLARE (make, or set FLARE)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
data=${1:-}
if [ -z "$data" ]; then
	data=$tmp/perf.data
	echo "recording: perf record -F 49000 -a -g -- mt_burn 11"
	perf record -q -F 49000 -a -g -o "$data" -- "$WL/mt_burn" 11 >/dev/null 2>&1
fi
samples=$(perf report -i "$data" --stats 2>/dev/null | awk '/SAMPLE events:/ {print $3; exit}')
now() { date +%s.%N; }
best() { awk -v a="$1" -v b="$2" 'BEGIN {print (b == "" || a < b) ? a : b}'; }
tf="" tp=""
for _ in $(seq "$RUNS"); do
	t0=$(now)
	"$FLARE" flamegraph -i "$data" -o "$tmp/flare.svg"
	t1=$(now)
	perf script -i "$data" 2>/dev/null | perl "$FG/stackcollapse-perf.pl" |
		perl "$FG/flamegraph.pl" >"$tmp/perl.svg" 2>/dev/null
	t2=$(now)
	tf=$(best "$(awk -v a="$t0" -v b="$t1" 'BEGIN {print b - a}')" "$tf")
	tp=$(best "$(awk -v a="$t1" -v b="$t2" 'BEGIN {print b - a}')" "$tp")
done
geom() { sed -n 's/^<title>\(.*\)<\/title><rect x="\([^"]*\)" y="\([^"]*\)" width="\([^"]*\)" height="\([^"]*\)".*/\1 \2 \3 \4 \5/p' "$1" | LC_ALL=C sort; }
geom "$tmp/flare.svg" >"$tmp/a"
geom "$tmp/perl.svg" >"$tmp/b"
same=$(cmp -s "$tmp/a" "$tmp/b" && echo "same frames" || echo "frames differ in $(diff "$tmp/a" "$tmp/b" | grep -c '^[<>]') lines")
printf 'samples: %s (%s)\n' "$samples" "$(du -h "$data" | cut -f1)"
printf 'flare flamegraph -i perf.data -o flame.svg:                  %8.2f s\n' "$tf"
printf 'perf script | stackcollapse-perf.pl | flamegraph.pl:          %8.2f s\n' "$tp"
printf 'ratio: flare is %.1fx faster (%s: %s)\n' "$(awk -v a="$tp" -v b="$tf" 'BEGIN {print a / b}')" \
	"$(wc -l <"$tmp/a") frames" "$same"
