#!/usr/bin/env bash
# dwarf: the user part of --call-graph dwarf samples, unwound by flare from each sample's
# registers and stack copy, is the chain perf script / perf report print on the same file:
# workloads with and without frame pointers, PIE and not, a shared library, kernel frames
# above the user stack, C++ with inlining and exceptions, many processes (sh, ls, cc);
# --max-stack; a short stack copy and an object without CFI end the chain, counted once;
# --call-graph lbr is refused here.
source "$ROOT/tests/lib.sh"
SRC=$ROOT/tests/data/dwarf

if ! have_perf; then
	skip "all" "Linux perf is not installed"
	exit 0
fi

rec() {	# rec NAME perf-record-args...
	local name=$1; shift
	perf record -q --no-bpf-event -o "$name.data" "$@" >/dev/null 2>"$name.rec.err"
}
# perf writes a caller's pc 0 (less one) where a truncated stack copy stops its unwinder;
# flare ends the chain there
nogarbage() { grep -v '^	ffffffffffffffff \[unknown\] (\[unknown\])$'; }
# same_script NAME [ARGS...]: flare script --no-inline equals perf script --no-inline on NAME.data
same_script() {
	local name=$1; shift
	perf script --no-inline -i "$name.data" "$@" 2>/dev/null | nogarbage >"$name.perf"
	$FLARE script --no-inline -i "$name.data" "$@" 2>"$name.flare.err" >"$name.flare"
	local frc=$?
	if [ ! -s "$name.perf" ]; then
		fail "$name: perf script printed nothing" "$(head -c 300 "$name.rec.err")"
	elif [ $frc -ne 0 ]; then
		fail "$name: flare script $*" "exit $frc: $(head -c 300 "$name.flare.err")"
	elif cmp -s "$name.perf" "$name.flare"; then
		pass "$name: flare script $* prints perf's $(grep -c . "$name.perf") lines"
	else
		fail "$name: flare script $* prints perf's chains" \
			"$(diff "$name.perf" "$name.flare" | head -8 | tr '\n' '~')"
	fi
}
# same_report NAME ARGS...: flare report --stdio equals perf report --no-inline, comments aside
same_report() {
	local name=$1; shift
	perf report --no-inline --stdio -i "$name.data" "$@" 2>/dev/null | grep -v '^#' >"$name.rperf"
	$FLARE report --no-inline --stdio -i "$name.data" "$@" 2>/dev/null | grep -v "^#" >"$name.rflare"
	if [ -s "$name.rperf" ] && cmp -s "$name.rperf" "$name.rflare"; then
		pass "$name: flare report $* prints perf's $(grep -c . "$name.rperf") lines"
	else
		fail "$name: flare report $* prints perf's" \
			"$(diff "$name.rperf" "$name.rflare" | head -8 | tr '\n' '~')"
	fi
}

# Built here with -fno-plt: a sample in a PLT stub is named _init+off by perf and name@plt by
# flare's symbol tables, a difference of symbols, not of unwinding.
CC=${CC:-cc}
$CC -O1 -g -fno-omit-frame-pointer -fno-plt -o fp "$ROOT/tests/workloads/cpu_burn.c" 2>cc.err ||
	fail "build cpu_burn with frame pointers" "$(head -c 200 cc.err)"
$CC -O2 -g -fno-plt -o getppid "$ROOT/tests/workloads/getppid_n.c" 2>cc.err ||
	fail "build getppid_n" "$(head -c 200 cc.err)"
$CC -O2 -g -fno-plt -fomit-frame-pointer -o nofp "$ROOT/tests/workloads/cpu_burn.c" 2>cc.err ||
	fail "build cpu_burn -O2 -fomit-frame-pointer" "$(head -c 200 cc.err)"
$CC -O2 -fno-plt -fomit-frame-pointer -no-pie -o nopie "$ROOT/tests/workloads/cpu_burn.c" 2>cc.err ||
	fail "build cpu_burn -no-pie" "$(head -c 200 cc.err)"
$CC -O2 -g -fno-plt -fomit-frame-pointer -fPIC -shared -o libwork.so "$SRC/libwork.c" 2>cc.err &&
	$CC -O2 -g -fno-plt -o shlib "$SRC/shlib_main.c" -L. -lwork -Wl,-rpath,"$TMP" 2>cc.err ||
	fail "build shlib_main and libwork.so" "$(head -c 200 cc.err)"

# the same chains as perf on perf's own recordings
rec fp --call-graph dwarf -F 499 -- ./fp 0.3
same_script fp
same_report fp --no-children
same_report fp --children
rec nofp --call-graph dwarf -F 499 -- ./nofp 0.3
same_script nofp
same_report nofp --no-children
check_eq "nofp: the chains reach main and _start" "yes" \
	"$(grep -q '	.* main+' nofp.flare && grep -q '_start+' nofp.flare && echo yes)"
rec nopie --call-graph dwarf -F 499 -- ./nopie 0.3
same_script nopie
rec shlib --call-graph dwarf -F 499 -- ./shlib 0.3
same_script shlib
check_grep "shlib: lib_inner <- lib_outer <- drive, across the library" \
	'lib_inner' shlib.flare
rec syscalls --call-graph dwarf -F 999 -- ./getppid 300000
same_script syscalls
same_report syscalls --no-children
same_script syscalls --max-stack 3
same_script syscalls --max-stack 1
same_report syscalls --no-children --max-stack 2
# flame graphs take the same stacks: folded from flare's file = folded from perf's text
$FLARE flamegraph --folded -i syscalls.data 2>/dev/null | sort >syscalls.ff
perf script --no-inline -i syscalls.data 2>/dev/null | $FLARE flamegraph --folded 2>/dev/null |
	sort >syscalls.pf
