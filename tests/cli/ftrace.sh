#!/usr/bin/env bash
# flare ftrace: events streamed and recorded from flare's own tracefs instance (exact counts,
# lines as the kernel's own trace file formats them), filters and triggers, the knobs, the
# function tracer paths up to the kernel's refusal, and tracefs left exactly as found after
# every command and every way of ending (normal, Ctrl-C, SIGTERM, failure halfway, SIGKILL
# followed by the next flare command).
source "$ROOT/tests/lib.sh"

T=/sys/kernel/tracing
if [ ! -d $T/events/syscalls/sys_enter_getppid ] || [ ! -d $T/instances ]; then
	skip "flare ftrace" "no tracefs with syscall events and instances on this kernel"
	exit 0
fi
GP=$WL/getppid_n

# What a flare ftrace could touch, outside its own instance: the top-level files, the
# events of the systems these tests use, the flare instances, flare's uprobes (groups
# flare*; other users' probe groups and instances are theirs, left out).
tfs_snap() {
	local f e
	for f in current_tracer tracing_on trace_clock buffer_size_kb tracing_cpumask tracing_thresh \
		set_event_pid set_event_notrace_pid set_ftrace_filter set_ftrace_notrace set_ftrace_pid \
		max_graph_depth options/copy_trace_marker options/event-fork options/stacktrace; do
		[ -e $T/$f ] || continue
		echo "$f: $(cat $T/$f 2>&1 | tr '\n' ' ')"
	done
	grep -E '^(sched|syscalls|raw_syscalls|ftrace):' $T/set_event 2>&1
	for e in $T/events/sched/*/ $T/events/syscalls/sys_*_getppid/ $T/events/raw_syscalls/*/; do
		echo "$e $(cat $e/enable) $(cat $e/filter | tr '\n' ' ') $(grep -v '^#' $e/trigger | tr '\n' ' ')"
	done
	ls $T/instances | grep -E '^flare_[0-9]+$'
	grep -E '^[a-z]:flare' $T/uprobe_events 2>/dev/null
	ls /run/flare 2>/dev/null
}
tfs_snap >before.txt
# same "what": the tracefs state after it is the one before it
same_state() {
	tfs_snap >after.txt
	if cmp -s before.txt after.txt; then
		pass "$1: tracefs left as found"
	else
		fail "$1: tracefs left as found" "$(diff before.txt after.txt | head -8 | tr '\n' ' ')"
		tfs_snap >before.txt
	fi
}
# waits until the flare ftrace of pid traces: its instance has events enabled (set after
# tracing_on went to 0; a new instance starts at 1) and tracing_on back at 1
wait_tracing() {
	local i d=$T/instances/flare_$1
	for i in $(seq 100); do
		grep -q . $d/set_event 2>/dev/null && [ "$(cat $d/tracing_on 2>/dev/null)" = 1 ] && return 0
		sleep 0.05
	done
	return 1
}
# the lines of a trace without the task-pid, cpu, flags and timestamp columns, pids masked
norm() { sed -E 's/^ *.+-[0-9]+ +\[[0-9]+\] [^ ]+ +[0-9.]+: //; s/pid=[0-9]+/pid=P/g' "$@"; }

# --- a workload with known events, streamed ---
$FLARE ftrace -e syscalls:sys_enter_getppid -e sched:sched_process_exec -- "$GP" 7 >s.txt 2>s.err
check_eq "stream: exit 0" 0 $?
check_eq "stream: exactly 7 sys_enter_getppid" 7 "$(grep -c ': sys_getppid()$' s.txt)"
check_eq "stream: exactly 1 sched_process_exec, the workload's" 1 "$(grep -c "sched_process_exec: filename=$GP pid=" s.txt)"
check_eq "stream: nothing else" 8 "$(wc -l <s.txt)"
same_state "stream"

# the same workload in an instance of the test's own: the kernel's own trace file
ref=$T/instances/ftrace_test_$$
if mkdir $ref 2>/dev/null; then
	e=$ref/events
	sh -c "echo \$\$ >$ref/set_event_pid; echo 1 >$e/syscalls/sys_enter_getppid/enable;
		echo 1 >$e/sched/sched_process_exec/enable; exec $GP 7"
	grep -v '^#' $ref/trace | norm >ref.txt
	rmdir $ref
	norm s.txt >ours.txt
	if cmp -s ref.txt ours.txt; then pass "stream: lines formatted as the kernel's trace file"; else
		fail "stream: lines formatted as the kernel's trace file" "$(diff ref.txt ours.txt | head -5 | tr '\n' ' ')"; fi
else
	skip "stream: lines formatted as the kernel's trace file" "cannot make a tracefs instance"
fi

