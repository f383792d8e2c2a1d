# tests/lib.sh: sourced by every tests/cli/*.sh script (tests/run.sh sets it up).
# Each check prints one line that tests/run.sh tallies:
#   ok - <script>: <what>     FAIL - <script>: <what>: <why>     skip - <script>: <what> # <why>
# Environment: FLARE (the binary), WL (workload binaries), TESTDATA (tests/data),
# TMP (a scratch directory of this script, removed afterwards), ROOT (the source tree).
T_NAME=$(basename "$0" .sh)

pass() { echo "ok - $T_NAME: $1"; }
fail() { echo "FAIL - $T_NAME: $1${2:+: $2}"; }
skip() { echo "skip - $T_NAME: $1 # $2"; }

# check "what" cmd args...: passes when the command exits 0. Its output goes to $TMP/out.
check() {
	local what=$1; shift
	if "$@" >"$TMP/out" 2>&1; then pass "$what"; else fail "$what" "exit $? from: $*: $(tail -c 300 "$TMP/out" | tr '\n' ' ')"; fi
}
# check_fails "what" cmd args...: passes when the command exits non-zero.
check_fails() {
	local what=$1; shift
	if "$@" >"$TMP/out" 2>&1; then fail "$what" "exited 0: $*"; else pass "$what"; fi
}
# check_eq "what" expected actual
check_eq() {
	if [ "$2" = "$3" ]; then pass "$1"; else fail "$1" "expected '$2', got '$3'"; fi
}
# check_grep "what" pattern file: passes when the extended regex matches a line of file.
check_grep() {
	if grep -Eq -- "$2" "$3"; then pass "$1"; else fail "$1" "no line matches /$2/ in $3: $(head -c 300 "$3" | tr '\n' ' ')"; fi
}
# within "what" a b tolerance: |a-b| <= tolerance (numbers may be decimals)
within() {
	if awk -v a="$2" -v b="$3" -v t="$4" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= t) }'; then
		pass "$1"
	else
		fail "$1" "$2 and $3 differ by more than $4"
	fi
}
# have_perf: Linux perf is installed and runs
have_perf() { command -v perf >/dev/null 2>&1 && perf --version >/dev/null 2>&1; }
# tracefs_enabled_events: prints enabled events in tracefs (should be none after flare exits)
tracefs_leftovers() {
	local t=/sys/kernel/tracing
	[ -d "$t/events" ] || return 0
	grep -l '^1' $t/events/*/*/enable 2>/dev/null | head
	[ -s $t/uprobe_events ] && grep -h 'flare' $t/uprobe_events 2>/dev/null
	return 0
}
# fixture_home: prints a HOME whose ~/.debug is the fixtures' build-id cache (the kallsyms of
# the kernel they were recorded on, tests/data/home), copied into $TMP: perf writes into its
# cache even when it only reads a file, and tests/data must stay as committed.
fixture_home() {
	[ -d "$TMP/fixture-home" ] || cp -r "$TESTDATA/home" "$TMP/fixture-home"
	echo "$TMP/fixture-home"
}

# buildid_entries RECORDING: one line per entry of the recording's BUILD_ID feature: the file
# offset of its 20 build-id bytes, how many of them are valid, the 20 bytes in hex, and the
# name ("/usr/bin/perf", "[kernel.kallsyms]"). Nothing for a pipe recording. Needs python3.
buildid_entries() {
	python3 - "$1" <<'PY'
import struct, sys
data = open(sys.argv[1], 'rb').read()
# the header: magic, size, attr_size, attrs, data, event_types (16 bytes each), then the
# feature bits; the feature sections follow the data section, one (offset, size) per bit
if len(data) < 104 or struct.unpack_from('<Q', data, 8)[0] < 104:
    sys.exit()  # a pipe recording: no feature sections
data_off, data_size = struct.unpack_from('<QQ', data, 40)
bits = int.from_bytes(data[72:104], 'little')
sec = data_off + data_size
for feat in range(256):
    if not bits >> feat & 1:
        continue
    off, size = struct.unpack_from('<QQ', data, sec)
    sec += 16
    pos = off
    # HEADER_BUILD_ID: records of header, pid, build_id[20], size, pad[3], filename
    while feat == 2 and pos < off + size:
        _, _, rsize = struct.unpack_from('<IHH', data, pos)
        name = data[pos + 36:pos + rsize].split(b'\0')[0].decode(errors='replace')
        print(pos + 12, data[pos + 32], data[pos + 12:pos + 32].hex(), name)
        pos += rsize
PY
}

