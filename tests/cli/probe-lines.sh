#!/usr/bin/env bash
# flare probe's source-line forms: lazy patterns (FUNC;PTN, SRC;PTN) placed where perf probe
# places them (-D, -V compared with perf's answer on the bundled probe_target; a variable
# missing at some of a pattern's lines gets perf's magic number), recorded values of a
# pattern probe, -L ranges (FUNC:START-END, FUNC:START+N, SRC, SRC:LINE, SRC:START-END) and
# -s DIR, each compared with perf probe. Only probes of group probe_flarelazy are added.
source "$ROOT/tests/lib.sh"

T=/sys/kernel/tracing
G=probe_flarelazy
W=$WL/probe_target
if [ ! -x "$W" ]; then
	fail "flare probe lines" "the workload $W is not built"
	exit 0
fi

# --- -D with lazy patterns equals perf probe -D ---
lazy=(
	'func_2;p->*'
	'func_2;r*'
	'func_2;*(number)'
	'func_2;p->* number'
	'func_2@probe_target.c;r*'
	'main;total*'
	'main;total* i'
	'main;*'
	'helper;*'
	'twice;*'
	'probe_target.c;total*'
	'probe_target.c;sink*'
	'probe_target.c;*'
	'cu2.c;*'
	'ev=func_2;r*'
	'probe_target.c;sink* v'
	'probe_target.c;total* i n'
)
views=('probe_target.c;total*' 'probe_target.c;sink*' 'main;total*')
ranges=(func_2 'func_2:2-5' 'func_2:2+3' 'func_2:3' 'func_2:-1' 'func_2:5-15' 'func_2:0-2'
	'func_2@probe_target.c' 'main:5-12' 'probe_target.c' 'probe_target.c:50'
	'probe_target.c:45-52' 'probe_target.c:45+3' 'cu2.c' 'cu2.c:12' helper)
if have_perf; then
	for f in "${lazy[@]}"; do
		perf probe -x "$W" -D "$f" >p.def 2>perr.txt
		$FLARE probe -x "$W" -D "$f" >f.def 2>ferr.txt
		if [ ! -s p.def ]; then
			fail "-D '$f'" "perf gave nothing: $(head -c 200 perr.txt)"
		else
			check_eq "-D '$f' equals perf probe -D" "$(cat p.def)" "$(cat f.def)"
		fi
	done
	for v in "${views[@]}"; do
		check_eq "-V '$v' equals perf probe -V" "$(perf probe -x "$W" -V "$v" 2>/dev/null)" \
			"$($FLARE probe -x "$W" -V "$v" 2>&1)"
	done
	for l in "${ranges[@]}"; do
		check_eq "-L '$l' equals perf probe -L" "$(perf probe -x "$W" -L "$l" 2>/dev/null)" \
			"$($FLARE probe -x "$W" -L "$l" 2>&1)"
	done
	# -s DIR: the sources found under another directory, as perf finds them
	name=$(readelf --debug-dump=info "$W" 2>/dev/null | grep -m1 -oE 'DW_AT_name *: \(.*\): .*probe_target\.c|DW_AT_name *: .*probe_target\.c' |
		sed -E 's/.*: //')
	case "$name" in
	/*) rel=${name#/} ;;
	*) rel=$name ;;
	esac
	mkdir -p "src/$(dirname "$rel")"
	cp "$ROOT/tests/workloads/probe_target.c" "src/$rel"
	for l in 'func_2:0-2' 'probe_target.c:50-52'; do
		check_eq "-s DIR -L '$l' equals perf's" "$(perf probe -x "$W" -s "$PWD/src" -L "$l" 2>/dev/null)" \
			"$($FLARE probe -x "$W" -s "$PWD/src" -L "$l" 2>&1)"
	done
	check_eq "-s DIR -D 'func_2;p->*' equals perf's" \
		"$(perf probe -x "$W" -s "$PWD/src" -D 'func_2;p->*' 2>/dev/null)" \
		"$($FLARE probe -x "$W" -s "$PWD/src" -D 'func_2;p->*' 2>&1)"
else
	skip "comparisons with perf probe" "Linux perf is not installed"
fi

# --- refusals: one line naming the input and the fix, non-zero exit ---
check_bad() {	# what expected-regex args...
	local what=$1 re=$2
	shift 2
	check_refusal "$what" "$re" "$FLARE" probe "$@"
}
check_bad "no line of the file matches" "no line of probe_target.c .*matches 'zzz'" -x "$W" -D 'probe_target.c;zzz'
check_bad "a file no unit has" "no compilation unit has the source file nosuch.c" -x "$W" -D 'nosuch.c;x*'
check_bad "-s DIR without the sources" "cannot find the source file.*-s" -x "$W" -s "$PWD/none" -D 'func_2;r*'
check_bad "a variable at none of the places" "'nosuch': not found at any place" -x "$W" -D 'func_2;r* nosuch'
check_bad "-L end before start" 'start line must be smaller' -x "$W" -L 'func_2:5-3'
check_bad "-L a range without code" 'no line in this range has code' -x "$W" -L 'func_2:20-30'
check_bad "-L no such function" "'nosuch'.*-F" -x "$W" -L nosuch
check_bad "-L a bad range" 'expected FUNC' -x "$W" -L 'func_2:x'

# --- a pattern probe records what the program did ---
if [ ! -w "$T/uprobe_events" ]; then
	skip "recording a pattern probe" "this kernel has no uprobe_events in $T"
	exit 0
fi
probe_group_guard "$G"
npt=$(awk '/^int func_2\(/,/^}/' "$ROOT/tests/workloads/probe_target.c" | grep -c '^[[:space:]]*p->')
if $FLARE probe -x "$W" -a "$G:lz=func_2;p->* number" -a "$G:tot=main;total* i" >add.out 2>add.err; then
	pass "pattern probes added"
else
	fail "pattern probes added" "$(head -c 300 add.err)"
fi
check_eq "one probe per matching line of func_2 ($npt)" "$npt" "$(grep -c "$G/lz" $T/uprobe_events)"
$FLARE record -q -e "$G:*" -o lz.data "$W" 5 >/dev/null 2>rec.err
$FLARE script -i lz.data -F event,trace >f.txt 2>/dev/null
per_call=$(grep -E "$G:lz(_[0-9]+)?:" f.txt | sed -E 's/.*\) ?//' | sort | uniq -c | awk '{ print $1 }' | sort -u)
check_eq "each line's probe fires once per call" "$npt" "$per_call"
check_eq "the recorded argument: 0..4" "number=0 number=1 number=2 number=3 number=4" \
	"$(grep -E "$G:lz:" f.txt | sed -E 's/.*\) ?//' | tr '\n' ' ' | sed 's/ $//')"
nt=$(grep -c "$G/tot" $T/uprobe_events)
check_eq "main;total*: the loop variable at each of its $nt lines" "$((nt * 5))" "$(grep -cE "$G:tot(_[0-9]+)?: .*i=[0-4]$" f.txt)"
if have_perf; then
	perf script -i lz.data -F event,trace 2>/dev/null >p.txt
	check_eq "perf script reads the pattern probes alike" "$(cat p.txt)" "$(cat f.txt)"
fi
probe_group_clear "$G"
check_eq "no probe of ours left" "" "$(grep "$G/" $T/uprobe_events)"
