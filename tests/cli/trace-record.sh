#!/usr/bin/env bash
# flare trace record and flare trace -i: a perf.data of raw_syscalls that perf trace -i and
# perf script read, and replays of flare's and perf's recordings with the same lines and
# -s tables as perf trace -i prints for the same file.
source "$ROOT/tests/lib.sh"

K=$WL/syscalls_known
N=3 M=50

# heads FILE: "time duration comm/tid syscall" of each line (the arguments are decoded by
# the same code as live lines, tested in trace.sh)
heads() {
	perl -ne 'print "$1 $2 $3 $5\n" if
		/^\s*(\S+) \(\s*([^)]*?)\s*\): (\S+) +(\.\.\. \[continued\]: )?(\w+)\(/' "$1"
}

if ! $FLARE trace record -o fl.data -- "$K" $N $M >/dev/null 2>rec.err; then
	fail "flare trace record runs" "$(head -3 rec.err | tr '\n' ' ')"
	exit 0
fi
pass "flare trace record runs"
check_eq "nothing is left in tracefs after record" "" "$(tracefs_leftovers)"
$FLARE trace -s -i fl.data >fs.txt 2>fs.err
check_grep "-i -s: the recording's $M getppid" "^   getppid +$M +0 " fs.txt
check_grep "-i -s: the failed openat" "^   openat +$((N + 3)) +1 " fs.txt
$FLARE trace -e getppid -i fl.data >fe.txt 2>&1
check_eq "-i -e getppid: only those lines" "$((M + 3))" "$(grep -c ' getppid()' fe.txt)"
check_eq "-i -e getppid: nothing else" "$((M + 3))" "$(grep -c . fe.txt)"

if have_perf; then
	perf trace -s -i fl.data >ps.txt 2>&1
	check_eq "perf trace -s -i reads flare's file: the same table as flare's" \
		"$(cat ps.txt)" "$(cat fs.txt)"
	perf script -i fl.data -F comm,event,trace 2>/dev/null >psc.txt
	check_eq "perf script reads flare's file: $((M + 3)) getppid enters" "$((M + 3))" \
		"$(grep -cE 'syscalls_known +raw_syscalls:sys_enter: +NR 110 ' psc.txt)"
	perf trace -i fl.data >pl.txt 2>&1
	$FLARE trace -i fl.data >fl.txt 2>&1
	check_eq "flare trace -i lines: times, durations, threads and calls as perf's" \
		"$(heads pl.txt)" "$(heads fl.txt)"

	perf trace record -o pf.data -- "$K" $N $M >/dev/null 2>&1
	perf trace -S --errno-summary -i pf.data >pS.txt 2>&1
	$FLARE trace -S --errno-summary -i pf.data >fS.txt 2>&1
	check_eq "perf's recording: -S --errno-summary tables equal perf's" \
		"$(sed -n '/Summary of events/,$p' pS.txt)" "$(sed -n '/Summary of events/,$p' fS.txt)"
	check_eq "perf's recording: lines as perf's" "$(heads pS.txt)" "$(heads fS.txt)"
	check_grep "perf's recording: file names it could not read, as perf shows them" \
		'openat\(dfd: CWD, filename: 0x[0-9a-f]{1,8}, ' fS.txt
else
	skip "flare's file read by perf, perf's by flare" "perf is not installed"
fi

# page faults: recorded with -F, replayed as perf trace -i prints them
if $FLARE trace -F all record -o ff.data -- "$K" 1 2 >/dev/null 2>ff.err; then
	pass "trace -F all record runs"
else
	fail "trace -F all record runs" "$(head -3 ff.err | tr '\n' ' ')"
fi
$FLARE trace -i ff.data >ffl.txt 2>&1
check_grep "-i: fault lines, ip symbol and the address's map" \
	'^ +[0-9.]+ \( 0\.000 ms\): syscalls_known/[0-9]+ (maj|min)fault \[[^]]+\] => .*@0x[0-9a-f]+ \(d\.\)$' ffl.txt
$FLARE trace -s -i ff.data >ffs.txt 2>&1
check_grep "-s: the thread's minfaults counted with its events" \
	'^ syscalls_known \([0-9]+\), [0-9]+ events, [0-9.]+%, [0-9]+ minfaults$' ffs.txt
if have_perf; then
	perf trace -i ff.data >pfl.txt 2>&1
	check_eq "fault lines equal perf trace -i's on flare's file" \
		"$(grep -E ' (maj|min)fault ' pfl.txt)" "$(grep -E ' (maj|min)fault ' ffl.txt)"
	perf trace -s -i ff.data >pfs.txt 2>&1
	check_eq "-s with faults equals perf trace -s -i's" "$(cat pfs.txt)" "$(cat ffs.txt)"
	perf record -R -c 1 -d -o pff.data \
		-e raw_syscalls:sys_enter,raw_syscalls:sys_exit,major-faults,minor-faults \
		-- "$K" 1 2 >/dev/null 2>&1
	check_eq "fault lines equal perf trace -i's on perf's file" \
		"$(perf trace -i pff.data 2>&1 | grep -E ' (maj|min)fault ')" \
		"$($FLARE trace -i pff.data 2>&1 | grep -E ' (maj|min)fault ')"
fi
check_fails "-F live is refused, saying how to get faults" $FLARE trace -F all true
check_grep "-F live: the way to record them" "flare trace -F all record" "$TMP/out"
check_fails "-F of something else is a usage error" $FLARE trace -F some -i ff.data

check_fails "-i of a missing file fails" $FLARE trace -i nosuch.data
check_grep "-i of a missing file: named" "cannot read 'nosuch.data'" "$TMP/out"
$FLARE record -o cpu.data -e cpu-clock -- true >/dev/null 2>&1
check_fails "-i of a file without syscalls fails" $FLARE trace -i cpu.data
check_grep "-i of a file without syscalls: says how to record them" \
	"no raw_syscalls.*flare trace record" "$TMP/out"
check_fails "-i with a command is refused" $FLARE trace -i fl.data -- true
head -c 3000 fl.data >cut.data
$FLARE trace -i cut.data >/dev/null 2>cut.err
check_eq "a truncated file: exit 1" 1 $?
