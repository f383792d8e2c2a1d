#!/usr/bin/env bash
# report --show-cpu-utilization (and perf's older spelling --showcpuutilization): the sys and
# usr columns, compared with perf 6.1's on the same files (computed here), in children and
# self modes, with -n and --show-total-period beside them.
source "$ROOT/tests/lib.sh"

if ! have_perf; then
	skip "report --show-cpu-utilization against perf" "perf is not installed"
	exit 0
fi
perf record -q -g -o p.data -- "$WL/mt_burn" 0.2 >/dev/null 2>&1
$FLARE record -q -g -o f.data -- "$WL/mt_burn" 0.2 >/dev/null 2>&1
perf record -q -g -o s.data -- "$WL/syscalls_known" >/dev/null 2>&1
body() { grep -v '^# (Tip\|^#$\|^$' "$1"; }
for f in p.data f.data s.data "$TESTDATA/fp.data" "$TESTDATA/mt.data"; do
	n=$(basename "$f")
	for a in "" "--no-children" "-g none" "-n --show-total-period --no-children" "--sort comm"; do
		perf report --stdio $a -i "$f" >p0.txt 2>/dev/null
		$FLARE report --stdio $a -i "$f" >f0.txt 2>/dev/null
		if ! cmp -s <(body p0.txt) <(body f0.txt); then
			skip "--show-cpu-utilization $a on $n" "flare orders entries of equal share differently from perf on this file even without the option (a known gap)"
			continue
		fi
		perf report --stdio --show-cpu-utilization $a -i "$f" >p.txt 2>/dev/null
		$FLARE report --stdio --show-cpu-utilization $a -i "$f" >f.txt 2>/dev/null
		if cmp -s <(body p.txt) <(body f.txt); then pass "--show-cpu-utilization $a on $n: perf's columns"
		else fail "--show-cpu-utilization $a on $n: perf's columns" "$(diff <(body p.txt) <(body f.txt) | head -6 | tr '\n' ' ')"; fi
	done
done
$FLARE report --stdio --showcpuutilization --no-children -g none -i f.data >o.txt 2>&1
check_grep "--showcpuutilization: perf's older name works" '^# Overhead       sys       usr  ' o.txt
# sys + usr is the entry's own share: a user function's all usr
check_grep "--show-cpu-utilization: work_a is all user time" '^ +([0-9.]+)%  +0\.00%  +\1%  .*\[\.\] work_a' o.txt
