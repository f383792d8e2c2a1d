#!/usr/bin/env bash
# flare ftrace reads the kernel's raw per-CPU buffers (trace_pipe_raw): whole lines as the
# kernel's own trace file writes them (task-pid, cpu, flags, time, syscall arguments and
# returns), the same lines from 'record' then 'report', and every event accounted for when
# the buffer overflows: those shown plus those the kernel says it lost make what the
# workload did.
source "$ROOT/tests/lib.sh"

T=/sys/kernel/tracing
if [ ! -d $T/events/syscalls/sys_enter_openat ] || [ ! -d $T/instances ]; then
	skip "flare ftrace raw buffers" "no tracefs with syscall events and instances on this kernel"
	exit 0
fi
GP=$WL/getppid_n
EVS="-e syscalls:sys_enter_openat -e syscalls:sys_exit_openat -e sched:sched_process_exec"

# whole lines with only what differs between two runs masked: the pid (and the width it
# takes), the cpu, the flags (a need-resched comes when it comes), the time, the file name
# pointers (ASLR)
mask() {
	sed -E 's/^( *[^ ]+)-[0-9]+ +\[[0-9]+\] [.dDb][.nNlLbBp][.hHsZz][.0-9a-f][.0-9a-f] +[0-9]+\.[0-9]{6}: /\1-PID [CPU] FLAGS TS: /;
		s/filename: 0x[0-9a-f]+/filename: PTR/; s/pid=[0-9]+/pid=P/g' "$@"
}

# the kernel's own trace file of the same workload, in an instance of the test's own
ref=$T/instances/ftrace_raw_test_$$
if mkdir $ref 2>/dev/null; then
	e=$ref/events
	sh -c "echo 0 >$ref/tracing_on; echo \$\$ >$ref/set_event_pid;
		echo 1 >$e/syscalls/sys_enter_openat/enable; echo 1 >$e/syscalls/sys_exit_openat/enable;
		echo 1 >$e/sched/sched_process_exec/enable; echo 1 >$ref/tracing_on;
		exec cat /dev/null"
	grep -v '^#' $ref/trace | mask >ref.txt
	rmdir $ref
	# shellcheck disable=SC2086
	$FLARE ftrace $EVS -- cat /dev/null >s.txt 2>s.err
	check_eq "stream: exit 0" 0 $?
	mask s.txt >ours.txt
	check_grep "stream: an openat with its arguments" '^ +cat-PID \[CPU\] FLAGS TS: sys_openat\(dfd: 0xffffff9c, filename: PTR, flags: 0x80000, mode: 0\)$' ours.txt
	check_grep "stream: a return value" '^ +cat-PID \[CPU\] FLAGS TS: sys_openat -> 0x3$' ours.txt
	if cmp -s ref.txt ours.txt; then pass "stream: whole lines as the kernel's trace file"; else
		fail "stream: whole lines as the kernel's trace file" "$(diff ref.txt ours.txt | head -5 | tr '\n' ' ')"; fi
	# shellcheck disable=SC2086
	$FLARE ftrace record -o rec.ftrace $EVS -- cat /dev/null 2>r.err
	check_eq "record: exit 0" 0 $?
	$FLARE ftrace report -i rec.ftrace >rep.txt 2>rep.err
	check_eq "report: exit 0" 0 $?
	mask rep.txt >rep-m.txt
	if cmp -s ref.txt rep-m.txt; then pass "report: whole lines as the kernel's trace file"; else
		fail "report: whole lines as the kernel's trace file" "$(diff ref.txt rep-m.txt | head -5 | tr '\n' ' ')"; fi
else
	skip "stream: whole lines as the kernel's trace file" "cannot make a tracefs instance"
fi

# a buffer far too small for the burst: what is shown plus what the kernel lost is all of it
N=200000
$FLARE ftrace -m 8K -e syscalls:sys_enter_getppid -- "$GP" $N >l.txt 2>l.err
check_eq "overflow: exit 0" 0 $?
shown=$(grep -c ': sys_getppid()$' l.txt)
lost=$(sed -n 's/.*warning: \([0-9]*\) events lost.*/\1/p' l.err)
check_eq "overflow: shown ($shown) + lost (${lost:-none said}) = the $N calls" $N $((shown + ${lost:-0}))
if [ "${lost:-0}" -gt 0 ]; then
	check_grep "overflow: the stream marks where events were lost" '^CPU:[0-9]+ \[LOST( [0-9]+)? EVENTS\]$' l.txt
fi
$FLARE ftrace record -m 8K -o l.ftrace -e syscalls:sys_enter_getppid -- "$GP" $N >/dev/null 2>lr.err
check_eq "overflow, recorded: exit 0" 0 $?
$FLARE ftrace report -i l.ftrace >lrep.txt 2>lrep.err
shown=$(grep -c ': sys_getppid()$' lrep.txt)
lost=$(sed -n 's/.*warning: \([0-9]*\) events lost.*/\1/p' lrep.err)
check_eq "overflow, reported: shown ($shown) + lost (${lost:-none said}) = the $N calls" $N $((shown + ${lost:-0}))

# bad input: a recording cut short, a file of something else
head -c 3000 l.ftrace >cut.ftrace
check_fails "report: a cut recording is refused" $FLARE ftrace report -i cut.ftrace
check_grep "report: says which file and why" "'cut.ftrace' is not a file of 'flare ftrace record'" "$TMP/out"
check_fails "report: a text file is refused" $FLARE ftrace report -i l.txt
