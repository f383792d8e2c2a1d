#!/usr/bin/env bash
# flare list: the SDT events of the build-id cache (perf buildid-cache --add BIN caches a
# binary's .note.stapsdt markers; perf list shows them as sdt_PROVIDER:NAME [SDT event], with
# @PATH(BUILD-ID) when two cached objects have the same one), compared with perf list on the
# same cache, in a HOME of this test's own.
source "$ROOT/tests/lib.sh"

SDT=
for c in /usr/bin/python3 /usr/bin/python3.* /usr/lib/x86_64-linux-gnu/libstdc++.so.6; do
	c=$(realpath "$c" 2>/dev/null) || continue
	if readelf -n "$c" 2>/dev/null | grep -q stapsdt; then SDT=$c; break; fi
done
if [ -z "$SDT" ]; then
	skip "SDT events in flare list" "no binary with .note.stapsdt here (python3, libstdc++)"
	exit 0
fi
export HOME=$TMP/home
unset PERF_BUILDID_DIR
mkdir -p "$HOME"
check_eq "an empty cache: no SDT events" "" "$($FLARE list sdt 2>&1)"
if ! have_perf; then
	skip "SDT events compared with perf list" "Linux perf is not installed"
	exit 0
fi
perf buildid-cache --add "$SDT" 2>/dev/null
# a second build of the same binary (a copy with another build-id) has the same markers
bid=$(readelf -n "$SDT" | sed -n 's/.*Build ID: *//p' | head -1)
python3 - "$SDT" other.bin "$bid" <<'PY'
import sys
data = bytearray(open(sys.argv[1], 'rb').read())
bid = bytes.fromhex(sys.argv[3])
i = data.find(bid)
data[i] ^= 0xff
open(sys.argv[2], 'wb').write(data)
PY
perf buildid-cache --add "$PWD/other.bin" 2>/dev/null
n=$(perf list --raw-dump sdt | wc -w)
[ "$n" -gt 0 ] && pass "perf cached $n SDT events of $SDT and its copy" ||
	fail "perf cached SDT events" "perf list sdt shows none"
check_eq "list sdt equals perf's (names, @PATH(BUILD-ID) for repeats)" "$(perf list sdt 2>&1)" "$($FLARE list sdt 2>&1)"
check_eq "list --raw-dump sdt equals perf's" "$(perf list --raw-dump sdt 2>&1)" "$($FLARE list --raw-dump sdt 2>&1)"
prov=$(perf list --raw-dump sdt | tr ' ' '\n' | grep -m1 . | cut -d: -f1)
ev=$(perf list --raw-dump sdt | tr ' ' '\n' | grep -m1 . | cut -d: -f2)
check_eq "list '$prov:*' equals perf's" "$(perf list "$prov:*" 2>&1)" "$($FLARE list "$prov:*" 2>&1)"
check_eq "list '$ev' (a word) equals perf's" "$(perf list "$ev" 2>&1)" "$($FLARE list "$ev" 2>&1)"
check_grep "full list: the SDT events after the tracepoints" "^  $prov:$ev.* +\[SDT event\]$" <($FLARE list 2>&1)

# flare buildid-cache --add writes the probes file perf writes, which perf list then reads
export HOME=$TMP/home2
mkdir -p "$HOME"
$FLARE buildid-cache --add "$SDT"
fp=$(find "$HOME/.debug" -name probes | head -1)
pp=$(find "$TMP/home/.debug" -path "*/$bid/probes" | head -1)
check_eq "buildid-cache --add: the probes file is perf's" "$(cat "$pp")" "$(cat "$fp" 2>/dev/null)"
check_eq "perf list sdt reads flare's cache as flare does" "$(perf list sdt 2>&1)" "$($FLARE list sdt 2>&1)"
