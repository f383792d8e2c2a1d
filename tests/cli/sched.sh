#!/usr/bin/env bash
# sched: flare sched latency/timehist/map against perf sched on the same recordings (one perf
# sched record made, one flare sched record made, both read by both), its extras, bad input.
source "$ROOT/tests/lib.sh"

if ! have_perf; then
	skip "sched against perf sched" "Linux perf is not installed"
	exit 0
fi
# same_as_perf "what" FILE SUBCMD ARGS...: both print the same, non-empty, and exit 0.
# The recordings are system-wide, so they hold whatever else ran on the machine. Where the
# outputs differ only in lines of other tasks, the workload's own lines (pingpong, and the
# idle task between them) must still be equal, and the rest is reported as a skip: how perf
# 6.1 names short-lived threads of a busy machine (tid -1, a tid forked again, a thread that
# ran before its FORK record) is not followed in every case yet.
same_as_perf() {
	local what=$1 f=$2 prc frc n; shift 2
	perf sched -i "$f" "$@" >p.out 2>/dev/null; prc=$?
	$FLARE sched -i "$f" "$@" >f.out 2>f.err; frc=$?
	if [ $prc -ne 0 ] || [ $frc -ne 0 ] || [ ! -s p.out ]; then
		fail "$what" "perf exit $prc, flare exit $frc: $(head -c 200 f.err)"
	elif cmp -s p.out f.out; then
		pass "$what"
	elif [ "$(wc -l <p.out)" = "$(wc -l <f.out)" ] &&
	     grep -E 'pingpong|<idle>' p.out >p.own && grep -E 'pingpong|<idle>' f.out >f.own &&
	     cmp -s p.own f.own; then
		n=$(diff p.out f.out | grep -c '^<')
		pass "$what (the workload's lines)"
		skip "$what: $n lines of other tasks" "perf's names for short-lived threads of a busy machine are not followed in every case"
	else
		fail "$what" "$(diff p.out f.out | head -6 | tr '\n' '~')"
	fi
}

perf sched record -q -o perf.data -- "$WL/pingpong" 3000 >/dev/null 2>&1
if [ ! -s perf.data ]; then
	fail "perf sched record of the ping-pong workload" "perf wrote nothing"
	exit 0
fi
for args in "" "-p" "-s max,switch" "-s runtime" "-p -s pid" "-C 0"; do
	same_as_perf "latency $args on perf's recording: perf's table" perf.data latency $args
done

check "flare sched record of the ping-pong workload" $FLARE sched record -q -o flare.data -- "$WL/pingpong" 3000
check_eq "flare sched record leaves no event enabled" "" "$(tracefs_leftovers)"
perf evlist -i perf.data 2>/dev/null | grep '^sched:' >pe.txt
perf evlist -i flare.data 2>/dev/null | grep '^sched:' >fe.txt
check_eq "flare sched record enables perf sched record's events" "$(cat pe.txt)" "$(cat fe.txt)"
same_as_perf "latency on flare's recording: perf's table" flare.data latency
grep -q 'pingpong:(2)' f.out && pass "latency merges the two ping-pong tasks by name" ||
	fail "latency merges the two ping-pong tasks by name" "$(grep pingpong f.out)"

for args in "" "-V -w -M -n --state" "-s" "-S --state" "-s -M" "-C 1"; do
	same_as_perf "timehist $args on perf's recording: perf's lines" perf.data timehist $args
done
for args in "" "-w -M" "-s"; do
	same_as_perf "timehist $args on flare's recording: perf's lines" flare.data timehist $args
done

for args in "" "--compact" "--cpus 1" "--cpus 0 --compact"; do
	same_as_perf "map $args on perf's recording: perf's map" perf.data map $args
done
same_as_perf "map on flare's recording: perf's map" flare.data map
# perf 6.1 crashes on --color-pids; flare colours only on a terminal, so piped it is the map
$FLARE sched -i perf.data map --color-pids 1,2 >cp.out 2>&1; rc=$?
$FLARE sched -i perf.data map >plain.out 2>&1
check_eq "map --color-pids: exit 0, piped the same map" "0 same" "$rc $(cmp -s cp.out plain.out && echo same)"

same_as_perf "script on perf's recording: perf sched script's lines" perf.data script

# call graphs: perf sched record -g, timehist's one-line chains (-g is on by default)
perf sched record -q -g -o g.data -- "$WL/pingpong" 300 >/dev/null 2>&1
for args in "" "--max-stack 9 -n" "--no-call-graph"; do
	same_as_perf "timehist $args on a -g recording: perf's chains" g.data timehist $args
done

# beyond perf: percentiles ordered and ending at the table's maximum, a histogram of delays
$FLARE sched -i perf.data latency --percentiles --hist >pct.out 2>&1
max=$(grep -m1 'pingpong' pct.out | sed 's/.*max: *\([0-9.]*\) ms.*/\1/')
row=$(grep 'pingpong' pct.out | tail -1)
if echo "$row" | awk -F'|' -v m="$max" '{ if ($3 <= $4 && $4 <= $5 && $5 <= $6 && $6 + 0 == m + 0 && $2 > 0) exit 0; exit 1 }'; then
	pass "--percentiles: p50 <= p90 <= p99 <= max, max as in the table"
else
	fail "--percentiles: p50 <= p90 <= p99 <= max, max as in the table" "max $max, row: $row"
fi
n=$(awk '/usecs.*count/ { h = 1; next } h && /->/ { s += $5 } END { print s + 0 }' pct.out)
sw=$(grep 'TOTAL:' pct.out | awk -F'|' '{ print $3 + 0 }')
[ "$n" -ge "$sw" ] && pass "--hist counts every delay ($n >= $sw in the table)" ||
	fail "--hist counts every delay" "$n in the histogram, $sw in the table"

# bad input: one line, perf's statuses
$FLARE sched latency -i nosuch.data >out 2>err; rc=$?
check_eq "latency of a missing file: exit 255" 255 $rc
check_eq "latency of a missing file: one line naming it" "1" "$(grep -c 'nosuch.data' err)$(grep -vc nosuch.data err | sed 's/^0$//')"
perf record -q -e cpu-clock -o clock.data -- true >/dev/null 2>&1
$FLARE sched latency -i clock.data >out 2>err; rc=$?
check_eq "latency of a file without sched events: refused" "255 1" "$rc $(wc -l <err)"
$FLARE sched latency -s nosuch -i perf.data >out 2>err; rc=$?
check_eq "latency -s with an unknown key: exit 129" 129 $rc
check_grep "latency -s with an unknown key: names it" "Unknown --sort key: .nosuch" err
$FLARE sched timehist -i clock.data >out 2>err; rc=$?
check_eq "timehist of a file without sched events: refused" "255 1" "$rc $(wc -l <err)"
$FLARE sched timehist -C x -i perf.data >out 2>err; rc=$?
check_eq "timehist -C with no CPU list: exit 129" 129 $rc
$FLARE sched map --cpus x -i perf.data >out 2>err; rc=$?
check_eq "map --cpus with no CPU list: exit 129" 129 $rc
$FLARE sched nosuch >out 2>err; rc=$?
check_eq "an unknown sched subcommand: exit 129" 129 $rc
