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
