#!/usr/bin/env bash
# bench/srcline.sh [DATA]: source lines of a profile of a large binary with debug info, flare
# (libdw line tables, cached per address) against perf 6.1 (an addr2line subprocess per
# object), side by side in one run: `script -F ip,sym,srcline` (the leaf of each sample and
# every frame of its chain) and `report --sort srcline` (one line per distinct address).
#
# Without DATA the profile is recorded first: perf record -g -F 2999 of flare itself (built
# -O2 -g: about 40k lines of C with DWARF) reading a --call-graph dwarf recording with
# report --stdio, DURATION seconds (default 5) of it.
# Prints the wall and CPU (user + sys) times of each, the ratios, the number of lines each
# printed and how many of those differ. On a loaded machine the CPU times are the steadier
# measure.
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
FLARE=${FLARE:-$ROOT/build/flare}
WL=${WL:-$ROOT/build/workloads}
DURATION=${DURATION:-5}
command -v perf >/dev/null || { echo "bench/srcline.sh: needs Linux perf" >&2; exit 2; }
[ -x "$FLARE" ] || { echo "bench/srcline.sh: no flare at $FLARE (make, or set FLARE)" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "bench/srcline.sh: needs GNU time (apt-get install time)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
data=${1:-}
if [ -z "$data" ]; then
	data=$tmp/prof.data
	echo "recording: perf record --call-graph dwarf -F 999 -- cpu_burn 2 (the input)"
	perf record -q --call-graph dwarf -F 999 -o "$tmp/in.data" -- "$WL/cpu_burn" 2 >/dev/null 2>&1
	echo "recording: perf record -g -F 2999 -- flare report --stdio (loops for ${DURATION} s)"
	perf record -q -g -F 2999 -o "$data" -- sh -c "end=\$((\$(date +%s) + $DURATION));
		while [ \$(date +%s) -lt \$end ]; do
			$FLARE report --stdio -i $tmp/in.data >/dev/null 2>&1
			$FLARE script -i $tmp/in.data >/dev/null 2>&1
		done" >/dev/null 2>&1
fi

# run NAME cmd...: wall seconds of cmd; its CPU time in $tmp/NAME.t
run() {
	local name=$1 t0 t1; shift
	t0=$(date +%s.%N)
	/usr/bin/time -f "%U %S" -o "$tmp/$name.t" "$@" >"$tmp/$name.out" 2>/dev/null || true
	t1=$(date +%s.%N)
	awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }'
}
cpu() { awk 'NF == 2 { printf "%.2f", $1 + $2 }' "$tmp/$1.t"; }
ratio() { awk -v p="$1" -v f="$2" 'BEGIN { if (f > 0) printf "%.1f", p / f; else print "?" }'; }

samples=$(perf report -i "$data" --stats 2>/dev/null | awk '/SAMPLE events:/ {print $3; exit}')
# side NAME ARGS...: flare and perf on the same arguments, one line of results
side() {
	local what=$1 tf tp; shift
	tf=$(run flare "$FLARE" "$@" -i "$data")
	tp=$(run perf perf "$@" -i "$data")
	echo "$samples samples: $what"
	echo "  flare $tf s wall, $(cpu flare) s CPU; perf $tp s wall, $(cpu perf) s CPU"
	echo "  perf/flare wall: $(ratio "$tp" "$tf")x, CPU: $(ratio "$(cpu perf)" "$(cpu flare)")x"
	echo "  lines: flare $(wc -l <"$tmp/flare.out"), perf $(wc -l <"$tmp/perf.out"), differing:" \
		"$(diff "$tmp/perf.out" "$tmp/flare.out" | grep -c '^<' || true)"
}
side "script -F ip,sym,srcline" script -F ip,sym,srcline
side "report --no-children --sort srcline -g none --stdio" report --no-children \
	--sort srcline -g none --stdio
