#!/usr/bin/env bash
# sched timehist -p/--pid, -t/--tid, --time and -I/--idle-hist: flare's output equals perf
# sched timehist's on one perf sched record of the ping-pong workload (its pids and its time
# window taken from the recording), with the summaries, wakeups and migrations that the
# filters change. (A CPU that never idles during the recording, as on a loaded machine, gives
# -I nothing but its header and summary to compare.)
source "$ROOT/tests/lib.sh"

if ! have_perf; then
	skip "sched timehist filters against perf" "Linux perf is not installed"
	exit 0
fi
perf sched record -q -o perf.data -- "$WL/pingpong" 2000 >/dev/null 2>&1
if [ ! -s perf.data ]; then
	fail "perf sched record of the ping-pong workload" "perf wrote nothing"
	exit 0
fi
# same "what" ARGS...: both print the same non-empty text and exit 0
same() {
	local what=$1 prc frc; shift
	perf sched timehist -i perf.data "$@" >p.out 2>/dev/null; prc=$?
	$FLARE sched timehist -i perf.data "$@" >f.out 2>f.err; frc=$?
	if [ $prc -ne 0 ] || [ $frc -ne 0 ] || [ ! -s p.out ]; then
		fail "$what" "perf exit $prc, flare exit $frc: $(head -c 200 f.err)"
	elif cmp -s p.out f.out; then
		pass "$what"
	else
		fail "$what" "$(diff p.out f.out | head -6 | tr '\n' '~')"
	fi
}
perf sched timehist -i perf.data >all.txt 2>/dev/null
# the parent (the one perf exec'd) and its child: pids from the lines perf printed
parent=$(grep -oE 'pingpong\[[0-9]+\]' all.txt | head -1 | tr -dc 0-9)
child=$(grep -oE 'pingpong\[[0-9]+\]' all.txt | tr -dc '0-9\n' | grep -vx "$parent" | head -1)
if [ -z "$parent" ] || [ -z "$child" ]; then
	fail "the recording has the two ping-pong tasks" "$(head -c 300 all.txt)"
	exit 0
fi
same "-p the parent" -p "$parent"
same "-p the parent, -s" -p "$parent" -s
same "-p both, -S -w -M" -p "$parent,$child" -S -w -M
same "-t the child, -w" -t "$child" -w
same "-p 1 (a pid with no switches here), -S" -p 1 -S
same "-p and -C 0 -s" -p "$parent,$child" -C 0 -s

# a window in the middle of the recording: the times of its 20th and 60th switch lines
t1=$(awk 'NR == 23 { print $1 }' all.txt)
t2=$(awk 'NR == 63 { print $1 }' all.txt)
same "--time start,stop" --time "$t1,$t2"
same "--time start,stop -S -w -M" --time "$t1,$t2" -S -w -M
same "--time start," --time "$t1," -S
same "--time ,stop" --time ",$t2" -S
same "--time and -p, --state" --time "$t1,$t2" -p "$parent" -S --state
same "-I" -I
same "-I -S -w -M" -I -S -w -M
same "-I with -p and --time, --state" -I -p "$parent" --time "$t1," -S --state
check_eq "--time: only lines inside the window" "" \
	"$($FLARE sched timehist -i perf.data --time "$t1,$t2" | awk -v a="$t1" -v b="$t2" 'NR > 3 && ($1 < a || $1 > b)')"

check_fails "--time: a malformed window is refused" $FLARE sched timehist -i perf.data --time abc
check_grep "--time: says what to give" 'Invalid time string .*start,stop' "$TMP/out"
check_fails "-p: a malformed list is refused" $FLARE sched timehist -i perf.data -p 12x
check_grep "-p: says what to give" '\-p 12x: give ids as' "$TMP/out"
