#!/usr/bin/env bash
# script: flare script against perf script on a fresh recording, its filters, -D, the folded
# stacks FlameGraph-style tools make of it, and bad input.
source "$ROOT/tests/lib.sh"
FX=$TESTDATA
"$FX/install-bins.sh"

if have_perf; then
	perf record -q -g -F 999 -o wl.data -- "$WL/mt_burn" 0.4 >/dev/null 2>&1
	perf script -i wl.data >perf.txt 2>/dev/null
	check "script on perf's recording of mt_burn" $FLARE script -i wl.data
	if diff perf.txt "$TMP/out" >d.txt; then
		pass "same text as perf script on a fresh recording"
	else
		fail "same text as perf script on a fresh recording" "$(head -6 d.txt | tr '\n' '~')"
	fi
	perf script -F comm,tid,time,ip,sym,dso --ns -i wl.data >perf2.txt 2>/dev/null
	$FLARE script -F comm,tid,time,ip,sym,dso --ns -i wl.data >flare2.txt 2>&1
	check_eq "same text as perf script -F comm,tid,time,ip,sym,dso --ns" "" "$(diff perf2.txt flare2.txt | head -3)"
	# what stackcollapse-perf.pl makes of it (flare's port of it) is the same too
	$FLARE flamegraph --folded <perf.txt | sort >perf.folded 2>/dev/null
	$FLARE script -i wl.data | $FLARE flamegraph --folded 2>/dev/null | sort >flare.folded
	if [ -s perf.folded ] && cmp -s perf.folded flare.folded; then
		pass "folded stacks of flare script equal those of perf script"
	else
		fail "folded stacks of flare script equal those of perf script" "$(diff perf.folded flare.folded | head -4 | tr '\n' ' ')"
	fi
else
	skip "script on perf's recording" "Linux perf is not installed"
fi

# filters
$FLARE script -F comm,tid --comm worker_b -i "$FX/mt.data" >c.txt
check_eq "--comm keeps only that command" "worker_b" "$(awk '{ print $1 }' c.txt | sort -u)"
tid=$(head -1 c.txt | awk '{ print $2 }')
$FLARE script -F tid --tid "$tid" -i "$FX/mt.data" >t.txt
check_eq "--tid keeps only that thread" "$tid" "$(awk '{ print $1 }' t.txt | sort -u)"
check_eq "--comm and --tid agree on the count" "$(wc -l <c.txt)" "$(wc -l <t.txt)"
$FLARE script -G -F ip,sym -i "$FX/fp.data" >g.txt
check_eq "-G prints one line per sample" "$(grep -c 'cpu-clock' "$FX/golden/055.txt")" "$(wc -l <g.txt)"

# -D: every record, with offsets and a hex dump
$FLARE script -D -i "$FX/fp.data" >dump.txt
check_grep "-D starts with the first record's offset and type" "^0x108@.*fp.data \[0x50\]: event: 69$" dump.txt
check_grep "-D dumps the bytes" '^\.  0000:  45 00 00 00 00 00 50 00' dump.txt
check_eq "-D shows every sample" "$(grep -c 'cpu-clock' "$FX/golden/055.txt")" "$(grep -c ': PERF_RECORD_SAMPLE' dump.txt)"
check_grep "-D decodes COMM" 'PERF_RECORD_COMM exec: cpu_burn:' dump.txt

# bad input
$FLARE script -F cpu -i "$FX/fp.data" >o.txt 2>e.txt; rc=$?
check_eq "-F cpu on a per-task file: exit 1" 1 "$rc"
check_grep "-F cpu on a per-task file: says why and what to do" "^flare: samples of 'cpu-clock:pppH?' .* have no CPU \(record with -a" e.txt
check_fails "-F with an unknown field is refused" $FLARE script -F comm,bogus -i "$FX/fp.data"
$FLARE script -i missing.data >o.txt 2>e.txt; rc=$?
check_eq "missing file: exit 1 with one line" "1 1" "$rc $(wc -l <e.txt)"
echo junk >junk.data
check_fails "junk file is refused" $FLARE script -i junk.data
check_fails "junk file is refused by -D" $FLARE script -D -i junk.data
