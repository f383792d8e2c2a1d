#!/usr/bin/env bash
# flare list: every software event and tracepoint perf lists, perf's layout and filters, and
# the events this kernel cannot count marked with why.
source "$ROOT/tests/lib.sh"

$FLARE list >all.txt
check "flare list exits 0" test -s all.txt
sel() { grep -E "\[($1)\]" "$2" | sed 's/ <not supported.*//' | sort; }
if have_perf; then
	perf list 2>/dev/null >perf.txt
	sel 'Software event' perf.txt >p.sw; sel 'Software event' all.txt >f.sw
	check_eq "every software event perf lists, in perf's layout" "" "$(comm -23 p.sw f.sw)"
	sel 'Tracepoint event' perf.txt >p.tp; sel 'Tracepoint event' all.txt >f.tp
	check_eq "every tracepoint perf lists ($(wc -l <p.tp))" "" "$(comm -23 p.tp f.tp | head -5)"
	check_eq "no tracepoint perf does not list" "" "$(comm -13 p.tp f.tp | head -5)"
	check_eq "flare list tracepoint: perf's order" "$(perf list tracepoint 2>/dev/null | grep Tracepoint | md5sum)" \
		"$($FLARE list tracepoint | md5sum)"
	pick() { grep -E '^  [^ ].*\[(Software event|Tool event|Kernel PMU event|Raw hardware event descriptor|Hardware breakpoint|Tracepoint event)\]' "$1" | sed 's/ <not supported.*//'; }
	check_eq "flare list: perf's lines in perf's order, but for the hardware ones" \
		"$(pick perf.txt | md5sum)" "$(pick all.txt | md5sum)"
	sel 'Kernel PMU event' perf.txt >p.pmu; sel 'Kernel PMU event' all.txt >f.pmu
	check_eq "every kernel PMU event perf lists" "" "$(comm -23 p.pmu f.pmu)"
	perf list sw 2>/dev/null | grep -E 'Software event|Tool event' >psw.txt
	$FLARE list sw >fsw.txt
	check_eq "flare list sw: perf's lines (software and tool events) in perf's order" "$(cat psw.txt)" "$(cat fsw.txt)"
	perf list 'sched:*' 2>/dev/null >psched.txt
	$FLARE list 'sched:*' >fsched.txt
	check_eq "flare list 'sched:*' equals perf's" "$(cat psched.txt)" "$(cat fsched.txt)"
	perf list 'syscalls:sys_enter_open*' 2>/dev/null >pso.txt
	$FLARE list 'syscalls:sys_enter_open*' >fso.txt
	check_eq "flare list 'syscalls:sys_enter_open*' equals perf's" "$(cat pso.txt)" "$(cat fso.txt)"
else
	skip "comparison with perf list" "perf is not installed"
fi
check_grep "perf's line layout" '^  context-switches OR cs                             \[Software event\]$' all.txt
check_grep "raw descriptor" '^  rNNN +\[Raw hardware event descriptor\]$' all.txt
check_grep "breakpoint syntax" '^  mem:<addr>\[/len\]\[:access\] +\[Hardware breakpoint\]$' all.txt
check_grep "cache events listed" '^  L1-dcache-load-misses +\[Hardware cache event\]' all.txt
if [ -d /sys/bus/event_source/devices/cpu ]; then
	skip "hardware events marked as not countable" "this machine has a hardware PMU"
else
	check_grep "hardware events marked with the reason" \
		'^  cpu-cycles OR cycles +\[Hardware event\] <not supported here: no hardware PMU: this is a VM guest>$' all.txt
	check_grep "cache events marked too" \
		'^  LLC-loads +\[Hardware cache event\] <not supported here: no hardware PMU' all.txt
fi
check_eq "software events not marked" "" "$(grep 'Software event.*not supported' all.txt)"

$FLARE list hw >hw.txt
check_eq "flare list hw: only hardware events" "" "$(grep -v 'Hardware event' hw.txt)"
check_eq "flare list hw: all 10" 10 "$(wc -l <hw.txt)"
$FLARE list cache >cache.txt
check_eq "flare list cache: 32 combinations" 32 "$(grep -c 'Hardware cache event' cache.txt)"
$FLARE list pmu >pmu.txt
check_grep "flare list pmu" '^  msr/tsc/ +\[Kernel PMU event\]' pmu.txt
$FLARE list tracepoint >tp.txt
check_eq "flare list tracepoint: only tracepoints" "" "$(grep -v 'Tracepoint event' tp.txt | head -3)"
$FLARE list migrat >g.txt
check_grep "bare glob matches names" '^  cpu-migrations OR migrations' g.txt
check_grep "bare glob matches tracepoint names" '^  sched:sched_migrate_task' g.txt
$FLARE list --raw-dump sw >raw.txt
check_grep "--raw-dump: names on one line" '^alignment-faults bpf-output .* task-clock duration_time user_time system_time $' raw.txt
if have_perf; then
	check_eq "--raw-dump sw equals perf's" "$(perf list --raw-dump sw | od -c)" "$(od -c <raw.txt)"
	check_eq "--raw-dump hw cache pmu equals perf's (only what counts here)" \
		"$(perf list --raw-dump hw cache pmu | od -c)" "$($FLARE list --raw-dump hw cache pmu | od -c)"
	# perf's also names the metrics and metric groups of its pmu-events tables for this CPU
	# model (none on some models, 19 names on AMD family 25 model 17): flare lists none, so
	# those are left out of the comparison (the build-id cache's SDT events are compared)
	perf list --raw-dump metric metricgroup | tr ' ' '\n' | grep . | sort -u >pmetric.txt
	perf list --raw-dump | tr ' ' '\n' |
		grep -vxF -f pmetric.txt -e '' >praw.txt
	check_eq "--raw-dump of everything: perf's names but its metrics (shell completion reads them)" \
		"$(cat praw.txt)" "$($FLARE list --raw-dump | tr ' ' '\n' | grep -v '^$')"
	check_eq "--raw-dump metric metricgroup: flare lists none" \
		"" "$($FLARE list --raw-dump metric metricgroup | tr -d ' \n')"
	if [ -s pmetric.txt ]; then
		skip "--raw-dump metrics and metric groups ($(wc -l <pmetric.txt) for this CPU)" \
			"flare has no metrics (perf's pmu-events tables keyed by CPUID)"
	fi
fi
$FLARE list nosuchthing_xyz >none.txt
check_eq "a glob that matches nothing prints nothing" "" "$(cat none.txt)"
# every name flare lists (a sample of each section) can be parsed back by stat -e
for e in cs page-faults L1-dcache-loads msr/tsc/ sched:sched_switch; do
	$FLARE stat -x, -e "$e" -- true 2>ev.csv
	check_grep "listed event '$e' is accepted by stat -e" ",$e," ev.csv
done
$FLARE list --no-desc --details --deprecated -v sw >opts.txt
check_eq "perf's list options are accepted" "$($FLARE list sw)" "$(cat opts.txt)"
