#!/usr/bin/env bash
# Fidelity gaps of issue 9, each compared with perf 6.1 run here on the same input: the name
# and exclusions of a cycles event that falls back to cpu-clock.
source "$ROOT/tests/lib.sh"

if ! have_perf; then
	skip "fidelity with perf" "perf not installed"
	exit 0
fi

# --- record -e cycles:MODS falls back (no PMU here) to the cpu-clock event perf names and opens
if ls /sys/bus/event_source/devices/cpu >/dev/null 2>&1; then
	skip "cycles fallback names" "this machine has a hardware PMU: cycles does not fall back"
else
	attr() { perf evlist -v -i "$1" 2>/dev/null | head -1 | grep -o '^[^:]*:[^:]*:\|exclude_guest: 1\|exclude_host: 1' | tr '\n' ' '; }
	for m in "" :k :u :h :kh :p :S :G :uG :kH :P; do
		perf record -q -e "cycles$m" -o p.data true >/dev/null 2>&1 || continue
		"$FLARE" record -q -e "cycles$m" -o f.data true >/dev/null 2>&1
		check_eq "record -e cycles$m falls back as perf's (name, exclude_guest/host)" \
			"$(attr p.data)" "$(attr f.data)"
	done
fi

# --- stat groups thousands as the locale does (perf's "%'"): not at all under C and C.UTF-8,
# with commas under en_US.UTF-8 (made here with localedef when its source is installed)
# the count column of one event's line: "1050" or "1,050"
stat_num() { LC_ALL=$1 "$2" stat -e page-faults -- "$WL/touch_pages" 5000 2>&1 >/dev/null |
	sed -n 's/^ *\([0-9][0-9.,]*\) *page-faults.*/\1/p' | head -1; }
shape() { sed 's/[0-9]/9/g'; }
for loc in C C.UTF-8; do
	p=$(stat_num $loc perf)
	f=$(stat_num $loc "$FLARE")
	check_eq "stat's count under LC_ALL=$loc is grouped as perf's ($p)" \
		"$(shape <<<"$p")" "$(shape <<<"$f")"
done
if localedef -i en_US -f UTF-8 "$TMP/en_US.UTF-8" >/dev/null 2>&1; then
	export LOCPATH=$TMP
	p=$(stat_num en_US.UTF-8 perf)
	f=$(stat_num en_US.UTF-8 "$FLARE")
	check_eq "stat's count under LC_ALL=en_US.UTF-8 is grouped as perf's ($p)" \
		"$(shape <<<"$p")" "$(shape <<<"$f")"
	unset LOCPATH
else
	skip "stat grouping under en_US.UTF-8" "cannot build the locale (install 'locales')"
fi

# --- report's default sort on tracepoint files (perf's get_default_sort_order: "trace" only
# when every event is a tracepoint, the dummy of -a included), and --sort trace keeping the
# call chains of entries under 0.5% (perf's threshold is the share truncated to whole hits)
same_report() {	# what file args...: flare's report = perf's, tips aside
	local what=$1 f=$2; shift 2
	perf report -i "$f" --stdio "$@" 2>/dev/null | grep -v '^$' | grep -v Tip >p.txt
	"$FLARE" report -i "$f" --stdio "$@" 2>/dev/null | grep -v '^$' | grep -v Tip >f.txt
	if [ -s p.txt ] && cmp -s p.txt f.txt; then
		pass "$what"
	else
		fail "$what" "$(diff p.txt f.txt | head -6 | tr '\n' ' ')"
	fi
}
header() { grep -m1 '^# *\(Children\|Overhead\)' "$1" | tr -s ' '; }
perf record -q -e sched:sched_process_exec -a -g -o exa.data -- sh -c '/bin/true; /bin/true' \
	>/dev/null 2>&1
perf report -i exa.data --stdio 2>/dev/null >p.txt
"$FLARE" report -i exa.data --stdio 2>/dev/null >f.txt
check_eq "report's default sort on a perf -a -g tracepoint file is perf's" "$(header p.txt)" \
	"$(header f.txt)"
perf record -q -e syscalls:sys_enter_openat -g -o op.data -- cat /dev/null >/dev/null 2>&1
same_report "report on a perf -g tracepoint file (no -a) sorts by trace as perf" op.data
"$FLARE" record -q -e syscalls:sys_enter_openat -a -o fopa.data -- cat /dev/null >/dev/null 2>&1
same_report "report on a flare -a tracepoint file (no dummy) sorts as perf" fopa.data
ls /usr/share/i18n/locales >/dev/null 2>&1 && many=/usr/share/i18n/locales || many=/usr/lib/x86_64-linux-gnu
perf record -q -e syscalls:sys_enter_openat -g -o many.data -- \
	sh -c "for f in $many/*; do cat \$f; done >/dev/null 2>&1" >/dev/null 2>&1
perf report -i many.data --stdio --sort trace 2>/dev/null >p.txt
"$FLARE" report -i many.data --stdio --sort trace 2>/dev/null >f.txt
check_eq "--sort trace: as many chains as perf's, entries under 0.5% too" \
	"$(grep -c -- '---' p.txt)" "$(grep -c -- '---' f.txt)"

# a uprobe hit once: perf cuts the trace output at the header's width (it formats it only
# when it compares two entries); hit more often, it does not
bin=$WL/cpu_burn
if perf probe -q -x "$bin" -a 'relbfid:burn=main' >/dev/null 2>&1; then
	perf record -q -e relbfid:burn -o up1.data -- "$bin" 0.01 >/dev/null 2>&1
	perf record -q -e relbfid:burn -o up3.data -- sh -c "$bin 0.01; $bin 0.01; $bin 0.01" \
		>/dev/null 2>&1
	perf probe -q -d 'relbfid:*' >/dev/null 2>&1
	same_report "report on a uprobe file of one hit = perf's" up1.data
	same_report "report -n on a uprobe file of three hits = perf's" up3.data -n
else
	skip "report on uprobe files" "cannot add a uprobe here"
fi
