#!/usr/bin/env bash
# report --tasks: the recorded threads as perf 6.1's parent/child tree, compared with perf's
# on the same files, computed here: perf's and flare's recordings of a process with threads,
# of a shell that forks and execs, system-wide, and the bundled fixtures.
source "$ROOT/tests/lib.sh"

forker() {
	sh -c 'for i in 1 2 3; do (sleep 0.02 & ls / >/dev/null; wait); done; '"$WL/mt_burn"' 0.1'
}

if ! have_perf; then
	skip "report --tasks against perf" "perf is not installed"
	exit 0
fi
perf record -q -o p-mt.data -- "$WL/mt_burn" 0.1 >/dev/null 2>&1
$FLARE record -q -o f-mt.data -- "$WL/mt_burn" 0.1 >/dev/null 2>&1
export -f forker; export WL
perf record -q -o p-fork.data -- bash -c forker >/dev/null 2>&1
$FLARE record -q -o f-fork.data -- bash -c forker >/dev/null 2>&1
perf record -q -a -o p-sys.data -- bash -c forker >/dev/null 2>&1
$FLARE record -q -a -o f-sys.data -- bash -c forker >/dev/null 2>&1
for f in p-mt.data f-mt.data p-fork.data f-fork.data p-sys.data f-sys.data \
	"$ROOT"/tests/data/*.data; do
	n=$(basename "$f")
	perf report --tasks -i "$f" >p.txt 2>&1
	$FLARE report --tasks -i "$f" >f.txt 2>&1
	if cmp -s p.txt f.txt; then pass "--tasks on $n: perf's tree"
	else fail "--tasks on $n: perf's tree" "$(diff p.txt f.txt | head -6 | tr '\n' ' ')"; fi
done
# what the tree holds: the workload's threads under their process
$FLARE report --tasks -i f-mt.data >t.txt
check_grep "--tasks: the header" '^#      pid      tid     ppid  comm$' t.txt
check_grep "--tasks: a worker thread one level under mt_burn" '^ +[0-9]+ +[0-9]+ +[0-9]+ \|  ?worker_a$' t.txt
check_grep "--tasks: the idle task as a root" '^ +0 +0 +-1 \|swapper$' t.txt
# --task, as perf's option parser accepts the prefix
$FLARE report --task -i f-mt.data >t2.txt 2>&1; check_eq "--task is --tasks" "" "$(cmp t.txt t2.txt)"
# bad input: one line, perf's status
$FLARE report --tasks -i nonexistent.data >e.txt 2>&1; check_eq "--tasks on a missing file exits 255" 255 $?
check_eq "--tasks on a missing file says it in one line" 1 "$(wc -l <e.txt)"
