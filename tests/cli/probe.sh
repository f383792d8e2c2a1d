#!/usr/bin/env bash
# flare probe: uprobe definitions equal to perf probe's on the same binary (-D), -F/-V/-L/-l
# as perf lists them, probes that record what the bundled program did (read back by flare
# script and perf script), libc's malloc and inet_pton, kernel forms refused cleanly, and
# tracefs left as it was. Only probes of the group probe_flaretest are added and removed.
source "$ROOT/tests/lib.sh"

T=/sys/kernel/tracing
G=probe_flaretest
W=$WL/probe_target
SRC=$ROOT/tests/workloads/probe_target.c
LIBC=$(realpath /lib/x86_64-linux-gnu/libc.so.6 2>/dev/null)
if [ ! -w "$T/uprobe_events" ]; then
	skip "flare probe" "this kernel has no uprobe_events in $T"
	exit 0
fi
if [ ! -x "$W" ]; then
	fail "flare probe" "the workload $W is not built"
	exit 0
fi
probe_group_guard "$G"
enabled_before=$(grep -l '^1' $T/events/$G/*/enable 2>/dev/null | wc -l)

line_of() { grep -n -m1 -F -- "$1" "$SRC" | cut -d: -f1; }
F2=$(line_of 'int func_2(int number')
MAIN=$(line_of 'int main(int argc')
REL_CALL=$(($(line_of 'r = func_1(number);') - F2))
REL_RET=$(($(line_of 'return r + 1;') - F2))
LOOP=$(line_of 'total += func_2(i, &pt);')
NAMEOF=$(line_of 'const char *name_of(int i)')

# --- definitions (-D) equal perf probe's for every form perf 6.1 supports ---
forms=(
	'func_2'
	'func_2 number p'
	'func_2 number p->x p->y p->name:string'
	'func_2 num=number:u16 p->x:x32'
	'func_1%return $retval'
	'name_of%return +0($retval):string'
	'twice'
	'helper'
	'helper v'
	"func_2:$REL_CALL number"
	"probe_target.c:$NAMEOF i"
	"probe_target.c:$LOOP i"
	"main:$((LOOP - MAIN)) i n"
	'func_1 %di'
	'func_1 val=%di:s32 +0(%sp):x64'
	'main $vars'
	'func_2 $params'
	'myev=func_2 number'
	'mygrp:myev=func_1'
)
if have_perf; then
	for f in "${forms[@]}"; do
		perf probe -x "$W" -D "$f" 2>perr.txt | sort -u >p.def
		$FLARE probe -x "$W" -D "$f" 2>ferr.txt | sort -u >f.def
		if [ ! -s p.def ]; then
			fail "-D '$f'" "perf gave nothing: $(head -c 200 perr.txt)"
		else
			check_eq "-D '$f' equals perf probe -D" "$(cat p.def)" "$(cat f.def)"
		fi
	done
	# +OFFS and a raw address, at an instruction boundary taken from the line table
	base=$($FLARE probe -x "$W" -D func_2 | sed 's/.*:0x//')
	at=$($FLARE probe -x "$W" -D "func_2:$REL_CALL" | sed 's/.*:0x//')
	off=$((0x$at - 0x$base))
	check_eq "-D 'func_2+$off number' equals perf's" "$(perf probe -x "$W" -D "func_2+$off number" 2>/dev/null)" \
		"$($FLARE probe -x "$W" -D "func_2+$off number" 2>/dev/null)"
	addr=0x$(readelf -sW "$W" | awk '$8 == "func_1" { print $2 }' | sed 's/^0*//')
	check_eq "-D '$addr' (raw address) equals perf's" "$(perf probe -x "$W" -D "$addr" 2>/dev/null)" \
		"$($FLARE probe -x "$W" -D "$addr" 2>/dev/null)"
	for f in malloc 'malloc%return' inet_pton; do
		check_eq "-D '$f' in libc equals perf's" "$(perf probe -x "$LIBC" -D "$f" 2>/dev/null)" \
			"$($FLARE probe -x "$LIBC" -D "$f" 2>/dev/null)"
	done
	# -n: the same "Added new event" lines as perf's dry run
	perf probe -x "$W" -n 'func_2 number p->x' 2>&1 | sed 's/perf/flare/g' >p.dry
	$FLARE probe -x "$W" -n 'func_2 number p->x' >f.dry 2>&1
	check_eq "-n prints perf's messages" "$(cat p.dry)" "$(cat f.dry)"
	# -F, -V, -L list what perf lists
	check_eq "-F equals perf probe -F" "$(perf probe -x "$W" -F 2>/dev/null)" "$($FLARE probe -x "$W" -F)"
	check_eq "-F 'func*' equals perf's" "$(perf probe -x "$W" -F 'func*' 2>/dev/null)" "$($FLARE probe -x "$W" -F 'func*')"
	check_eq "-F on libc equals perf's" "$(perf probe -x "$LIBC" -F 2>/dev/null | md5sum)" \
		"$($FLARE probe -x "$LIBC" -F | md5sum)"
	for v in func_2 main "func_2:$REL_CALL" twice helper; do
		check_eq "-V '$v' equals perf probe -V" "$(perf probe -x "$W" -V "$v" 2>/dev/null)" \
			"$($FLARE probe -x "$W" -V "$v" 2>&1)"
	done
	for l in func_2 main name_of helper cu2_entry; do
		check_eq "-L '$l' equals perf probe -L" "$(perf probe -x "$W" -L "$l" 2>/dev/null)" \
			"$($FLARE probe -x "$W" -L "$l" 2>&1)"
	done
else
	skip "comparisons with perf probe" "Linux perf is not installed"
fi
check_eq "default group: probe_<binary name up to '.' or '-'>" "p:probe_libc/malloc" \
	"$($FLARE probe -x "$LIBC" -D malloc | cut -d' ' -f1)"

# --- refusals: one line naming the part and the fix, nothing written ---
check_bad() {	# what expected-regex args...
	local what=$1 re=$2
	shift 2
	check_refusal "$what" "$re" "$FLARE" probe "$@"
}
check_bad "no such function" "'nosuch'.*flare probe -x .* -F" -x "$W" -a nosuch
check_bad "no such variable" "'nosuch'.*-V" -x "$W" -a 'func_2 nosuch'
check_bad "no such member" "no member 'zz' in struct point" -x "$W" -a 'func_2 p->zz'
check_bad "\$retval on an entry probe" 'only available on a %return' -x "$W" -a 'func_2 $retval'
check_bad "a line with no code" 'no code|shares its address' -x "$W" -a 'func_2:1000'
check_bad "a bad definition" 'invalid probe definition' -x "$W" -a 'func_2%retur'
check_bad "no such binary" "cannot open './nosuch'" -x ./nosuch -a main
cp "$W" stripped && strip -g stripped
check_bad "no debug info: where it was looked for, what provides it" \
	'has no debug information.*/usr/lib/debug/\.build-id/../[0-9a-f]+\.debug.*build it with -g' \
	-x ./stripped -a 'func_2 number'
check_bad "all or none: one bad definition adds nothing" "nosuch" -x "$W" -a "$G:good=func_2" -a "$G:bad=nosuch"
check_eq "nothing was added by the refusals" "" "$(grep "$G/" $T/uprobe_events)"

# --- kernel forms: definitions as perf prints them, adding refused with why ---
kforms=('tcp_sendmsg bytes=%cx' 'tcp_sendmsg+0 size=%cx:u64 skc_state=+18(%si):u8' 'tcp_sendmsg%return $retval')
for f in "${kforms[@]}"; do
	if have_perf; then
		check_eq "kernel -D '$f' equals perf's" "$(perf probe -D "$f" 2>/dev/null)" "$($FLARE probe -D "$f" 2>&1)"
	else
		check_grep "kernel -D '$f'" '^p:probe/tcp_sendmsg _text\+[0-9]+' <($FLARE probe -D "$f")
	fi
done
if [ -e $T/kprobe_events ]; then
	skip "kernel probes refused" "this kernel has kprobe_events"
else
	check_bad "kernel probe refused: no kprobe_events, use -x" 'CONFIG_KPROBE_EVENTS.*-x' 'tcp_sendmsg bytes=%cx'
	check_eq "kernel probe exit status as perf's (254)" 254 "$($FLARE probe 'tcp_sendmsg bytes=%cx' 2>/dev/null; echo $?)"
fi

# --- add, list, record, script ---
at=$($FLARE probe -x "$W" -D "func_2:$REL_CALL" | sed 's/.*:0x//')
base=$($FLARE probe -x "$W" -D func_2 | sed 's/.*:0x//')
off=$((0x$at - 0x$base))
if $FLARE probe -x "$W" -a "$G:f2=func_2 number p->x p->name:string p->flags" \
	-a "$G:f1r=func_1%return \$retval" -a "$G:nr=name_of%return +0(\$retval):string" \
	-a "$G:tw=twice" -a "$G:hp=helper v" -a "$G:ln=func_2:$REL_CALL number" \
	-a "$G:src=probe_target.c:$LOOP i" -a "$G:off=func_2+$off number" \
	-a "$G:reg=func_1 val=%di:s32" >add.out 2>add.err; then
	pass "several probes added at once"
else
	fail "several probes added at once" "$(head -c 400 add.err)"
fi
check_grep "Added new events: perf's lines" "^  $G:f2 +\(on func_2 in $W with number x=p->x name=p->name:string flags=p->flags\)$" add.err
check_grep "the one-liner to use them" "^	flare record -e $G:reg -aR sleep 1$" add.err
check_grep "an inlined function gets one probe per copy" "^  $G:tw_1 " add.err
check_grep "a static function in two units gets one probe each" "^  $G:hp_1 " add.err
if have_perf; then
	check_eq "-l equals perf probe -l" "$(perf probe -l "$G:*" 2>/dev/null)" "$($FLARE probe -l "$G:*")"
fi
check_bad "an existing name is refused without -f" 'already exists.*-f' -x "$W" -a "$G:f2=func_2"
$FLARE probe -q -f -x "$W" -a "$G:f2=func_2" 2>/dev/null
check_eq "-f adds a numbered duplicate" 1 "$(grep -c "$G/f2_1 " $T/uprobe_events)"
$FLARE probe -q -d "$G:f2_1"
check_eq "-d removes exactly that one" "0 1" "$(grep -c "$G/f2_1 " $T/uprobe_events) $(grep -c "$G/f2 " $T/uprobe_events)"

$FLARE record -q -e "$G:*" -o p.data "$W" 5 >/dev/null 2>rec.err
check "flare record -e '$G:*' with a command" test -s p.data
$FLARE script -i p.data -F event,trace >f.txt 2>/dev/null
vals() { grep -E "$G:$1:" f.txt | sed -E "s/.*\) ?//" | tr '\n' ' ' | sed 's/ $//'; }
cnt() { grep -cE "$G:$1:" f.txt; }
check_eq "entry: argument and member values" \
	'number=0 x=1 name="pt" flags=0 number=1 x=1 name="pt" flags=1 number=2 x=2 name="pt" flags=2 number=3 x=4 name="pt" flags=3 number=4 x=7 name="pt" flags=4' "$(vals f2)"
check_eq "%return \$retval" 'arg1=0x0 arg1=0x2 arg1=0x4 arg1=0x6 arg1=0x8' "$(vals f1r)"
check_eq "%return string" 'arg1="even" arg1="odd" arg1="even" arg1="odd" arg1="even"' "$(vals nr)"
check_eq "inlined copies: 2 per iteration" 10 "$(( $(cnt tw) + $(cnt tw_1) ))"
check_eq "static helper in two units: each called 5 times" "5 5" "$(cnt hp) $(cnt hp_1)"
check_eq "static helper: its argument" 'v=0 v=1 v=2 v=3 v=4' "$(vals hp)"
check_eq "FUNC:RLN: values at the line" 'number=0 number=1 number=2 number=3 number=4' "$(vals ln)"
check_eq "SRC:LINE: a loop variable" 'i=0 i=1 i=2 i=3 i=4' "$(vals src)"
check_eq "FUNC+OFFS" 'number=0 number=1 number=2 number=3 number=4' "$(vals off)"
check_eq "%REG with a type" 'val=0 val=1 val=2 val=3 val=4' "$(vals reg)"
grep -q 'name="pt"' f.txt && grep -qE '\([0-9a-f]+\) number=0' <($FLARE script -i p.data 2>/dev/null) &&
	pass "script: (address) args, strings quoted" || fail "script: (address) args, strings quoted" "$(head -3 f.txt)"
grep -qE "$G:f1r: \([0-9a-f]+ <- [0-9a-f]+\)" <($FLARE script -i p.data 2>/dev/null) &&
	pass "script: return probes show (func <- caller)" || fail "script: return probes show (func <- caller)" "$(grep f1r f.txt | head -1)"
if have_perf; then
	perf script -i p.data -F event,trace 2>/dev/null >p.txt
	check_eq "perf script reads flare's recording with the same values" "$(cat p.txt)" "$(cat f.txt)"
fi
$FLARE stat -x, -e "$G:f2" -e "$G:hp" "$W" 7 >/dev/null 2>stat.txt
check_eq "flare stat counts probe events" "7 7" "$(cut -d, -f1 stat.txt | grep -E '^[0-9]+$' | tr '\n' ' ' | sed 's/ $//')"
$FLARE record -q -e "$G:f2" --filter 'number > 2' -o filt.data "$W" 5 >/dev/null 2>&1
check_eq "record --filter on a probe argument" 'number=3 number=4' \
	"$($FLARE script -i filt.data -F trace 2>/dev/null | grep -oE 'number=[0-9]+' | tr '\n' ' ' | sed 's/ $//')"

$FLARE record -q -e "$G:f2" --filter 'nosuch > 2' -o bad.data "$W" 5 >/dev/null 2>filt.err
check_grep "record --filter: an unknown field is named, with the event's fields" \
	"'nosuch' is not a field of the event \(its fields: __probe_ip number x name flags\)" filt.err
check_eq "record --filter: refused before anything is recorded" "" "$(ls bad.data 2>/dev/null)"
# the one-liner flare probe prints: -aR
$FLARE record -e "$G:f2" -aR -o ar.data "$W" 3 >/dev/null 2>&1
check_eq "the printed one-liner (record -e EVENT -aR CMD) records" 3 \
	"$($FLARE script -i ar.data -F event 2>/dev/null | grep -c "$G:f2:")"
# no command, no target: the whole system until Ctrl-C
$FLARE record -e "$G:f2" -o all.data >/dev/null 2>all.err &
rpid=$!
sleep 1
"$W" 4 >/dev/null
kill -INT $rpid
wait $rpid
check_eq "record with no command and no target: whole system until SIGINT" 4 \
	"$($FLARE script -i all.data -F event 2>/dev/null | grep -c "$G:f2:")"

# --- libc: malloc entry and %return, inet_pton with a call graph ---
if $FLARE probe -q -x "$LIBC" -a "$G:malloc=malloc" -a "$G:malloc_ret=malloc%return" \
	-a "$G:inet_pton=inet_pton" 2>libc.err; then
	$FLARE record -q -e "$G:malloc" -e "$G:malloc_ret" -o m.data "$W" 3 >/dev/null 2>&1
	m=$($FLARE script -i m.data -F event 2>/dev/null | grep -c "$G:malloc:")
	mr=$($FLARE script -i m.data -F event 2>/dev/null | grep -c "$G:malloc_ret:")
	[ "$m" -ge 1 ] && [ "$m" = "$mr" ] && pass "libc malloc: entries ($m) and returns match" ||
		fail "libc malloc: entries and returns match" "$m entries, $mr returns"
	$FLARE record -q -g -e "$G:inet_pton" -o i.data "$W" 4 >/dev/null 2>&1
	$FLARE script -i i.data 2>/dev/null >i.txt
	check_eq "inet_pton: one sample per call" 4 "$(grep -c "$G:inet_pton:" i.txt)"
	check_grep "inet_pton: the call graph starts at inet_pton in libc" '^[[:space:]]+[0-9a-f]+ __GI___inet_pton\+0x0 \(.*libc\.so\.6\)$' i.txt
	if have_perf; then
		check_eq "inet_pton: perf script prints the same call graphs" \
			"$(perf script -i i.data -F event,trace,ip,sym,dso 2>/dev/null)" \
			"$($FLARE script -i i.data -F event,trace,ip,sym,dso 2>/dev/null)"
	fi
	# per-event terms: max-stack, call-graph=dwarf
	$FLARE record -q -e "$G:inet_pton/max-stack=1/" -o ms.data "$W" 2 >/dev/null 2>&1
	check_eq "inet_pton/max-stack=1/: one frame per sample" 2 \
		"$($FLARE script -i ms.data 2>/dev/null | grep -cE '^[[:space:]]+[0-9a-f]+ ')"
	$FLARE record -q -e "$G:f2/call-graph=dwarf/" -o cgd.data "$W" 2 >/dev/null 2>&1
	if have_perf; then
		check_grep "f2/call-graph=dwarf/: perf script unwinds flare's recording to main" \
			'^[[:space:]]+[0-9a-f]+ main\+0x[0-9a-f]+ \(.*probe_target\)$' \
			<(perf script -i cgd.data 2>/dev/null)
	fi
else
	fail "libc probes added" "$(head -c 300 libc.err)"
fi

# --- SDT markers (python's .note.stapsdt): listed, defined as perf's, recorded ---
PY=
for c in /usr/bin/python3 $(command -v python3 2>/dev/null); do
	c=$(realpath "$c" 2>/dev/null) || continue
	if readelf -n "$c" 2>/dev/null | grep -q stapsdt; then PY=$c; break; fi
done
if [ -n "$PY" ]; then
	check_grep "-F lists the SDT markers" '^%sdt_python:function__entry$' <($FLARE probe -x "$PY" -F)
	if have_perf; then
		for e in '%sdt_python:function__entry' 'sdt_python:line' '%gc__start'; do
			check_eq "SDT -D '$e' equals perf's" "$(perf probe -x "$PY" -D "$e" 2>/dev/null)" \
				"$($FLARE probe -x "$PY" -D "$e" 2>&1)"
		done
	fi
	if $FLARE probe -q -x "$PY" -a "$G:pyentry=%sdt_python:function__entry" 2>sdt.err; then
		$FLARE record -q -e "$G:pyentry" -o py.data "$PY" -S -c 'def f(): pass
for i in range(7): f()' >/dev/null 2>&1
		if have_perf; then
			perf record -q -e "$G:pyentry" -o ppy.data "$PY" -S -c 'def f(): pass
for i in range(7): f()' >/dev/null 2>&1
			check_eq "SDT: as many samples as perf record gets" \
				"$(perf script -i ppy.data -F event 2>/dev/null | grep -c "$G:pyentry:")" \
				"$($FLARE script -i py.data -F event 2>/dev/null | grep -c "$G:pyentry:")"
		fi
		# python 3.11 fires it only where the interpreter loop is entered (not on inlined
		# Python-to-Python calls), and only while the semaphore says someone listens
		n=$($FLARE script -i py.data -F event 2>/dev/null | grep -c "$G:pyentry:")
		[ "$n" -ge 1 ] && pass "SDT marker guarded by a semaphore fires ($n times)" ||
			fail "SDT marker guarded by a semaphore fires" "$n samples"
	else
		fail "SDT probe added" "$(head -c 300 sdt.err)"
	fi
else
	skip "SDT markers" "no python3 with .note.stapsdt here"
fi

# --- nothing left behind ---
probe_group_clear "$G"
check_eq "-d '$G:*' removes all ours" "" "$(grep "$G/" $T/uprobe_events)"
check_eq "no event of ours left enabled" 0 "$enabled_before"
check_bad "-d of nothing fails as perf's" 'does not hit any event' -d "$G:nothing_here"
