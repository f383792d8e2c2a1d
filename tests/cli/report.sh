#!/usr/bin/env bash
# report: flare report on fresh recordings (the known call tree of cpu_burn, perf agreement on
# every row), its filters and options, the pager, and bad input.
source "$ROOT/tests/lib.sh"
FX=$TESTDATA

# rows "pct sym" of an --no-children -g none report
rows() { grep -E '^ +[0-9.]+%' "$1" | awk '{ print $1, $NF }' | tr -d '%'; }
share() { rows "$1" | awk -v s="$2" '$2 == s { print $1; f = 1 } END { if (!f) print -1 }'; }

if have_perf; then
	perf record -q -g -F 2999 -o wl.data -- "$WL/cpu_burn" 1 >/dev/null 2>&1
	check "report on perf's recording of cpu_burn" $FLARE report --stdio --no-children -g none -i wl.data
	cp "$TMP/out" wl.txt
	within "b has 60% of the samples" "$(share wl.txt b)" 60 3
	within "a has 30% of the samples" "$(share wl.txt a)" 30 3
	within "c has 10% of the samples" "$(share wl.txt c)" 10 3
	$FLARE report --stdio --no-children -i wl.data >graph.txt 2>&1
	check_grep "b is called from main in the call graph" '^ +main$' graph.txt
	$FLARE report --stdio --children -g none -i wl.data >children.txt 2>&1
	# Children: main holds every sample below it, a holds b's too
	within "main's children share is all of the tree" "$(awk '$NF == "main" { print $1 + 0 }' children.txt)" 100 5
	within "a's children share is a and b" "$(awk '$NF == "a" { print $1 + 0 }' children.txt)" 90 3
	check_eq "main has no self share" "0.00%" "$(awk '$NF == "main" { print $2 }' children.txt)"
	# every row of perf's own report, same percentage within 0.1
	perf report --stdio --no-children -n -g none --sort comm,dso,sym -i wl.data 2>/dev/null |
		grep -E '^ +[0-9.]+%' | awk '{ print $NF, $1, $2 }' | tr -d '%' | sort >perf.rows
	$FLARE report --stdio --no-children -n -g none --sort comm,dso,sym -i wl.data |
		grep -E '^ +[0-9.]+%' | awk '{ print $NF, $1, $2 }' | tr -d '%' | sort >flare.rows
	if join perf.rows flare.rows | awk 'NF == 5 { d = $2 - $4; if (d < 0) d = -d; if (d > 0.1 || $3 != $5) bad++; n++ }
	    END { exit !(n > 0 && !bad) }' && [ "$(wc -l <perf.rows)" = "$(wc -l <flare.rows)" ]; then
		pass "same rows, shares and sample counts as perf report on a fresh recording"
	else
		fail "same rows, shares and sample counts as perf report on a fresh recording" "$(diff perf.rows flare.rows | head -5 | tr '\n' ' ')"
	fi
else
	skip "report on perf's recording" "Linux perf is not installed"
fi

# flare's own recorder feeding the report
if timeout -k 5 30 $FLARE record -q -g -F 2999 -o fl.data -- "$WL/cpu_burn" 1 >/dev/null 2>rec.err; then
	$FLARE report --stdio --no-children -g none -i fl.data >fl.txt 2>&1
	within "flare record -g: b has 60%" "$(share fl.txt b)" 60 3
	within "flare record -g: a has 30%" "$(share fl.txt a)" 30 3
	within "flare record -g: c has 10%" "$(share fl.txt c)" 10 3
else
	fail "flare record -g of cpu_burn for the report" "$(head -c 200 rec.err)"
fi

"$FX/install-bins.sh"
# -n: the Samples column adds up to the header's count
$FLARE report --stdio --no-children -n -g none -i "$FX/mt.data" >n.txt
total=$(sed -n 's/^# Samples: \([0-9]*\) .*/\1/p' n.txt)
sum=$(grep -E '^ +[0-9.]+%' n.txt | awk '{ s += $2 } END { print s }')
check_eq "-n samples add up to '# Samples'" "$total" "$sum"

