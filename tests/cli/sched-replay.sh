#!/usr/bin/env bash
# sched replay: on a perf sched record of the ping-pong workload, flare prints perf sched
# replay's shape (calibration lines, event counts, then one line per play) with the counts
# and the task list equal to perf's on the same file, and it plays the recording with one
# thread per recorded task (named ":comm", as perf names them).
source "$ROOT/tests/lib.sh"

if ! have_perf; then
	skip "sched replay against perf" "Linux perf is not installed"
	exit 0
fi
perf sched record -q -o perf.data -- "$WL/pingpong" 300 >/dev/null 2>&1
if [ ! -s perf.data ]; then
	fail "perf sched record of the ping-pong workload" "perf wrote nothing"
	exit 0
fi
$FLARE sched replay -i perf.data -r 3 >f.out 2>f.err
check_eq "replay: exit 0" 0 $?
check_grep "replay: the clock's cost" '^run measurement overhead: [0-9]+ nsecs$' f.out
check_grep "replay: the sleep's cost" '^sleep measurement overhead: [0-9]+ nsecs$' f.out
check_grep "replay: the run test" '^the run test took [0-9]+ nsecs$' f.out
check_grep "replay: the sleep test" '^the sleep test took [0-9]+ nsecs$' f.out
check_eq "replay: one line per play (-r 3)" 3 \
	"$(grep -cE '^#[1-3] +: [0-9]+\.[0-9]{3}, ravg: [0-9]+\.[0-9]{2}, cpu: [0-9]+\.[0-9]{2} / [0-9]+\.[0-9]{2}$' f.out)"
perf sched replay -i perf.data -r 1 >p.out 2>/dev/null
sed -n '/^nr_run_events/,/^-----/p' p.out >p.mid
sed -n '/^nr_run_events/,/^-----/p' f.out >f.mid
if [ -s p.mid ] && cmp -s p.mid f.mid; then
	pass "replay: counts and task list equal perf's ($(grep -c '^task ' f.mid) tasks)"
else
	fail "replay: counts and task list equal perf's" "$(diff p.mid f.mid | head -5 | tr '\n' '~')"
fi
check_grep "replay: the workload is among the tasks" '^task +[0-9]+ \( +pingpong: +[0-9]+\), nr_events: [0-9]+$' f.out

# while it plays, the process has a thread per recorded task, named after it
tasks=$(grep -c '^task ' f.out)
$FLARE sched replay -i perf.data -r 100000 >/dev/null 2>&1 &
rp=$!
seen=""
for i in $(seq 200); do
	if grep -qx ':pingpong' /proc/$rp/task/*/comm 2>/dev/null; then
		seen=$(cat /proc/$rp/task/*/comm 2>/dev/null | wc -l)
		[ "$seen" = $((tasks + 1)) ] && break
	fi
	sleep 0.1
done
kill $rp 2>/dev/null
wait $rp 2>/dev/null
check_eq "replay: a thread per recorded task, named :comm (plus the main one)" $((tasks + 1)) "${seen:-none seen}"

check_fails "replay: -r 0 is refused" $FLARE sched replay -i perf.data -r 0
check_fails "replay: a missing file is refused" $FLARE sched replay -i no-such.data
check_grep "replay: says which file" "no-such.data" "$TMP/out"
