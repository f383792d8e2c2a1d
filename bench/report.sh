#!/usr/bin/env bash
# bench/report.sh [FLARE] [DATA]: flare against perf on one large system-wide recording with
# call graphs, side by side in one run:
#   report --stdio (children), report --stdio --no-children: flare and perf report
#   flamegraph -i DATA -o SVG: flare (against the 0.25 s target; bench/flamegraph.sh has the
#   Perl pipeline beside it)
# For each: wall time, CPU time (user + system) and peak RSS from /usr/bin/time, then
# perf/flare for wall and CPU and flare/perf for the peak RSS. Output goes to /dev/null (the
# SVG to a temporary file). flare's numbers are the best of RUNS (default 3), perf's of one
# run (it takes tens of seconds); one flare report before all warms the page cache (the file
# and the binaries whose symbols both read).
#
# Without DATA the recording is /var/tmp/flare-bench/report-ag.data, made when missing:
# perf record -a -g -F 4999 for 130 s while both CPUs run varied work (make -j2 of a scratch
# copy of flare, the demo's cpu_burn and mt_burn, shell loops and sort/gzip pipelines):
# about 1.3M samples, 140 MB. The machine's load average is printed: the other processes on
# it stretch every time, and flare's two threads most.
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
FLARE=${1:-$ROOT/build/flare}
DATA=${2:-/var/tmp/flare-bench/report-ag.data}
RUNS=${RUNS:-3}
SECS=${SECS:-130}
export LC_ALL=C

command -v perf >/dev/null || { echo "bench/report.sh: needs Linux perf" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "bench/report.sh: needs /usr/bin/time (apt-get install time)" >&2; exit 2; }
[ -x "$FLARE" ] || { echo "bench/report.sh: no flare at $FLARE (run make)" >&2; exit 2; }

tmp=$(mktemp -d)
trap '[ -z "${work_pid:-}" ] || kill -- -"$work_pid" 2>/dev/null; rm -rf "$tmp"' EXIT

# The recording: system-wide, both CPUs busy with work of many processes and deep stacks. The
# work runs in a process group of its own, ended when the recording ends.
work_pid=""
record() {
	local work=$tmp/src

	mkdir -p "$(dirname "$DATA")" "$work"
	cp -r "$ROOT/lib" "$ROOT/cli" "$ROOT/tests" "$ROOT/bpf" "$ROOT/Makefile" "$ROOT/VERSION" "$work/"
	[ -x "$ROOT/build/workloads/cpu_burn" ] || make -C "$ROOT" -s build/workloads/cpu_burn \
		build/workloads/mt_burn >/dev/null
	WORK=$work ROOT=$ROOT setsid bash -c '
		(while :; do make -C "$WORK" -s -j2 build/flare; rm -rf "$WORK/build"; done) &
		(while :; do "$ROOT/build/workloads/cpu_burn" 2; "$ROOT/build/workloads/mt_burn" 1; done) &
		(while :; do
			i=0
			while [ $i -lt 20000 ]; do i=$((i + 1)); done
			seq 1 200000 | sort -r | gzip -c | wc -c
		done) &
		wait' >/dev/null 2>&1 &
	work_pid=$!
	echo "recording $DATA: perf record -a -g -F 4999 -- sleep $SECS (make -j2, cpu_burn, mt_burn, shell loops)"
	perf record -q -a -g -F 4999 -o "$DATA" -- sleep "$SECS" >/dev/null 2>&1 || true
	kill -- -"$work_pid" 2>/dev/null || true
	wait "$work_pid" 2>/dev/null || true
	work_pid=""
	rm -rf "$work"
	[ -s "$DATA" ] || { echo "bench/report.sh: perf record made no $DATA" >&2; exit 1; }
}
[ -s "$DATA" ] || record

n=$(perf report -i "$DATA" --stats 2>/dev/null | awk '/SAMPLE events:/ {print $3; exit}')
echo "recording: $DATA ($(du -h "$DATA" | cut -f1), $n samples, call graphs)"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"

# measure RUNS CMD...: the best run by wall time, as "wall cpu rss_kb"
measure() {
	local runs=$1 best="" line
	shift
	for _ in $(seq "$runs"); do
		/usr/bin/time -f '%e %U %S %M' -o "$tmp/t" "$@" >/dev/null 2>&1 || true
		line=$(awk '{printf "%.3f %.3f %d\n", $1, $2 + $3, $4}' "$tmp/t" | tail -1)
		if [ -z "$best" ] || awk -v a="$line" -v b="$best" \
			'BEGIN {split(a, x); split(b, y); exit !(x[1] < y[1])}'; then
			best=$line
		fi
	done
	echo "$best"
}

row() {	# row LABEL "wall cpu rss"
	read -r w c m <<<"$2"
	printf '  %-36s %8.2f %8.2f %10.1f\n' "$1" "$w" "$c" "$(echo "$m / 1024" | bc -l)"
}

ratio() {	# ratio LABEL "perf" "flare"
	read -r pw pc pm <<<"$2"
	read -r fw fc fm <<<"$3"
	awk -v l="$1" -v pw="$pw" -v pc="$pc" -v pm="$pm" -v fw="$fw" -v fc="$fc" -v fm="$fm" \
		'BEGIN {printf "  %-36s wall %.1fx, CPU %.1fx faster; peak RSS %.2f of perf'"'"'s" \
			" (targets: 10x, 0.25, %.2f s <= 0.25 s)\n", l, pw / fw, pc / fc, fm / pm, fw}'
}

"$FLARE" report --stdio -i "$DATA" >/dev/null 2>&1 || true
printf '  %-36s %8s %8s %10s\n' "" "wall (s)" "CPU (s)" "RSS (MB)"
for mode in "" "--no-children"; do
	p=$(measure 1 perf report --stdio $mode -i "$DATA")
	f=$(measure "$RUNS" "$FLARE" report --stdio $mode -i "$DATA")
	row "perf report --stdio $mode" "$p"
	row "flare report --stdio $mode" "$f"
	ratio "report --stdio ${mode:-(children)}:" "$p" "$f"
done
g=$(measure "$RUNS" "$FLARE" flamegraph -i "$DATA" -o "$tmp/flame.svg")
row "flare flamegraph -i -o flame.svg" "$g"
echo "  flamegraph -i: $(awk '{printf "%.2f s wall (target <= 0.25 s)", $1}' <<<"$g")"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
