#!/usr/bin/env bash
# buildid-cache: flare record keeps what its samples hit in perf's build-id cache, as perf
# record does (-N: not), in perf's layout, so that flare and perf read the file after the
# binary or the kernel changed.
source "$ROOT/tests/lib.sh"

export HOME=$TMP/home
mkdir -p "$HOME"
cp "$WL/cpu_burn" "$TMP/burn"
# the getppid loop makes sure samples hit the kernel, whose build-id is then recorded
$FLARE record -q -g -o cache.data -- sh -c "'$TMP/burn' 0.2 && '$WL/getppid_n' 3000000" \
	>/dev/null 2>&1
check_eq "record exits 0" 0 $?
C=$HOME/.debug
bid=$(od -An -tx1 /sys/kernel/notes 2>/dev/null | tr -d ' \n' | grep -o '474e5500[0-9a-f]\{40\}' | head -1 | cut -c9-)
if [ -n "$bid" ]; then
	check "the kernel's kallsyms is cached under its build-id" test -s "$C/[kernel.kallsyms]/$bid/kallsyms"
	check_eq "and named by it in .build-id" "../../[kernel.kallsyms]/$bid" \
		"$(readlink "$C/.build-id/${bid:0:2}/${bid:2}")"
else
	skip "kernel kallsyms cached" "no build-id note in /sys/kernel/notes"
fi
wid=$(readelf -n "$TMP/burn" 2>/dev/null | awk '/Build ID/ { print $3 }')
check_eq "the workload is cached as perf caches it" "$(cat "$TMP/burn" | md5sum)" \
	"$(cat "$C/.build-id/${wid:0:2}/${wid:2}/elf" 2>/dev/null | md5sum)"

# the workload rebuilt (a new file, as a linker writes it, with another build-id): the
# symbols of the one recorded come from the cache
rm "$TMP/burn"
cp "$WL/mt_burn" "$TMP/burn"
$FLARE report --stdio --no-children --sort sym -i cache.data >rep.txt 2>/dev/null
check_grep "a changed binary: symbols from the cached copy" ' b$' rep.txt

rm -rf "$C"
$FLARE record -q -N -o nocache.data -- "$WL/cpu_burn" 0.1 >/dev/null 2>&1
check_eq "record -N exits 0" 0 $?
check "record -N leaves the cache alone" test ! -e "$C"

# overwritten in place, the cache's hard link changed too: nothing of the other build is used
cp "$WL/cpu_burn" "$TMP/burn"
$FLARE record -q -g -o inplace.data -- "$TMP/burn" 0.2 >/dev/null 2>&1
cp "$WL/mt_burn" "$TMP/burn"
$FLARE report --stdio --no-children --sort sym -i inplace.data >rep2.txt 2>/dev/null
if grep -qE ' (worker|work_b)$' rep2.txt; then
	fail "an overwritten binary and cache: no symbols of the other build" "$(grep -E 'worker|work_b' rep2.txt | head -2 | tr '\n' ' ')"
else
	pass "an overwritten binary and cache: no symbols of the other build"
fi
