#!/usr/bin/env bash
# Defects found by fuzzing and bad input (issue 9), each checked where it lived: script on a
# tracepoint file whose tracing data cannot be read, huge folded counts, report's lost-sample
# total against perf's, SVG well-formed whatever bytes the names hold.
source "$ROOT/tests/lib.sh"

# the data section's offset and size (perf.data header: 40 bytes in, two u64)
data_end() { od -An -t u8 -j 40 -N 16 "$1" | awk '{ print $1 + $2 }'; }

# --- script on a tracepoint recording cut at the end of its data section (its tracing data
# and event names are gone): it printed a NULL string (exit 139, UBSan in the sanitizer build)
if "$FLARE" record -q -e sched:sched_switch -a -o tp.data -- sleep 0.2 >/dev/null 2>&1; then
	head -c "$(data_end tp.data)" tp.data >cut.data
	"$FLARE" script -i cut.data >cut.out 2>cut.err
	rc=$?
	if [ $rc -eq 0 ] && [ -s cut.out ]; then
		pass "script on a file whose tracing data is cut off prints its samples"
	else
		fail "script on a file whose tracing data is cut off prints its samples" \
			"exit $rc: $(tail -c 200 cut.err)"
	fi
else
	skip "script on a file whose tracing data is cut off" "cannot record sched:sched_switch"
fi

# --- counts whose grouped digits outgrow a small buffer (39 digits: ASan caught the stack
# overflow), and sums beyond a double (frames of width NaN)
printf 'main;a 999999999999999999999999999999999999999\n' | "$FLARE" flamegraph >big.svg 2>big.err
check_grep "a 39-digit count is grouped in full" \
	'<title>main \(999,999,999,999,999(,[0-9]{3}){8} samples, 100.00%\)' big.svg
nines=$(printf '9%.0s' $(seq 400))
printf 'main;a %s\n' "$nines" | "$FLARE" flamegraph >inf.svg 2>inf.err
rc=$?
if [ $rc -eq 1 ] && grep -q "past a double's range" inf.err && ! grep -q nan inf.svg; then
	pass "a count beyond a double is refused with a reason"
else
	fail "a count beyond a double is refused with a reason" "exit $rc: $(head -c 200 inf.err)"
fi
printf 'main;a 1%0300d\n' 0 | "$FLARE" flamegraph --factor 1e300 >fac.svg 2>fac.err
check_eq "--factor taking the total past a double is refused" 1 $?
printf 'main;a 5\n' | "$FLARE" flamegraph --fontwidth 1e-300 >fw.svg 2>fw.err
check_eq "a tiny --fontwidth draws" 0 $?

# --- the SVG stays well-formed XML: control bytes, bytes that are not UTF-8, '&' in
# --countname
printf 'main;a\001b;c\377\376d 5\nmain;\303\251t\303\251 3\n' |
	"$FLARE" flamegraph --countname 'a&b' >x.svg 2>x.err
if command -v xmllint >/dev/null; then
	check "names with control and non-UTF-8 bytes give well-formed XML" xmllint --noout x.svg
else
	skip "names with control and non-UTF-8 bytes give well-formed XML" "xmllint not installed"
fi
check_grep "--countname '&' is escaped" '<title>main \(8 a&amp;b, 100.00%\)' x.svg
check_grep "valid UTF-8 names are kept" '<title>été \(3 a&amp;b' x.svg
check_grep "a byte that is no XML character becomes U+FFFD" '<title>a&#xfffd;b ' x.svg

# --- report's Total Lost Samples is perf's (LOST_SAMPLES only; LOST records count the same
# samples again), on files with LOST records made here by perf and by flare
lost_total() { sed -n 's/^# Total Lost Samples: \([0-9]*\)$/\1/p' "$1" | head -1; }
if have_perf; then
	for rec in perf "$FLARE"; do
		who=$(basename "$rec")
		"$rec" record -q -e raw_syscalls:sys_enter -a -m 1 -o "lost-$who.data" -- \
			dd if=/dev/zero of=/dev/null bs=1 count=200000 >/dev/null 2>&1
		perf report -i "lost-$who.data" --stdio >p.out 2>/dev/null
		"$FLARE" report -i "lost-$who.data" --stdio >f.out 2>/dev/null
		if [ "$(lost_total p.out)" = 0 ] || [ -z "$(lost_total p.out)" ]; then
			skip "Total Lost Samples = perf's on a $who recording" "nothing was lost"
			continue
		fi
		check_eq "Total Lost Samples = perf's on a $who recording with LOST records" \
			"$(lost_total p.out)" "$(lost_total f.out)"
	done
else
	skip "Total Lost Samples = perf's" "perf not installed"
fi

# --- readers are bounded: /dev/zero and an endless line fail at once with a reason
timeout 20 "$FLARE" flamegraph -i /dev/zero >z.svg 2>z.err
rc=$?
if [ $rc -eq 1 ] && grep -q "NUL bytes" z.err; then
	pass "flamegraph -i /dev/zero is refused at once"
else
	fail "flamegraph -i /dev/zero is refused at once" "exit $rc: $(head -c 200 z.err)"
fi
yes abcdefghijklmnopqrstuvwxyz | tr -d '\n' | timeout 60 "$FLARE" flamegraph >l.svg 2>l.err
rc=${PIPESTATUS[2]}
if [ "$rc" -eq 1 ] && grep -q "line longer than" l.err; then
	pass "an endless line of text is refused"
else
	fail "an endless line of text is refused" "exit $rc: $(head -c 200 l.err)"
fi
"$FLARE" record -q -g -o k.data -- "$WL/cpu_burn" 0.05 >/dev/null 2>&1
timeout 20 "$FLARE" report -i k.data --kallsyms /dev/zero --stdio >kz.out 2>kz.err
rc=$?
if [ $rc -ne 0 ] && [ $rc -ne 124 ] && grep -q "not a kallsyms file" kz.err; then
	pass "report --kallsyms /dev/zero is refused at once"
else
	fail "report --kallsyms /dev/zero is refused at once" "exit $rc: $(head -c 200 kz.err)"
fi

# --- --cp neither follows a symlinked ./palette.map nor writes through it
mkdir cp && echo keep >cp/target && ln -s target cp/palette.map
(cd cp && printf 'main;a 5\n' | "$FLARE" flamegraph --cp >g.svg 2>g.err)
check_eq "--cp does not write through a symlinked palette.map" keep "$(cat cp/target)"
check_grep "--cp says why it refuses the symlink" "symbolic link" cp/g.err
rm cp/palette.map
(cd cp && printf 'main;a 5\n' | "$FLARE" flamegraph --cp >g.svg 2>g.err)
check_grep "--cp writes a new palette.map" '^main->rgb\(' cp/palette.map

# --- stat's status says when its counts could not be written
"$FLARE" stat -e task-clock true 2>/dev/full
check_eq "stat exits 1 when standard error is full" 1 $?
"$FLARE" stat -e task-clock -o /dev/full true 2>/dev/null
check_eq "stat -o /dev/full exits 1" 1 $?
"$FLARE" stat -e task-clock true 2>/dev/null
check_eq "stat exits 0 when its counts are written" 0 $?
