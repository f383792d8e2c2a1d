#!/usr/bin/env bash
# flare config against perf config 6.1 in a scratch HOME: the same file written for the same
# settings, each reads what the other wrote, -l, NAME, --user/--system, bad files and names.
source "$ROOT/tests/lib.sh"

mkdir -p hf hp
export PERF_CONFIG_SYSTEM=$TMP/system-perfconfig	# flare's: the real /etc stays untouched
HOME=$TMP/hf $FLARE config report.children=false; check_eq "config NAME=VALUE exits 0" 0 $?
HOME=$TMP/hf $FLARE config --user call-graph.record-mode=dwarf report.percent-limit=5
check_eq "config sets several at once" 3 "$(HOME=$TMP/hf $FLARE config -l | wc -l)"
check_eq "config NAME prints it" "report.children=false" "$(HOME=$TMP/hf $FLARE config report.children)"
HOME=$TMP/hf $FLARE config report.children=true
check_eq "setting again replaces the value" "report.children=true" "$(HOME=$TMP/hf $FLARE config report.children)"
if have_perf && perf config -l >/dev/null 2>&1; then
	HOME=$TMP/hp perf config report.children=false >/dev/null 2>&1
	HOME=$TMP/hp perf config --user call-graph.record-mode=dwarf report.percent-limit=5 >/dev/null 2>&1
	HOME=$TMP/hp perf config report.children=true >/dev/null 2>&1
	if cmp -s hp/.perfconfig hf/.perfconfig; then pass "the file is perf's, byte for byte"
	else fail "the file is perf's, byte for byte" "$(diff hp/.perfconfig hf/.perfconfig | tr '\n' ' ')"; fi
	check_eq "perf config -l reads flare's file" "$(HOME=$TMP/hf $FLARE config -l)" "$(HOME=$TMP/hf perf config -l 2>/dev/null)"
	printf '[top]\n\tchildren = false ; a comment\n[report]\n  queue-size = "100"\n' >>hp/.perfconfig
	check_eq "flare reads what perf reads" "$(HOME=$TMP/hp perf config -l 2>/dev/null)" "$(HOME=$TMP/hp $FLARE config -l)"
else
	skip "config against perf config" "Linux perf is not installed (apt-get install linux-perf)"
fi
printf '[report]\n\tchildren = true\n' >system-perfconfig
HOME=$TMP/hf $FLARE config report.children=false
check_eq "the user file wins over the system file" "report.children=false" "$(HOME=$TMP/hf $FLARE config report.children)"
check_eq "--system reads only the system file" "report.children=true" "$(HOME=$TMP/hf $FLARE config --system report.children)"
HOME=$TMP/hf $FLARE config --system record.build-id=no-cache
check_grep "--system NAME=VALUE writes the system file" 'build-id = no-cache' system-perfconfig
HOME=$TMP/hf $FLARE config 'annotate.objdump=x #y'
check_eq "a value with a comment character reads back" "annotate.objdump=x #y" "$(HOME=$TMP/hf $FLARE config annotate.objdump)"
HOME=$TMP/hf $FLARE config nosection 2>ns.txt; check_eq "a name without a section exits 255, as perf" 255 $?
check_grep "a name without a section: says how to name it" 'section.name' ns.txt
HOME=$TMP/hf $FLARE config 'bad name.x=1' 2>bn.txt; check_eq "a bad name is refused" 255 $?
check_grep "a bad name is refused before the file is touched" 'children = false' hf/.perfconfig
printf '[report\n' >hb/.perfconfig 2>/dev/null || { mkdir -p hb; printf '[report\n' >hb/.perfconfig; }
HOME=$TMP/hb $FLARE config -l 2>bf.txt; check_eq "a broken file exits 255" 255 $?
check_grep "a broken file: the line and what is wrong" 'perfconfig: line 1: a section is written \[name\]' bf.txt
HOME=$TMP/hf $FLARE config 2>/dev/null; check_eq "config alone prints the usage (129)" 129 $?
check "no temporary file is left" test -z "$(ls -A hf | grep -v '^.perfconfig$')"

# the keys flare honours, as perf honours them: report.children and report.percent-limit
if have_perf; then
	$FLARE record -q -g -o g.data -- "$WL/cpu_burn" 0.2 >/dev/null 2>&1
	mkdir -p hr
	printf '[report]\n\tchildren = false\n\tpercent-limit = 5\n' >hr/.perfconfig
	HOME=$TMP/hr perf report --stdio -i g.data 2>/dev/null | grep -v '^#' >pr.txt
	HOME=$TMP/hr $FLARE report --stdio -i g.data 2>/dev/null | grep -v '^#' >fr.txt
	if cmp -s pr.txt fr.txt; then pass "report honours report.children and report.percent-limit as perf"
	else fail "report honours report.children and report.percent-limit as perf" "$(diff pr.txt fr.txt | head -5 | tr '\n' ' ')"; fi
	HOME=$TMP/hr $FLARE report --stdio -i g.data >nc.txt 2>/dev/null
	HOME=$TMP/hr $FLARE report --stdio --children -i g.data >wc.txt 2>/dev/null
	mkdir -p hn
	HOME=$TMP/hn $FLARE report --stdio -i g.data >dc.txt 2>/dev/null
	check_grep "without the key, a -g file shows Children" '^# +Children +Self' dc.txt
	check "report.children=false drops the Children column" test -z "$(grep 'Children' nc.txt)"
	check_grep "the command line wins over the file (--children)" '^# +Children +Self' wc.txt
fi
