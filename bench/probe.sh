#!/usr/bin/env bash
# bench/probe.sh [RUNS]: flare probe against perf probe on the same definitions, side by side
# (no tracefs writes: -D, -F, -V, -L only; lazy patterns and -L ranges too). For each command prints both wall times (best of
# RUNS, default 3) and the ratio, and checks that both printed the same.
# FLARE (default build/flare) and WL (default build/workloads) locate flare's build.
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
FLARE=${FLARE:-$ROOT/build/flare}
WL=${WL:-$ROOT/build/workloads}
RUNS=${1:-3}
LIBC=$(realpath /lib/x86_64-linux-gnu/libc.so.6)
command -v perf >/dev/null || { echo "bench/probe.sh: needs Linux perf" >&2; exit 2; }
[ -x "$FLARE" ] || { echo "bench/probe.sh: no flare at $FLARE (make, or set FLARE)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
now() { date +%s.%N; }
best() { awk -v a="$1" -v b="$2" 'BEGIN {print (b == "" || a < b) ? a : b}'; }
run() {	# label args...
	local label=$1 tf="" tp="" t0 t1 _
	shift
	for _ in $(seq "$RUNS"); do
		t0=$(now); "$FLARE" probe "$@" >"$tmp/f" 2>&1 || true; t1=$(now)
		tf=$(best "$(awk -v a="$t0" -v b="$t1" 'BEGIN {print b - a}')" "$tf")
		t0=$(now); perf probe "$@" >"$tmp/p" 2>&1 || true; t1=$(now)
		tp=$(best "$(awk -v a="$t0" -v b="$t1" 'BEGIN {print b - a}')" "$tp")
	done
	same=same
	cmp -s "$tmp/f" "$tmp/p" || same=DIFFERENT
	awk -v l="$label" -v f="$tf" -v p="$tp" -v s="$same" \
		'BEGIN {printf "%-44s flare %.3f s  perf %.3f s  ratio %.2f  output %s\n", l, f, p, f / p, s}'
}
run "-x probe_target -D 'func_2 number p->x'" -x "$WL/probe_target" -D 'func_2 number p->x'
run "-x probe_target -L main" -x "$WL/probe_target" -L main
run "-x libc -D malloc (libc6-dbg DWARF)" -x "$LIBC" -D malloc
run "-x libc -D inet_pton" -x "$LIBC" -D inet_pton
run "-x libc -F" -x "$LIBC" -F
run "-x probe_target -D 'probe_target.c;*' (lazy)" -x "$WL/probe_target" -D 'probe_target.c;*'
run "-x probe_target -V 'main;total*' (lazy)" -x "$WL/probe_target" -V 'main;total*'
run "-x probe_target -L probe_target.c (file)" -x "$WL/probe_target" -L probe_target.c
run "-x probe_target -L 'func_2:2-5' (range)" -x "$WL/probe_target" -L 'func_2:2-5'
