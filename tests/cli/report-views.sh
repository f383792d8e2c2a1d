#!/usr/bin/env bash
# report's views, compared with perf 6.1's on the same files (computed here) in children and
# self modes, call graphs on and off, several sort keys:
#  - --symbol-filter: entries whose symbol holds the string (perf applies it only when entries
#    are merged by comm, and only to the file's first event);
#  - --show-cpu-utilization (and perf's older --showcpuutilization): the sys and usr columns.
# A case where the report without the option already differs from perf's is a counted skip.
source "$ROOT/tests/lib.sh"

if ! have_perf; then
	skip "report views against perf" "perf is not installed"
	exit 0
fi
perf record -q -g -o p.data -- "$WL/mt_burn" 0.2 >/dev/null 2>&1
$FLARE record -q -g -o f.data -- "$WL/mt_burn" 0.2 >/dev/null 2>&1
perf record -q -g -o s.data -- "$WL/syscalls_known" >/dev/null 2>&1
# the lines that are not tips or blank: perf's tip is random
body() { grep -v '^# (Tip\|^#$\|^$' "$1"; }
# compare OPTION FILE ARGS...: flare's report with OPTION against perf's
compare() {
	local opt=$1 f=$2 n; shift 2
	n=$(basename "$f")
	perf report --stdio "$@" -i "$f" >p0.txt 2>/dev/null
	$FLARE report --stdio "$@" -i "$f" >f0.txt 2>/dev/null
	if ! cmp -s <(body p0.txt) <(body f0.txt); then
		skip "$opt $* on $n" "flare orders entries of equal share differently from perf on this file even without the option (a known gap)"
		return
	fi
	perf report --stdio "$opt" "$@" -i "$f" >p.txt 2>/dev/null
	$FLARE report --stdio "$opt" "$@" -i "$f" >f.txt 2>/dev/null
	if cmp -s <(body p.txt) <(body f.txt); then pass "$opt $* on $n: perf's report"
	else fail "$opt $* on $n: perf's report" "$(diff <(body p.txt) <(body f.txt) | head -6 | tr '\n' ' ')"; fi
}
for f in p.data f.data "$TESTDATA/tp.data" "$TESTDATA/syswide.data"; do
	for a in "" "--no-children" "-g none" "--sort comm" "--no-children --sort pid,comm" \
		"--sort dso"; do
		for s in work do_ sys; do
			compare --symbol-filter=$s "$f" $a
		done
	done
done
for f in p.data f.data s.data "$TESTDATA/fp.data" "$TESTDATA/mt.data"; do
	for a in "" "--no-children" "-g none" "-n --show-total-period --no-children" "--sort comm"; do
		compare --show-cpu-utilization "$f" $a
	done
done
# what they do on flare's own file
$FLARE report --stdio --no-children -g none --symbol-filter=work -i f.data >w.txt
check_eq "--symbol-filter=work keeps two entries" 2 "$(grep -c '%' w.txt)"
check_grep "--symbol-filter=work keeps work_a" '\[\.\] work_a' w.txt
$FLARE report --stdio --showcpuutilization --no-children -g none -i f.data >o.txt 2>&1
check_grep "--showcpuutilization: perf's older name works" '^# Overhead       sys       usr  ' o.txt
# sys + usr is the entry's own share: a user function's all usr
check_grep "--show-cpu-utilization: work_a is all user time" '^ +([0-9.]+)%  +0\.00%  +\1%  .*\[\.\] work_a' o.txt
