#!/usr/bin/env bash
# flare diff against perf diff 6.1 on the same recordings, made here: the default (delta-abs),
# -c delta/ratio/wdiff, -p, -F, -b, -o, -s, filters, three files, file defaults, bad input.
source "$ROOT/tests/lib.sh"

if ! have_perf; then
	skip "diff against perf diff" "Linux perf is not installed (apt-get install linux-perf)"
	exit 0
fi
rec() { perf record -q "$@" >/dev/null 2>&1; }
rec -o c1.data -- "$WL/cpu_burn" 0.4
rec -o c2.data -- "$WL/cpu_burn" 0.4
rec -o m.data -- "$WL/mt_burn" 0.3
rec -g -e cpu-clock,task-clock -o g1.data -- "$WL/cpu_burn" 0.2
rec -g -e task-clock,cpu-clock -o g2.data -- "$WL/mt_burn" 0.2
rec -a -o s.data -- sleep 0.3
$FLARE record -q -o f.data -- "$WL/cpu_burn" 0.3 >/dev/null 2>&1

same() {
	local what=$1; shift
	perf diff "$@" >p.txt 2>/dev/null; local prc=$?
	$FLARE diff "$@" >f.txt 2>/dev/null; local frc=$?
	if [ $prc -ne $frc ]; then
		fail "$what" "perf exited $prc, flare $frc"
	elif cmp -s p.txt f.txt; then
		pass "$what"
	else
		fail "$what" "$(diff p.txt f.txt | head -6 | tr '\n' ' ')"
	fi
}
same "two runs of one program: perf's lines" c1.data c2.data
same "two programs: perf's lines" c1.data m.data
same "a file with itself: +0.00% everywhere" c1.data c1.data
same "a flare recording against perf's" f.data c2.data
same "system-wide against a program" s.data c1.data
same "two events each, in other orders" g1.data g2.data
same "-c delta" -c delta c1.data m.data
same "-c ratio" -c ratio c1.data c2.data
same "-c ratio with dummies (N/A)" -c ratio c1.data m.data
same "-c wdiff:1,2" -c wdiff:1,2 c1.data c2.data
same "-c wdiff:1,1 of a file with itself: zeros, as perf prints them" -c wdiff:1,1 c1.data c1.data
same "-p -F: periods and formulas" -p -F c1.data c2.data
same "-c ratio -F" -c ratio -F c1.data c2.data
same "-b: baseline only" -b c1.data m.data
same "-b -p -F" -b -p -F c1.data c2.data
same "-o 0: baseline order" -o 0 c1.data c2.data
same "-s comm" -s comm c1.data m.data
same "-s dso" -s dso s.data c1.data
same "-s sym,dso" -s sym,dso c1.data c2.data
same "-d: one dso" -d cpu_burn c1.data c2.data
same "-C: one comm" -C cpu_burn s.data c1.data
# three files: an entry two later files share but the baseline lacks is one row (user
# symbols only: kernel entries of separate runs pair differently now and then, see the note)
same "three files: per-file columns, the file list, dummies shared by later files" -d cpu_burn,mt_burn m.data c1.data c2.data
$FLARE diff -v c1.data c2.data >v.txt 2>/dev/null
check_grep "-v: the file list names the baseline" '^#  \[0\] c1.data \(Baseline\)$' v.txt
same "-q: no headers" -q c1.data c2.data
same "-C, -d, -S with several items, --pid" -C cpu_burn,sleep -d cpu_burn,libc.so.6 c1.data m.data
# perf 6.1's -S matches nothing here (its report -S neither); flare's keeps what it names
$FLARE diff -S b,a c1.data c2.data >s.txt 2>/dev/null
check_eq "-S b,a: only b and a" "[.] a,[.] b" "$(grep -o '\[\.\] [ab]$' s.txt | sort | paste -sd,)"
same "--pid: the hidden entries still pair" --pid 1 s.data c1.data
cp c1.data perf.data.old; cp c2.data perf.data
same "no file named: perf.data.old against perf.data"
same "one file named: perf.data.old against it" m.data
rm perf.data.old
same "one file named without perf.data.old: both fail" m.data
$FLARE diff nosuch.data c1.data 2>e.txt; check_eq "a missing file exits 255, as perf" 255 $?
check_eq "a missing file: one line" 1 "$(wc -l <e.txt)"
check_grep "a missing file is named" "nosuch.data" e.txt
$FLARE diff -c bogus c1.data c2.data 2>e2.txt; check_eq "an unknown -c exits 129" 129 $?
check_grep "an unknown -c names the methods" "delta, delta-abs, ratio or wdiff" e2.txt
$FLARE diff -c wdiff:0,1 c1.data c2.data 2>e3.txt; check_eq "wdiff with a zero weight exits 129" 129 $?
$FLARE diff -o 5 c1.data c2.data 2>e4.txt; check_eq "-o past the files exits 255" 255 $?
