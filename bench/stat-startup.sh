#!/usr/bin/env bash
# bench/stat-startup.sh [BUILD_DIR] [RUNS]: start-up cost of `flare stat -- true` against
# `perf stat -- true`, run alternately in one session. Prints each mean and the ratio
# flare/perf (below 1.0: flare is faster). Output of both goes to /dev/null.
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
FLARE=$ROOT/${1:-build}/flare
RUNS=${2:-200}
command -v perf >/dev/null || { echo "perf is not installed" >&2; exit 1; }
[ -x "$FLARE" ] || { echo "no $FLARE (run make first)" >&2; exit 1; }
cd "$(mktemp -d)"

# one timed batch of n runs of a command; prints nanoseconds per run
batch() {
	local n=$1 t0 t1 i; shift
	t0=$(date +%s%N)
	for ((i = 0; i < n; i++)); do "$@" >/dev/null 2>&1; done
	t1=$(date +%s%N)
	echo $(( (t1 - t0) / n ))
}

batch 10 "$FLARE" stat -- true >/dev/null # warm the page cache
batch 10 perf stat -- true >/dev/null
f=0 p=0 rounds=10
for ((r = 0; r < rounds; r++)); do
	f=$(( f + $(batch $(( RUNS / rounds )) "$FLARE" stat -- true) ))
	p=$(( p + $(batch $(( RUNS / rounds )) perf stat -- true) ))
done
awk -v f="$f" -v p="$p" -v r="$rounds" -v n="$RUNS" 'BEGIN {
	printf "flare stat -- true: %.3f ms per run (%d runs)\n", f / r / 1e6, n
	printf "perf stat -- true:  %.3f ms per run (%d runs)\n", p / r / 1e6, n
	printf "ratio flare/perf: %.3f\n", f / p
}'
