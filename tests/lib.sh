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

# other_kernel_copy SRC DST HOME: DST is a copy of the recording SRC whose kernel build-id (in
# its BUILD_ID feature) is changed, as if it had been recorded on a kernel this machine does
# not run; HOME/.debug gets that kernel's kallsyms (SRC's cached one) under the new build-id,
# as perf record leaves it. Needs python3.
other_kernel_copy() {
	local ids
	ids=$(python3 - "$1" "$2" <<'PY'
import struct, sys
data = bytearray(open(sys.argv[1], 'rb').read())
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
    if feat != 2:  # HEADER_BUILD_ID: records of header, pid, build_id[24], filename
        continue
    pos = off
    while pos < off + size:
        _, _, rsize = struct.unpack_from('<IHH', data, pos)
        name = data[pos + 36:pos + rsize].split(b'\0')[0]
        if name == b'[kernel.kallsyms]':
            old = data[pos + 12:pos + 32].hex()
            for i in range(20):
                data[pos + 12 + i] ^= 0x5a
            print(old, data[pos + 12:pos + 32].hex())
        pos += rsize
open(sys.argv[2], 'wb').write(data)
PY
) || return 1
	set -- "$1" "$2" "$3" $ids
	[ -n "${5:-}" ] || return 1
	mkdir -p "$3/.debug/[kernel.kallsyms]/$5"
	cp "$3/.debug/[kernel.kallsyms]/$4/kallsyms" "$3/.debug/[kernel.kallsyms]/$5/kallsyms"
}

# stale_dsos RECORDING: prints "path recorded-build-id this-machine's-build-id" for each file
# the recording's BUILD_ID feature names that this machine has no copy of: the file at its
# path has another build-id (a system binary of another patch level, e.g. /usr/bin/perf) and
# the build-id cache in $HOME/.debug holds none. Their frames cannot be named here as they
# were where the recording was made. Needs python3 and readelf; prints nothing without them.
stale_dsos() {
	command -v python3 >/dev/null && command -v readelf >/dev/null || return 0
	python3 - "$1" <<'PY' | while read -r id path; do
import struct, sys
data = open(sys.argv[1], 'rb').read()
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
    while feat == 2 and pos < off + size:
        _, _, rsize = struct.unpack_from('<IHH', data, pos)
        n = data[pos + 32]
        name = data[pos + 36:pos + rsize].split(b'\0')[0].decode()
        if name.startswith('/'):
            print(data[pos + 12:pos + 12 + n].hex(), name)
        pos += rsize
PY
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
