#!/usr/bin/env bash
# tpfmt: tracepoint fields printed as perf prints them, kernel addresses (%pS, %ps) named
# through the recording's kernel symbols (issue 9's "caller 0xffffffff..." gap).
source "$ROOT/tests/lib.sh"

if ! have_perf; then
	skip "tracepoint fields as perf script" "Linux perf is not installed"
	exit 0
fi
# kmem:kmalloc/kfree print call_site with %pS; workqueue and timer events a function with %ps
evs=()
for e in kmem:kmalloc kmem:kfree timer:hrtimer_start workqueue:workqueue_queue_work; do
	[ -e "/sys/kernel/tracing/events/${e%%:*}/${e#*:}/format" ] && evs+=(-e "$e")
done
if [ ${#evs[@]} -eq 0 ]; then
	skip "tracepoint fields as perf script" "this kernel has none of the kmem/timer/workqueue events"
	exit 0
fi
perf record -q -o tp.data "${evs[@]}" -a -- sleep 0.2 >/dev/null 2>&1
perf script -i tp.data >p.txt 2>/dev/null
check "script on a kmem/timer/workqueue recording" $FLARE script -i tp.data
if [ -s p.txt ] && diff p.txt "$TMP/out" >d.txt; then
	pass "same text as perf script, %pS/%ps fields included"
else
	fail "same text as perf script, %pS/%ps fields included" "$(head -6 d.txt | tr '\n' '~')"
fi
# the names are there, not raw addresses (perf's text could hold addresses on a kernel
# without kallsyms: then both agree and this says why)
if grep -Eq 'call_site=[a-z_][a-z0-9_.]*\+0x|function=[a-z_]' "$TMP/out"; then
	pass "kernel addresses are printed as symbol+offset"
elif grep -Eq 'call_site=0x|function=0x' p.txt; then
	skip "kernel addresses are printed as symbol+offset" "perf names none either (no kallsyms?)"
else
	fail "kernel addresses are printed as symbol+offset" "$(grep -m2 -E 'call_site|function' "$TMP/out")"
fi
# report --sort trace uses the same formatter
perf report -i tp.data --stdio --sort trace 2>/dev/null | grep -v '^#' | grep -v '^$' >pr.txt
$FLARE report -i tp.data --stdio --sort trace 2>/dev/null | grep -v '^#' | grep -v '^$' >fr.txt
check_eq "report --sort trace: same rows as perf" "" "$(diff pr.txt fr.txt | head -3)"
