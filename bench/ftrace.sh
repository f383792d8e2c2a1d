#!/usr/bin/env bash
# bench/ftrace.sh [SECONDS] [RUNS] [BUILD]: event tracing under a syscall storm on both CPUs,
# flare against trace-cmd, side by side in one run, alternating:
#   flare ftrace record -o f.ftrace -e sched:sched_switch -e raw_syscalls:sys_enter -a
#   trace-cmd record -d --no-filter -B bench_tc_PID -o t.dat -e sched:sched_switch -e raw_syscalls:sys_enter
# Each tracer runs SECONDS (default 5) and is stopped with SIGINT; the storm is getppid_n
# pinned to each CPU. Both use an instance with the kernel's default buffer size. Prints, per
# run, the events each lost (the kernel's per-CPU overrun counts, as each tool reports them),
# the events each wrote, and the CPU time (user+sys) of the tracer and its children.
# trace-cmd 3.1.6 needs -d and --no-filter here: without -d it writes 1 to
# /proc/sys/kernel/ftrace_enabled, which this kernel refuses (EPERM: "Can't enable ftrace");
# without --no-filter it reads set_ftrace_pid, refused too, and crashes on the NULL it gets.
# With both it records, then fails resetting set_ftrace_filter (EPERM, exit 1) and leaves
# its instance, which this script removes.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
D=${1:-5}
R=${2:-3}
B=${3:-build}
FLARE=$ROOT/$B/flare
WL=$ROOT/$B/workloads/getppid_n
command -v trace-cmd >/dev/null || { echo "bench/ftrace.sh: needs trace-cmd (apt-get install trace-cmd)" >&2; exit 2; }
[ -x "$FLARE" ] || { echo "bench/ftrace.sh: no flare at $FLARE (make)" >&2; exit 2; }
T=$(mktemp -d)
inst=bench_tc_$$
cleanup() {
	[ -n "${storm:-}" ] && kill $storm 2>/dev/null
	[ -d /sys/kernel/tracing/instances/$inst ] && rmdir /sys/kernel/tracing/instances/$inst
	rm -rf "$T"
}
# trace-cmd leaves its instance when it fails: remove it (ours, by its name) before each run
rm_inst() { [ -d /sys/kernel/tracing/instances/$inst ] && rmdir /sys/kernel/tracing/instances/$inst; }
trap cleanup EXIT
cd "$T"
ncpu=$(nproc)
start_storm() {
	storm=""
	for c in $(seq 0 $((ncpu - 1))); do
		taskset -c "$c" "$WL" 2000000000 & storm="$storm $!"
	done
}
stop_storm() { kill $storm 2>/dev/null; wait $storm 2>/dev/null; storm=""; }
# cputime CMD...: runs CMD in a session of its own for D seconds, then SIGINT to the session
# (SIGKILL 5 s later if it still runs: trace-cmd's recorders can hang); prints the "user+sys"
# seconds of it and its children; its output in out.txt
cputime() {
	bash -c 'setsid "$@" >out.txt 2>&1 & p=$!; sleep '"$D"'; kill -INT -- -$p 2>/dev/null;
		(sleep 5; kill -KILL -- -$p 2>/dev/null) & k=$!; wait $p; kill $k 2>/dev/null; times' _ "$@" |
		awk 'NR == 2 { split($1, u, "m"); split($2, s, "m"); sub("s", "", u[2]); sub("s", "", s[2]);
			printf "%.2f", u[1] * 60 + u[2] + s[1] * 60 + s[2] }'
}
echo "sched:sched_switch + raw_syscalls:sys_enter -a, getppid storm on $ncpu CPUs, ${D} s, $R runs:"
for i in $(seq "$R"); do
	start_storm
	fc=$(cputime "$FLARE" ftrace record -o f.ftrace -e sched:sched_switch -e raw_syscalls:sys_enter -a)
	fl=$(sed -n 's/.*warning: \([0-9]*\) events lost.*/\1/p' out.txt)
	fe=$("$FLARE" ftrace report -i f.ftrace --stats 2>/dev/null | awk '{ s += $1 } END { print s + 0 }')
	tc=$(cputime trace-cmd record -d --no-filter -B $inst -o t.dat -e sched:sched_switch -e raw_syscalls:sys_enter)
	stop_storm
	rm_inst
	if grep -q "Can't enable ftrace" out.txt; then
		tcs="trace-cmd refused: $(tr '\n' ' ' <out.txt | head -c 100)"
	else
		tl=$(trace-cmd report --stat -i t.dat 2>/dev/null | awk '/^overrun:|^dropped events:/ { s += $NF } END { print s + 0 }')
		te=$(trace-cmd report -i t.dat 2>/dev/null | grep -c -E 'sys_enter|sched_switch')
		tcs="trace-cmd lost $tl, wrote $te events"
	fi
	echo "run $i: flare lost ${fl:-0}, wrote $fe events, cpu ${fc} s; $tcs, cpu ${tc} s"
done
