#!/usr/bin/env bash
# bench/tp-lost.sh [BUILD] [CALLS] [PAGES] [RUNS]: system-wide raw_syscalls:sys_enter under a tight
# getppid loop, with the same ring size (-m PAGES) for flare and perf, side by side in one
# run: how many samples each lost (perf report's "Total Lost Samples" on each file).
# FLARE_OPTS and PERF_OPTS add options to each side (FLARE_OPTS='-r 0': flare's drain at the
# normal priority, as perf's without -r; PERF_OPTS='-r 1': perf's drain at SCHED_FIFO 1).
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
B=${1:-build}
N=${2:-3000000}
M=${3:-128}
R=${4:-3}
FO=${FLARE_OPTS:-}
PO=${PERF_OPTS:-}
FLARE=$ROOT/$B/flare
WL=$ROOT/$B/workloads/getppid_n
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cd "$T"
lost() { perf report --stdio -i "$1" 2>/dev/null | awk '/Total Lost Samples/ { print $NF; exit }'; }
samples() { perf report --stdio -i "$1" --sort comm 2>/dev/null | awk '/^# Samples:/ { print $3; exit }'; }
echo "raw_syscalls:sys_enter -a, getppid_n $N, -m $M, $R runs alternating:"
[ -n "$FO$PO" ] && echo "flare options: '$FO', perf options: '$PO'"
tf=0; tp=0
for i in $(seq "$R"); do
	# shellcheck disable=SC2086
	$FLARE record $FO -q -a -e raw_syscalls:sys_enter -m "$M" -o f.data -- "$WL" "$N" 2>/dev/null
	# shellcheck disable=SC2086
	perf record $PO -q -a -e raw_syscalls:sys_enter -m "$M" -o p.data -- "$WL" "$N" 2>/dev/null
	fl=$(lost f.data); pl=$(lost p.data)
	echo "run $i: flare lost ${fl:-?} of $(samples f.data) samples, perf lost ${pl:-?} of $(samples p.data)"
	tf=$((tf + ${fl:-0})); tp=$((tp + ${pl:-0}))
done
echo "total lost: flare $tf, perf $tp"
awk -v f="$tf" -v p="$tp" 'BEGIN { if (p > 0) printf "lost ratio flare/perf: %.4f\n", f / p; else print "perf lost nothing" }'
