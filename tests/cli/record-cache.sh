#!/usr/bin/env bash
# record-cache: record fills perf's build-id cache from the build-ids it found while recording
# (not by reading its file back): only for a file, not with -B, nor for a device or a pipe,
# whose data cannot be read back by either tool.
source "$ROOT/tests/lib.sh"

export HOME=$TMP/home
C=$HOME/.debug
cp "$WL/cpu_burn" "$TMP/burn"
wid=$(readelf -n "$TMP/burn" 2>/dev/null | awk '/Build ID/ { print $3 }')
cached() { test -s "$C/.build-id/${wid:0:2}/${wid:2}/elf"; }

mkdir -p "$HOME"
$FLARE record -q -B -o nobid.data -- "$TMP/burn" 0.1 >/dev/null 2>&1
check_eq "record -B exits 0" 0 $?
check "record -B (no BUILD_ID feature) leaves the cache alone" test ! -e "$C"

$FLARE record -q -o /dev/null -- "$TMP/burn" 0.1 >/dev/null 2>&1
check_eq "record -o /dev/null exits 0" 0 $?
check "record -o /dev/null leaves the cache alone" test ! -e "$C"

$FLARE record -q -o - -- "$TMP/burn" 0.1 2>/dev/null | cat >pipe.data
check "record -o - leaves the cache alone" test ! -e "$C"

$FLARE record -q -o file.data -- "$TMP/burn" 0.2 >/dev/null 2>&1
check_eq "record -o file.data exits 0" 0 $?
if cached; then
	pass "record -o file.data caches the workload"
else
	fail "record -o file.data caches the workload" "$(find "$C" 2>/dev/null | head -5 | tr '\n' ' ')"
fi
check_eq "the copy is the workload" "$(md5sum <"$TMP/burn")" \
	"$(md5sum <"$C/.build-id/${wid:0:2}/${wid:2}/elf" 2>/dev/null)"
# what the cache got is what the file's BUILD_ID feature names
$FLARE buildid-list -i file.data 2>/dev/null | awk '{ print $1 }' | sort >listed.txt
check_grep "the file names the workload's build-id" "^$wid\$" listed.txt