# filters
tid=$(perf script -F tid,comm -i "$FX/mt.data" 2>/dev/null | awk '$1 == "worker_a" { print $2; exit }')
[ -n "$tid" ] || tid=$($FLARE script -F comm,tid -i "$FX/mt.data" | awk '$1 == "worker_a" { print $2; exit }')
$FLARE report --stdio --no-children -g none --sort pid,sym --tid "$tid" -i "$FX/mt.data" >tid.txt
check_eq "--tid keeps only that thread's rows" "1" "$(grep -E '^ +[0-9.]+%' tid.txt | awk '{ print $2 }' | sort -u | wc -l)"
check_grep "--tid row is worker_a's work_a" "^ +[0-9.]+% +$tid:worker_a +\[\.\] work_a" tid.txt
$FLARE report --stdio --no-children -g none --symbols a,c -i "$FX/fp.data" >sym.txt
check_eq "--symbols a,c keeps two rows" "a c" "$(grep -E '^ +[0-9.]+%' sym.txt | awk '{ print $NF }' | sort | tr '\n' ' ' | sed 's/ $//')"
$FLARE report --stdio --no-children -g none --symbols b -i "$FX/fp.data" >sym1.txt
check_grep "--symbols with one symbol names it in the header" '^# symbol: b$' sym1.txt
$FLARE report --stdio --no-children -g none --pid 999999 -i "$FX/fp.data" >nopid.txt
check_eq "--pid of no sample leaves no rows" "0" "$(grep -cE '^ +[0-9.]+%' nopid.txt)"
$FLARE report --stdio --no-children --percent-limit 25 -g none -i "$FX/fp.data" >pl.txt
check_eq "--percent-limit 25 keeps b and a" "2" "$(grep -cE '^ +[0-9.]+%' pl.txt)"
$FLARE report --stdio --no-children -g folded -i "$FX/fp.data" >folded.txt
check_grep "-g folded prints 'pct leaf;...;root' under callee order" '^[0-9.]+% b;main;__libc_start_call_main$' folded.txt
$FLARE report --stdio --children -g graph,0.5,caller,function,count -i "$FX/fp.data" >cnt.txt
check_grep "-g ...,count prints sample counts in the graph" '[|]--[0-9]+--main$' cnt.txt
check_eq "-g ...,count prints no percentages in the graph" 0 "$(grep -c -- '--[0-9.]*%--' cnt.txt)"

# the pager: on a terminal the report goes through $PAGER
if command -v script >/dev/null; then
	PAGER="sed s/^/PAGED:/" script -qec "$FLARE report --stdio -i $FX/fp.data" /dev/null >pager.txt 2>&1
	check_grep "on a terminal the report goes through \$PAGER" '^PAGED:# Samples' pager.txt
else
	skip "pager" "no script(1) to make a terminal"
fi