# other_kernel_copy SRC DST HOME: DST is a copy of the recording SRC whose kernel build-id (in
# its BUILD_ID feature) is changed, as if it had been recorded on a kernel this machine does
# not run; HOME/.debug gets that kernel's kallsyms (SRC's cached one) under the new build-id,
# as perf record leaves it. Needs python3.
other_kernel_copy() {
	local off n old new
	read -r off n old < <(buildid_entries "$1" |
		awk '$4 == "[kernel.kallsyms]" { print $1, $2, $3; exit }')
	[ -n "${old:-}" ] || return 1
	new=$(python3 - "$1" "$2" "$off" "$old" <<'PY'
import sys
data = bytearray(open(sys.argv[1], 'rb').read())
off, new = int(sys.argv[3]), bytes(b ^ 0x5a for b in bytes.fromhex(sys.argv[4]))
data[off:off + 20] = new
open(sys.argv[2], 'wb').write(data)
print(new.hex())
PY
) || return 1
	[ -n "$new" ] || return 1
	mkdir -p "$3/.debug/[kernel.kallsyms]/$new"
	cp "$3/.debug/[kernel.kallsyms]/$old/kallsyms" "$3/.debug/[kernel.kallsyms]/$new/kallsyms"
}

# stale_dsos RECORDING: prints "path recorded-build-id this-machine's-build-id" for each file
# the recording's BUILD_ID feature names that this machine has no copy of: the file at its
# path has another build-id (a system binary of another patch level, e.g. /usr/bin/perf) and
# the build-id cache in $HOME/.debug holds none. Their frames cannot be named here as they
# were where the recording was made. Needs python3 and readelf; prints nothing without them.
stale_dsos() {
	command -v python3 >/dev/null && command -v readelf >/dev/null || return 0
	buildid_entries "$1" | while read -r _ n hex path; do
		[ "${path:0:1}" = / ] || continue
		id=${hex:0:$((2 * n))}
		[ -e "$HOME/.debug/.build-id/${id:0:2}/${id:2}" ] && continue
		now=$(readelf -n "$path" 2>/dev/null | awk '/Build ID:/ { print $3; exit }')
		[ "$now" = "$id" ] || echo "$path $id ${now:-none}"
	done
}

# check_refusal "what" regex cmd args...: passes when the command exits non-zero with exactly
# one line on stderr, matching the extended regex (the project's one-line errors).
check_refusal() {
	local what=$1 re=$2
	shift 2
	if "$@" >"$TMP/refusal.out" 2>"$TMP/refusal.err"; then
		fail "$what" "exited 0: $*"
	elif [ "$(wc -l <"$TMP/refusal.err")" -ne 1 ] || ! grep -Eq -- "$re" "$TMP/refusal.err"; then
		fail "$what" "expected one line matching /$re/, got: $(head -c 300 "$TMP/refusal.err")"
	else
		pass "$what"
	fi
}

# For a test that adds uprobes of one group G only (others' tests add and remove theirs
# meanwhile, so only G's can be checked): probe_group_guard G removes G's probes now and when
# the script exits; probe_group_clear G removes them.
probe_group_clear() { $FLARE probe -q -d "$1:*" >/dev/null 2>&1; }
probe_group_guard() {
	trap "probe_group_clear '$1'" EXIT
	probe_group_clear "$1"
}
