#!/usr/bin/env bash
# inline: inline frames and source lines from the DWARF of the recorded objects (libdw), as
# perf 6.1 prints them (it asks addr2line): perf's own recordings of inline_burn, a hot loop
# two always_inline calls deep, built here with -O2 -g. perf 6.1 shows inline frames in the
# DWARF-unwound part of a chain only (not in frame-pointer chains), in script and in report's
# call graphs and children entries; --no-inline turns them off.
source "$ROOT/tests/lib.sh"

if ! have_perf; then
	skip "all" "Linux perf is not installed"
	exit 0
fi
CC=${CC:-cc}
if ! $CC -O2 -g -fno-omit-frame-pointer -mno-omit-leaf-frame-pointer -fno-plt -o ib \
	"$ROOT/tests/workloads/inline_burn.c" 2>cc.err; then
	fail "build inline_burn -O2 -g" "$(head -c 200 cc.err)"
	exit 0
fi
rec() {	# rec NAME perf-record-args...
	local name=$1; shift
	perf record -q --no-bpf-event -o "$name.data" "$@" >/dev/null 2>"$name.rec.err"
}
# same NAME WHAT perf-and-flare-args...: flare script prints what perf script prints
same() {
	local name=$1 what=$2; shift 2
	perf script -i "$name.data" "$@" >"$name.p" 2>/dev/null
	$FLARE script -i "$name.data" "$@" >"$name.f" 2>"$name.err"
	if [ -s "$name.p" ] && cmp -s "$name.p" "$name.f"; then
		pass "$name: script $what prints perf's $(grep -c . "$name.p") lines"
	else
		fail "$name: script $what prints perf's" \
			"$(diff "$name.p" "$name.f" 2>&1 | head -6 | tr '\n' '~')"
	fi
}
# the source lines of the workload's own frames (file:line and the inline mark) in order:
# other objects' lines are left out (binutils' addr2line names some of libc's header lines
# by the file that includes them, libdw by the header)
SRCRE='inline_burn\.c'
ownlines() { grep -o "$SRCRE:[0-9]*.*" "$1"; }
same_lines() {
	local name=$1 what=$2; shift 2
	perf script -i "$name.data" "$@" >"$name.lp" 2>"$name.perr"
	local prc=$?
	LINES_PRC=$prc
	ownlines "$name.lp" >"$name.p"
	$FLARE script -i "$name.data" "$@" 2>"$name.err" | tee "$name.lf" | ownlines /dev/stdin >"$name.f"
	if [ $prc -ne 0 ]; then
		# seen when another test's BPF program was in the kernel stacks recorded
		skip "$name: script $what" "perf script failed on this recording (exit $prc)"
	elif [ -s "$name.p" ] && cmp -s "$name.p" "$name.f" &&
		[ "$(grep -c . "$name.lp")" = "$(grep -c . "$name.lf")" ]; then
		pass "$name: script $what: perf's $(grep -c . "$name.p") source lines of the workload"
	else
		fail "$name: script $what: perf's source lines" \
			"$(diff "$name.p" "$name.f" 2>&1 | head -6 | tr '\n' '~')"
	fi
}

rec dw --call-graph dwarf -F 499 -- ./ib 0.4
same dw "(inline frames)"
check_grep "dw: mix and step are shown inlined into work" '^	 +[0-9a-f]+ mix\+0x[0-9a-f]+ \(inlined\)$' dw.f
check_grep "dw: spin is shown inlined into main" '^	 +[0-9a-f]+ spin\+0x[0-9a-f]+ \(inlined\)$' dw.f
same dw "--no-inline" --no-inline
check_eq "dw: --no-inline shows no inline frame" 0 "$(grep -c inlined dw.f)"
same_lines dw "-F ip,sym,srcline" -F ip,sym,srcline
same_lines dw "-F +srcline" -F +srcline
check_grep "dw: mix's line comes with its inline mark" '^  inline_burn\.c:[0-9]+ \(inlined\)$' dw.lf
same_lines dw "--no-inline -F +srcline" --no-inline -F +srcline

# report: the inline entries in the call graphs, the sample's own entry its symbol's
same_report() {	# same_report NAME ARGS...
	local name=$1; shift
	perf report --stdio -i "$name.data" "$@" >"$name.rp0" 2>/dev/null
	local prc=$?
	grep -v '^#' "$name.rp0" >"$name.rp"
	$FLARE report --stdio -i "$name.data" "$@" 2>/dev/null | grep -v '^#' >"$name.rf"
	if [ $prc -ne 0 ]; then
		skip "$name: report $*" "perf report failed on this recording (exit $prc)"
	elif [ -s "$name.rp" ] && cmp -s "$name.rp" "$name.rf"; then
		pass "$name: report $* prints perf's $(grep -c . "$name.rp") lines"
	else
		fail "$name: report $* prints perf's" \
			"$(diff "$name.rp" "$name.rf" 2>&1 | head -6 | tr '\n' '~')"
	fi
}
same_report dw --no-children
check_grep "dw: report's graph of work starts at mix (inlined)" '^ +---mix \(inlined\)$' dw.rf
check_grep "dw: the entry is work's" '%  ib +ib +\[\.\] work *$' dw.rf
same_report dw --children
same_report dw --children -g caller
same_report dw --no-children -g none
same_report dw --no-children --no-inline
check_eq "dw: report --no-inline shows no inline frame" 0 "$(grep -c inlined dw.rf)"
# source lines as sort keys (perf's srcline, srcfile)
same_report dw --no-children --sort srcline -g none
check_grep "dw: the hot line of mix is an entry" '%  inline_burn\.c:[0-9]+$' dw.rf
same_report dw --no-children --sort srcfile,sym -g none
same_report dw --no-children --sort comm,srcline

# frame-pointer chains: perf 6.1 looks up no inline frames there, nor does flare
rec fp -g -F 499 -- ./ib 0.3
same fp "(frame pointers)"
same_report fp --no-children
check_eq "fp: no inline frame in frame-pointer chains" 0 "$(grep -c inlined fp.f)"
same_lines fp "-F +srcline" -F +srcline

# kernel frames: perf names the object and address for want of a line table
# built with -fno-plt: perf names a PLT stub _init+off where flare says name@plt, a difference
# of symbol tables, not of source lines
$CC -O2 -g -fno-plt -o gp "$ROOT/tests/workloads/getppid_n.c"
rec sys --call-graph dwarf -F 999 -- ./gp 300000
SRCRE='getppid_n\.c'
same_lines sys "-F +srcline (kernel frames)" -F +srcline
same_report sys --no-children --sort srcline,sym -g none
check_grep "sys: a kernel entry's srcline is its symbol and offset" '%  do_syscall_64\+[0-9]+ ' sys.rf
if [ "$LINES_PRC" -ne 0 ]; then
	skip "sys: kernel frames' srcline as perf's" "perf script failed on this recording"
else
	check_eq "sys: kernel frames' srcline as perf's" \
		"$(grep -c '^  \[kernel.kallsyms\]\[' sys.lp)" "$(grep -c '^  \[kernel.kallsyms\]\[' sys.lf)"
fi

# no debug information: no inline frame, the line unknown
$CC -O2 -fno-plt -o ibnodbg "$ROOT/tests/workloads/inline_burn.c"
rec nodbg --call-graph dwarf -F 499 -- ./ibnodbg 0.2
same nodbg "(no debug info)"
same_report nodbg --children
same_report nodbg --no-children --sort srcline,sym -g none
check_eq "nodbg: no inline frame in the stripped-of-DWARF workload" 0 \
	"$(grep -c -E '(mix|step|spin).*inlined' nodbg.f)"
