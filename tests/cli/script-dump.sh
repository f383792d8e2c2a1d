#!/usr/bin/env bash
# script-dump: flare script -D against perf script -D run here on the same files, whole outputs:
# the raw records in the order perf handles them (its own records and untimed ones where they
# stand, the others in time order at each FINISHED_ROUND and at the end), the hex dumps, what
# perf prints of each record, and under each sample its thread, dso and script line. Files:
# fresh recordings by perf and by flare (fp -g, no -g, -a -g, a tracepoint, a pipe, -z,
# --switch-events), one whose FINISHED_ROUND records are gone, and the fixtures.
source "$ROOT/tests/lib.sh"
FX=$TESTDATA
"$FX/install-bins.sh"

if ! have_perf; then
	skip "script -D as perf" "Linux perf is not installed"
	exit 0
fi

# same_dump "what" FILE [ARGS]: perf script -D and flare script -D print the same,
# with the same exit status. Reading a pipe recording, perf names the vdso after the temporary
# copy of its own vdso it makes (/tmp/perf-vdso.so-XXXXXX, a random name): that is "[vdso]".
same_dump() {
	local what=$1 file=$2 prc frc; shift 2
	perf script -D "$@" -i "$file" 2>/dev/null |
		sed 's|^ \.\.\.\.\.\. dso: /tmp/perf-vdso\.so-[A-Za-z0-9]\{6\}$| ...... dso: [vdso]|' >p.out
	prc=${PIPESTATUS[0]}
	$FLARE script -D "$@" -i "$file" >f.out 2>f.err; frc=$?
	unstable p.out f.out
	if [ ! -s p.out ] || ! grep -q 'PERF_RECORD_SAMPLE' p.out; then
		fail "$what" "perf printed no sample (exit $prc, $(wc -l <p.out) lines)"
	elif [ $prc -ne $frc ]; then
		fail "$what" "perf exit $prc, flare exit $frc: $(head -c 200 f.err)"
	elif diff p.out f.out >d.txt; then
		pass "$what ($(wc -l <p.out) lines)"
	else
		fail "$what" "$(grep -c '^[<>]' d.txt) lines differ: $(head -6 d.txt | tr '\n' '~')"
	fi
}

# unstable OUT...: the frames of a binary rebuilt since the recordings began (another
# engineer's build on a shared machine, caught by -a): perf names none of them ([unknown],
# its build-id changed), flare names them from the file as it is now; their symbols are left
# out of the comparison, the rest of the line stays.
unstable() {
	python3 - stamp "$@" <<'PY'
import os, re, sys
since = os.stat(sys.argv[1]).st_mtime
frame = re.compile(r'^(\t +[0-9a-f]+) .* \((/[^()]*)\)$')
for out in sys.argv[2:]:
    lines = open(out, errors='surrogateescape').read().split('\n')
    for i, l in enumerate(lines):
        m = frame.match(l)
        if m and os.path.exists(m.group(2)) and os.stat(m.group(2)).st_mtime > since:
            lines[i] = '%s [rebuilt] (%s)' % (m.group(1), m.group(2))
    open(out, 'w', errors='surrogateescape').write('\n'.join(lines))
# perf's symbol tables hold data objects too, flare's functions only: a chain address that
# lands in a data object (a bad frame of a program built without frame pointers, caught by
# -a) is that object in perf and [unknown] in flare, a known gap
if len(sys.argv) == 4:
    pl = open(sys.argv[2], errors='surrogateescape').read().split('\n')
    fl = open(sys.argv[3], errors='surrogateescape').read().split('\n')
    sym = re.compile(r'^(\t +[0-9a-f]+) (.*) (\([^()]*\))$')
    if len(pl) == len(fl):
        for i in range(len(pl)):
            mp, mf = sym.match(pl[i]), sym.match(fl[i])
            if (pl[i] != fl[i] and mp and mf and mf.group(2) == '[unknown]' and
                    mp.group(1) == mf.group(1) and mp.group(3) == mf.group(3)):
                pl[i] = fl[i] = '%s [a data object] %s' % (mf.group(1), mf.group(3))
        open(sys.argv[2], 'w', errors='surrogateescape').write('\n'.join(pl))
        open(sys.argv[3], 'w', errors='surrogateescape').write('\n'.join(fl))
PY
}