# N execs of children (--inherit) and a trace_marker write by the workload
$FLARE ftrace --inherit -e sched:sched_process_exec -- sh -c \
	"/bin/true; /bin/true; /bin/true; echo flare-ftrace-mark-$$ >$T/trace_marker" >x.txt 2>x.err
check_eq "--inherit: the 3 execs of the children" 3 "$(grep -c 'sched_process_exec: filename=/bin/true' x.txt)"
check_grep "marker: the workload's trace_marker line is in the stream" "tracing_mark_write: flare-ftrace-mark-$$\$" x.txt
same_state "--inherit"

# --- recorded, then reported ---
$FLARE ftrace record -o rec.ftrace -e syscalls:sys_enter_getppid -- "$GP" 5 >r.out 2>r.err
check_eq "record: exit 0" 0 $?
$FLARE ftrace report -i rec.ftrace >rep.txt 2>rep.err
check_eq "report: exactly the 5 recorded sys_enter_getppid" 5 "$(grep -c ': sys_getppid()$' rep.txt)"
check_eq "report: nothing else" 5 "$(wc -l <rep.txt)"
$FLARE ftrace report -i rec.ftrace --stats >st.txt
check_grep "report --stats counts by the name the lines show" '^ +5  sys_getppid$' st.txt
check_fails "report: a file not of flare ftrace record is refused" $FLARE ftrace report -i s.txt
same_state "record"

# --- filters and triggers ---
$FLARE ftrace --inherit -e sched:sched_process_exec --filter 'filename ~ "*true"' -- sh -c \
	'/bin/true; /bin/true; /bin/ls >/dev/null' >f.txt 2>f.err
check_eq "--filter: only the 2 matching execs" 2 "$(grep -c sched_process_exec f.txt)"
same_state "--filter"
$FLARE ftrace -e syscalls:sys_enter_getppid --trigger traceoff -e sched:sched_process_exec -- "$GP" 5 >to.txt 2>to.err
n=$(grep -c ': sys_getppid()$' to.txt)
[ "$n" -le 1 ] && pass "traceoff: the buffer stops at the first hit ($n of 5 recorded)" ||
	fail "traceoff: the buffer stops at the first hit" "$n of 5 sys_getppid recorded"
check_eq "traceoff: what came before is kept" 1 "$(grep -c sched_process_exec to.txt)"
same_state "traceoff"
$FLARE ftrace -e syscalls:sys_enter_getppid --trigger stacktrace -- "$GP" 2 >stk.txt 2>stk.err
check_eq "stacktrace trigger: one stack per hit" 2 "$(grep -c '<stack trace>' stk.txt)"
check_grep "stacktrace trigger: kernel frames" '^ => ' stk.txt
same_state "stacktrace trigger"
if grep -q snapshot $T/events/syscalls/sys_enter_getppid/trigger; then
	$FLARE ftrace -e syscalls:sys_enter_getppid --trigger snapshot:1 -- "$GP" 3 >sn.txt 2>sn.err
	check_eq "snapshot trigger: exit 0" 0 $?
else
	check_fails "snapshot trigger: refused (this kernel offers no snapshot trigger)" \
		$FLARE ftrace -e syscalls:sys_enter_getppid --trigger snapshot -- "$GP" 3
	check_grep "snapshot trigger: says what the kernel offers" "no 'snapshot' trigger .*offers: .*traceoff" "$TMP/out"
	check_fails "snapshot take: refused (no snapshot buffer here)" $FLARE ftrace snapshot take
	check_grep "snapshot take: says why" 'no snapshot buffer' "$TMP/out"
fi
same_state "snapshot"

# --- knobs ---
$FLARE ftrace --clock counter -e syscalls:sys_enter_getppid -- "$GP" 2 >c.txt 2>c.err
check_eq "--clock counter: integer timestamps" 2 "$(grep -cE '\] [^ ]+ +[0-9]+: sys_getppid' c.txt)"
check_fails "--clock: a clock this kernel does not list is refused" \
	$FLARE ftrace --clock no-such-clock -e syscalls:sys_enter_getppid -- "$GP" 1
check_grep "--clock: the error names the clock" "no-such-clock" "$TMP/out"
$FLARE ftrace -C 0 -a -m 1M -e sched:sched_process_exec >cpu.txt 2>cpu.err &
pid=$!
if wait_tracing $pid; then
	# the kernel rounds up to whole sub-buffers
	within "-m 1M: the instance's buffer_size_kb" 1024 "$(cat $T/instances/flare_$pid/buffer_size_kb)" 64
	check_eq "-C 0: the instance's tracing_cpumask" 1 "$(cat $T/instances/flare_$pid/tracing_cpumask)"
	$FLARE ftrace show >show.txt 2>&1
	check_grep "show: lists the running trace's instance" "^  flare_$pid +tracer nop, tracing_on 1" show.txt
	taskset -c 0 $FLARE ftrace marker "flare-marker-$$"
	taskset -c 0 "$GP" 3
	taskset -c 1 "$GP" 3 2>/dev/null