if [ -s syscalls.pf ] && cmp -s syscalls.pf syscalls.ff; then
	pass "syscalls: flamegraph --folded of the file = folded perf script"
else
	fail "syscalls: flamegraph --folded of the file = folded perf script" \
		"$(diff syscalls.pf syscalls.ff | head -4 | tr '\n' '~')"
fi
if command -v g++ >/dev/null && g++ -O2 -g -o cxx "$SRC/cxx_throw.cc" 2>cxx.err; then
	rec cxx --call-graph dwarf -F 499 -- ./cxx 8000
	same_script cxx
	same_report cxx --no-children
else
	skip "cxx" "g++ cannot build $SRC/cxx_throw.cc: $(head -c 200 cxx.err 2>/dev/null)"
fi

# many processes: a shell running ls and the compiler. perf 6.1's unwinder gives up early on
# some of their stacks (it stops after a frame, or adds a frame of garbage) where flare
# goes on to _start: each perf chain must be flare's or the start of flare's
rec many --call-graph dwarf -F 999 -- sh -c "ls -R /usr/include >/dev/null; ls -lR /usr/lib/x86_64-linux-gnu >/dev/null; $CC -O2 -c -o x.o $ROOT/tests/workloads/cpu_burn.c"
perf script --no-inline -i many.data 2>/dev/null | nogarbage >many.perf
$FLARE script --no-inline -i many.data >many.flare 2>many.err
python3 - many.perf many.flare >many.cmp <<'EOF'
import sys
def blocks(p):
    return [b.split('\n') for b in open(p).read().strip().split('\n\n')]
P, F = blocks(sys.argv[1]), blocks(sys.argv[2])
pre = sum(1 for p, f in zip(P, F) if f[:len(p)] == p)
print(len(P), len(F), pre)
EOF
read -r np nf npre <many.cmp
check_eq "many: as many samples as perf script" "$np" "$nf"
if [ "${npre:-0}" -ge $((np * 8 / 10)) ] && [ "$np" -gt 50 ]; then
	pass "many: perf's chain is flare's, or starts it, in $npre of $np samples"
else
	fail "many: perf's chain is flare's, or starts it, in 80% of samples" "$npre of $np"
fi

# a short stack copy: the chain ends where the copy does, said once
rec short --call-graph dwarf,256 -F 499 -- ./fp 0.3
same_script short
check_grep "short: script says once that chains end early" \
	'^flare: warning: DWARF unwinding: [0-9]+ of [0-9]+ user stacks end early: [0-9]+ stack copy too short$' short.flare.err
check_eq "short: said once" 1 "$(grep -c DWARF short.flare.err)"
$FLARE report --stdio -i short.data >short.rep 2>&1
check_grep "short: report's header counts them" \
	'^# DWARF unwinding: [0-9]+ of [0-9]+ user stacks end early: [0-9]+ stack copy too short$' short.rep
$FLARE report --stdio -i fp.data >fp.rep 2>&1
check_eq "fp: complete chains: no such line" 0 "$(grep -c 'DWARF unwinding' fp.rep)"

# code without .eh_frame (-fno-asynchronous-unwind-tables): unwound from .debug_frame, in the
# object itself and in its separate debug file (.gnu_debuglink); perf 6.1 gives up there
# reaches_main NAME: samples whose chain has main, and all samples
reaches_main() {
	awk 'BEGIN { RS = "" } { n++ } /\tmain\+|\n[ \t]+[0-9a-f]+ main\+/ { m++ } END { print m + 0, n + 0 }' "$1"
}
if $CC -O2 -g -fno-plt -fomit-frame-pointer -fno-asynchronous-unwind-tables -o noeh \
	"$ROOT/tests/workloads/cpu_burn.c" 2>cc.err && objcopy --only-keep-debug noeh noeh.debug &&
	objcopy --strip-debug --add-gnu-debuglink=noeh.debug noeh noehlink; then
	for b in noeh noehlink; do
		rec $b --call-graph dwarf -F 499 -- ./$b 0.3
		$FLARE script -i $b.data >$b.flare 2>/dev/null
		read -r m n < <(reaches_main $b.flare)
		if [ "$n" -gt 4 ] && [ "$m" -ge $((n * 9 / 10)) ]; then
			pass "$b: chains reach main through code without .eh_frame ($m of $n)"
		else
			fail "$b: chains reach main through code without .eh_frame" "$m of $n"
		fi
	done
else
	skip "noeh" "cannot build without unwind tables: $(head -c 200 cc.err)"
fi

# an object without CFI (.eh_frame removed): no crash, the chain ends, counted
if objcopy --remove-section=.eh_frame --remove-section=.eh_frame_hdr nofp nocfi 2>/dev/null; then
	rec nocfi --call-graph dwarf -F 499 -- ./nocfi 0.3
	check "nocfi: script exits 0" $FLARE script -i nocfi.data
	check_grep "nocfi: chains end early, said" 'user stacks end early' "$TMP/out"
	check "nocfi: report exits 0" $FLARE report --stdio -i nocfi.data
else
	skip "nocfi" "objcopy is not installed"
fi

# --call-graph lbr: refused with the reason, perf's status, no file left
if [ -e /sys/bus/event_source/devices/cpu/caps/branches ]; then
	skip "lbr refused" "this machine has LBR"
else
	$FLARE record --call-graph lbr -o lbr.data true >lbr.out 2>lbr.err
	check_eq "lbr: exit 255 as perf" 255 $?
	check_grep "lbr: says there is no LBR here" 'no LBR' lbr.err
	check_eq "lbr: one line" 1 "$(wc -l <lbr.err)"
	check_eq "lbr: no file written" no "$([ -e lbr.data ] && echo yes || echo no)"
fi
