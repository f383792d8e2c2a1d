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