touch stamp
sleep 0.01
perf record -q -g -F 999 -o p-fp.data -- "$WL/mt_burn" 0.3 >/dev/null 2>&1
perf record -q -F 999 -o p-nog.data -- "$WL/mt_burn" 0.3 >/dev/null 2>&1
perf record -q -a -g -F 499 -o p-a.data -- "$WL/mt_burn" 0.3 >/dev/null 2>&1
perf record -q -e sched:sched_switch -a -g -o p-tp.data -- "$WL/mt_burn" 0.2 >/dev/null 2>&1
perf record -q -g -F 999 -o - -- "$WL/mt_burn" 0.3 2>/dev/null >p-pipe.data
perf record -q -z -g -F 999 -o p-z.data -- "$WL/mt_burn" 0.3 >/dev/null 2>&1
perf record -q --switch-events -F 999 -o p-sw.data -- "$WL/mt_burn" 0.3 >/dev/null 2>&1
$FLARE record -q -g -F 999 -o f-fp.data -- "$WL/mt_burn" 0.3 >/dev/null 2>&1
$FLARE record -q -F 999 -o f-nog.data -- "$WL/mt_burn" 0.3 >/dev/null 2>&1
$FLARE record -q -a -g -F 499 -o f-a.data -- "$WL/mt_burn" 0.3 >/dev/null 2>&1
$FLARE record -q -e sched:sched_switch -a -g -o f-tp.data -- "$WL/mt_burn" 0.2 >/dev/null 2>&1
$FLARE record -q -e sched:sched_switch -a -o - -- "$WL/mt_burn" 0.2 2>/dev/null >f-tppipe.data
$FLARE record -q -g -F 999 -o - -- "$WL/mt_burn" 0.3 2>/dev/null >f-pipe.data
$FLARE record -q -z -g -F 999 -o f-z.data -- "$WL/mt_burn" 0.3 >/dev/null 2>&1

same_dump "-D as perf on perf's fp -g recording" p-fp.data
same_dump "-D as perf on perf's recording without -g" p-nog.data
same_dump "-D as perf on perf's -a -g recording" p-a.data
same_dump "-D as perf on perf's sched:sched_switch -a -g recording" p-tp.data
same_dump "-D as perf on perf's pipe recording" p-pipe.data
same_dump "-D as perf on perf's -z recording" p-z.data
same_dump "-D as perf on perf's --switch-events recording" p-sw.data
same_dump "-D as perf on flare's fp -g recording" f-fp.data
same_dump "-D as perf on flare's recording without -g" f-nog.data
same_dump "-D as perf on flare's -a -g recording" f-a.data
same_dump "-D as perf on flare's sched:sched_switch -a -g recording" f-tp.data
same_dump "-D as perf on flare's tracepoint pipe recording" f-tppipe.data
same_dump "-D as perf on flare's pipe recording" f-pipe.data
same_dump "-D as perf on flare's -z recording" f-z.data

# the same -a recording with its FINISHED_ROUND records turned into FINISHED_INIT (same size,
# nothing else moves): everything is released at the end
python3 - p-a.data p-norounds.data <<'EOF'
import struct, sys
b = bytearray(open(sys.argv[1], 'rb').read())
off, size = struct.unpack_from('<QQ', b, 40)
p, n = off, 0
while p + 8 <= off + size:
    t, misc, sz = struct.unpack_from('<IHH', b, p)
    if sz < 8:
        break
    if t == 68:
        struct.pack_into('<I', b, p, 82)
        n += 1
    p += sz
open(sys.argv[2], 'wb').write(b)
print(n)
EOF
check_eq "the copy without rounds has none" 0 \
	"$(perf script -D -i p-norounds.data 2>/dev/null | grep -c 'PERF_RECORD_FINISHED_ROUND$')"
same_dump "-D as perf on a recording without FINISHED_ROUND" p-norounds.data
# the order is perf's, not the file's: a sample's decoded lines come after its round's records
check_eq "-D releases samples after the records of their round, as perf" \
	"$(perf script -D -i p-a.data 2>/dev/null | grep -n 'FINISHED_ROUND$' | head -1 | cut -d: -f1)" \
	"$($FLARE script -D -i p-a.data 2>/dev/null | grep -n 'FINISHED_ROUND$' | head -1 | cut -d: -f1)"

# the fixtures, with their kernel's symbols (as in script-golden.sh); DWARF ones against perf's
# --no-inline on both sides: inline frames in call chains are compared in inline.sh
FXHOME=$(fixture_home)
for fx in fp mt period pipe syswide tp uprobe; do
	HOME=$FXHOME same_dump "-D as perf on the $fx fixture" "$FX/$fx.data"
done
HOME=$FXHOME same_dump "-D as perf on the dwarf fixture" "$FX/dwarf.data" --no-inline

# a file that breaks off in its data: what was read is dumped, with perf's exit status
cut=$(python3 -c 'import struct,sys; b=open(sys.argv[1],"rb").read(64); o,s=struct.unpack_from("<QQ",b,40); print(o+s//2)' p-a.data)
head -c "$cut" p-a.data >cut.data
perf script -D -i cut.data >p.out 2>/dev/null; prc=$?
$FLARE script -D -i cut.data >f.out 2>f.err; frc=$?
check_eq "-D on a file cut in its data: perf's exit status" "$prc" "$frc"
check_eq "-D on a file cut in its data: one line says what was lost" 1 "$(wc -l <f.err)"