else
	fail "-m/-C: the trace starts" "$(cat cpu.err)"
fi
kill -INT $pid
wait $pid
check_eq "Ctrl-C: exit 0" 0 $?
check_eq "-C 0: only cpu 0" "" "$(grep -v '^#' cpu.txt | grep -vE '\[000\]' | head -3)"
check_grep "marker: 'flare ftrace marker' shows in the stream" "flare-marker-$$\$" cpu.txt
check_grep "-a -C 0: an exec on cpu 0 is traced" "sched_process_exec: filename=$GP" cpu.txt
same_state "Ctrl-C (-a -C -m)"

# -p: only that process; --stacktrace: a stack after each event
"$GP" 2000000000 &
gp=$!
$FLARE ftrace -p $gp --stacktrace -e syscalls:sys_enter_getppid >p.txt 2>p.err &
pid=$!
wait_tracing $pid
sleep 0.2
kill -INT $pid
wait $pid
kill $gp
wait $gp 2>/dev/null
# lines are COMM-PID: the kernel's comm cache may name the pid <...> or as before its exec
check_eq "-p: only the process asked for" "" "$(grep 'sys_getppid()' p.txt | grep -vE -- "-$gp +\[[0-9]+\]" | head -2)"
check_grep "-p: its events are there" "getppid_n-$gp .*sys_getppid\(\)" p.txt
check_grep "--stacktrace: a stack after the events" '<stack trace>' p.txt
same_state "-p --stacktrace"

# --- other ways of ending ---
$FLARE ftrace -a -e sched:sched_switch --tracing-thresh 5 >/dev/null 2>term.err &
pid=$!
wait_tracing $pid && check_eq "--tracing-thresh: set at top level while running" 5 "$(cat $T/tracing_thresh)"
kill -TERM $pid
wait $pid
check_eq "SIGTERM: exit 0" 0 $?
same_state "SIGTERM"
check_fails "failure halfway (a filter the kernel rejects): exits non-zero" \
	$FLARE ftrace --tracing-thresh 5 -e syscalls:sys_enter_getppid --filter 'no_such_field == 1' -- "$GP" 1
check_grep "failure halfway: one line saying what" 'cannot set the filter of syscalls:sys_enter_getppid' "$TMP/out"
same_state "failure halfway"
check_fails "a missing program: exits non-zero" $FLARE ftrace -e sched:sched_process_exec -- /no/such/program
check_grep "a missing program: named" "cannot run '/no/such/program'" "$TMP/out"
same_state "a missing program"
check_fails "an unknown event is refused" $FLARE ftrace -e no_such_sys:nothing -- "$GP" 1
same_state "unknown event"
$FLARE ftrace -a -e sched:sched_switch --tracing-thresh 9 >/dev/null 2>kill.err &
pid=$!
wait_tracing $pid
kill -KILL $pid
wait $pid 2>/dev/null
check_eq "SIGKILL: the instance is still there" "flare_$pid" "$(ls $T/instances | grep -x flare_$pid)"
$FLARE list tracepoint >/dev/null 2>next.err
check_grep "SIGKILL: the next flare command puts tracefs back and says so" \
	"tracefs put back as flare \(pid $pid, killed\) had found it: removed instance flare_$pid, put back tracing_thresh" next.err
same_state "SIGKILL, then the next flare command"

# --- the function tracers: up to the kernel's refusal, or the output's shape ---
inst=$T/instances/ftrace_test_fn_$$
fn_ok=0
if mkdir $inst 2>/dev/null; then
	echo function >$inst/current_tracer 2>/dev/null && fn_ok=1
	echo nop >$inst/current_tracer 2>/dev/null
	rmdir $inst
fi
if [ $fn_ok = 1 ]; then
	$FLARE ftrace -t function -T 'vfs_read' -- cat /etc/hostname >fn.txt 2>fn.err
	check_grep "-t function: function lines" ' vfs_read <-' fn.txt
	same_state "-t function"
else
	for args in "-t function" "-t function_graph" "" "-T vfs_read" "-G vfs_read -a" "-F" "latency -T vfs_read"; do
		# shellcheck disable=SC2086
		check_fails "'flare ftrace $args': refused (the kernel refuses the function tracer here)" \
			$FLARE ftrace $args -- "$GP" 1
		check_eq "'flare ftrace $args': one line" 1 "$(wc -l <"$TMP/out")"
		check_grep "'flare ftrace $args': says why and what works" \
			'(refuses the function tracer here|has no function.* tracer).*what works here: events' "$TMP/out"
		same_state "'flare ftrace $args'"
	done
fi
rm -f rec.ftrace