# bad input: one line, non-zero exit, nothing on stdout
$FLARE report -i missing.data >o.txt 2>e.txt; rc=$?
check_eq "missing file: exit 255 as perf's" 255 "$rc"
check_eq "missing file: one line" 1 "$(wc -l <e.txt)"
check_grep "missing file: says what and the fix" "^flare: cannot open 'missing.data': .*flare record" e.txt
check_eq "missing file: nothing on stdout" 0 "$(wc -c <o.txt)"
echo "not a profile" >junk.data
$FLARE report -i junk.data >o.txt 2>e.txt; rc=$?
check_eq "junk file: exit 255 as perf's" 255 "$rc"
check_grep "junk file: names the offset" "^flare: cannot read 'junk.data': .*offset 0" e.txt
head -c 3000 "$FX/fp.data" >cut.data
$FLARE report --stdio -i cut.data >o.txt 2>e.txt; rc=$?
check_eq "truncated file: exit 0, what was read is shown (as perf)" 0 "$rc"
check_grep "truncated file: names the offset and what was lost" "cut short at offset 0x[0-9a-f]+: read [0-9]+ of" e.txt
check_grep "truncated file: the samples before the cut are shown" '%' o.txt
$FLARE report --sort bogus -i "$FX/fp.data" >o.txt 2>e.txt; rc=$?
check_eq "unknown sort key: exit 1" 1 "$rc"
check_grep "unknown sort key: one line with the keys" "^flare: unknown --sort key 'bogus' \(use comm" e.txt
check_fails "bad -g argument is refused" $FLARE report -g wibble -i "$FX/fp.data"
check_fails "bad --percent-limit is refused" $FLARE report --percent-limit x -i "$FX/fp.data"
ls -A | grep -q '^perf.data' && fail "no perf.data left behind" || pass "no perf.data left behind"
$FLARE report -g fractal -i "$FX/period.data" >o.txt 2>e.txt; rc=$?
check_eq "-g on a file without call chains: exit 1" 1 "$rc"
check_grep "-g on a file without call chains: says so and what to do" "^flare: '.*period.data' has no call chains to show with -g \(record with -g" e.txt

# stripped PIEs in several processes, one of which execs: unresolved callers are entries by
# their raw addresses (one per process) beside the sample's own by its dso address, and the
# pid key names a thread as it was last called; the same rows and shares as perf report
if have_perf; then
	cp "$WL/cpu_burn" sburn && strip sburn
	perf record -q -g -F 999 -o strip.data -- sh -c './sburn 0.2; ./sburn 0.2; exec ./sburn 0.2' \
		>/dev/null 2>&1
	for args in "--sort sym -g none" "--sort pid,dso,sym -g none" "-g folded" "--no-children"; do
		# shellcheck disable=SC2086
		perf report --stdio $args -i strip.data 2>/dev/null | grep -v '^# (Tip' | sort >p.txt
		# shellcheck disable=SC2086
		$FLARE report --stdio $args -i strip.data 2>/dev/null | grep -v '^# (Tip' | sort >f.txt
		if cmp -s p.txt f.txt; then
			pass "stripped PIEs, report $args: perf's rows"
		else
			fail "stripped PIEs, report $args: perf's rows" "$(diff p.txt f.txt | head -6 | tr '\n' '~')"
		fi
	done
else
	skip "stripped PIEs against perf report" "Linux perf is not installed"
fi

# --time: perf's ranges (absolute, open ends, several, percent slices), samples outside not
# counted; a range with no sample prints what perf prints
if have_perf; then
	fxhome=$(fixture_home)
	for t in "2175.6,2175.7" "2175.6," ",2175.54" "2175.54,2175.55 2175.6,2175.61" "10%/2" \
		 "0%-10%,30%-40%" "50%" "1,2"; do
		for fx in fp period; do
			HOME=$fxhome perf report --stdio --time "$t" -i "$TESTDATA/$fx.data" 2>/dev/null |
				grep -v '^# (Tip' >p.txt
			HOME=$fxhome $FLARE report --stdio --time "$t" -i "$TESTDATA/$fx.data" 2>f.err |
				grep -v '^# (Tip' >f.txt
			if cmp -s p.txt f.txt; then
				pass "--time '$t' on $fx: perf's report"
			else
				fail "--time '$t' on $fx: perf's report" "$(diff p.txt f.txt | head -6 | tr '\n' '~')"
			fi
		done
	done
	check_grep "--time with no sample in it: says so" "has no samples in --time '1,2'" f.err
else
	skip "report --time against perf" "Linux perf is not installed"
fi

# -C, --kallsyms, --symfs, --no-demangle: the rows perf prints (sorted: perf orders some
# entries of equal share by its rb-trees' internals)
if have_perf; then
	fxhome=$(fixture_home)
	grep -E ' (_text|schedule|__schedule|do_syscall_64|asm_sysvec_apic_timer_interrupt)$' \
		"$fxhome"/.debug/'[kernel.kallsyms]'/*/kallsyms >ks.txt
	# fp of a kernel this machine does not run (whatever it runs), its kallsyms in ~/.debug:
	# --symfs / reads the cache under / instead, so perf leaves its kernel frames unresolved
	if command -v python3 >/dev/null; then
		other_kernel_copy "$TESTDATA/fp.data" fpk.data "$fxhome"
	else
		skip "report --symfs / of another kernel's recording" "python3 is not installed"
	fi
	while IFS='|' read -r fx args; do
		d=$TESTDATA
		[ -f "$d/$fx.data" ] || d=$TMP
		[ -f "$d/$fx.data" ] || continue
		# shellcheck disable=SC2086
		HOME=$fxhome perf report --stdio $args -i "$d/$fx.data" 2>/dev/null |
			grep -v '^# (Tip' | sort >p.txt
		# shellcheck disable=SC2086
		HOME=$fxhome $FLARE report --stdio $args -i "$d/$fx.data" 2>/dev/null |
			grep -v '^# (Tip' | sort >f.txt
		if [ -s p.txt ] && cmp -s p.txt f.txt; then
			pass "report $args on $fx: perf's rows"
		else
			fail "report $args on $fx: perf's rows" "$(diff p.txt f.txt | head -6 | tr '\n' '~')"
		fi
	done <<EOT
syswide|-C 0
syswide|-C 1
syswide|-C 0-1 --no-children --sort comm,dso -g none
syswide|--cpu 1 -g none
fp|--kallsyms ks.txt
fp|--kallsyms ks.txt --no-children -g none
fp|--symfs /
fp|--symfs $TMP --no-children
fpk|--no-children
fpk|--symfs /
fpk|--symfs / --no-children -g none
fp|--no-demangle
fp|-U
syswide|-U --no-children
syswide|--hide-unresolved -g none --sort comm,dso
fp|--show-total-period
mt|-n --show-total-period --no-children
period|--show-total-period -n --sort comm,dso -g none
EOT
	HOME=$fxhome $FLARE report --stdio -C 0 -i "$TESTDATA/fp.data" >o.txt 2>e.txt
	check_eq "-C on a file without CPUs: refused, one line" "1 1 0" "$? $(wc -l <e.txt) $(wc -c <o.txt)"
	check_grep "-C on a file without CPUs: says why" "have no CPU \(record with -a" e.txt
	HOME=$fxhome $FLARE report --stdio -C 7 -i "$TESTDATA/syswide.data" >o.txt 2>e.txt
	check_grep "-C with a CPU the file has not: names the CPUs" "no CPU 7 .* \(use CPUs 0-1\)" e.txt
	HOME=$fxhome $FLARE report --stdio --kallsyms /no/such -i "$TESTDATA/fp.data" >o.txt 2>e.txt
	check_eq "--kallsyms of a missing file: exit 255 as perf, one line" "255 1" "$? $(wc -l <e.txt)"
else
	skip "report -C, --kallsyms, --symfs against perf" "Linux perf is not installed"
fi

# --stats: the records by type and the samples by event, as perf prints them
if have_perf; then
	for fx in fp syswide tp mt period dwarf; do
		perf report --stats -i "$TESTDATA/$fx.data" >p.txt 2>/dev/null
		$FLARE report --stats -i "$TESTDATA/$fx.data" >f.txt 2>f.err
		if cmp -s p.txt f.txt; then
			pass "--stats on $fx: perf's"
		else
			fail "--stats on $fx: perf's" "$(diff p.txt f.txt | head -6 | tr '\n' '~')"
		fi
	done
fi
$FLARE report --stats -i missing.data >o.txt 2>e.txt
check_eq "--stats of a missing file: exit 255, one line, nothing on stdout" "255 1 0" \
	"$? $(wc -l <e.txt) $(wc -c <o.txt)"
