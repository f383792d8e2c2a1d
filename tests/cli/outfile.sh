#!/usr/bin/env bash
# -o never destroys what it names: a device, a FIFO or a symlink to stdout is written in place
# (record, flamegraph, stat), a regular file is replaced whole with a mode from the umask, a
# symlink to a regular file keeps being a symlink, and a failure leaves nothing behind.
source "$ROOT/tests/lib.sh"

$FLARE record -q -o base.data -g -- "$WL/cpu_burn" 0.2 >/dev/null 2>&1
[ -s base.data ] && pass "a recording to draw from" || fail "a recording to draw from" "no base.data"

# a character device: /dev/null's own node (c 1 3), made here
if mknod nul c 1 3 2>/dev/null; then
	$FLARE record -q -o nul -- true >/dev/null 2>rec-nul.err
	check_eq "record -o DEVICE: exit 0" 0 $?
	check_eq "record -o DEVICE: still a character device" "character special file" "$(stat -c %F nul)"
	$FLARE flamegraph -i base.data -o nul 2>fg-nul.err
	check_eq "flamegraph -o DEVICE: exit 0" 0 $?
	check_eq "flamegraph -o DEVICE: still a character device" "character special file" "$(stat -c %F nul)"
	$FLARE stat -o nul -e task-clock -- true 2>/dev/null
	check_eq "stat -o DEVICE: still a character device" "character special file" "$(stat -c %F nul)"
	check_eq "-o DEVICE: no .old made of it" "" "$(ls nul.old 2>/dev/null)"
else
	skip "-o on a device" "mknod is not permitted here"
fi

# a FIFO: its reader gets the data (record writes the pipe format there, as to stdout)
mkfifo ff
cat ff >fifo-rec.out &
reader=$!
$FLARE record -q -o ff -- "$WL/cpu_burn" 0.1 >/dev/null 2>fifo.err
check_eq "record -o FIFO: exit 0" 0 $?
wait $reader
check_eq "record -o FIFO: still a FIFO" "fifo" "$(stat -c %F ff)"
$FLARE report --stdio --sort comm -i - <fifo-rec.out >fifo-rep.txt 2>&1
check_grep "record -o FIFO: the reader gets a recording flare reads" '%.*cpu_burn' fifo-rep.txt
cat ff >fifo-fg.out &
reader=$!
$FLARE flamegraph -i base.data -o ff 2>/dev/null
wait $reader
check_grep "flamegraph -o FIFO: the reader gets the SVG" '<svg' fifo-fg.out

# a symlink to stdout: the output goes there
ln -s /proc/self/fd/1 so
$FLARE flamegraph -i base.data -o so >so.out 2>/dev/null
check_grep "flamegraph -o SYMLINK-TO-STDOUT: written to stdout" '<svg' so.out
check_eq "flamegraph -o SYMLINK-TO-STDOUT: the link stays" "symbolic link" "$(stat -c %F so)"

# a regular file: replaced whole, mode from the umask; through a symlink the link stays
(umask 027; $FLARE flamegraph -i base.data -o m.svg 2>/dev/null)
check_eq "flamegraph -o FILE: mode from the umask (027: 640)" 640 "$(stat -c %a m.svg)"
(umask 077; $FLARE flamegraph -i base.data -o m.svg 2>/dev/null)
check_eq "flamegraph -o FILE: a new file each time (umask 077: 600)" 600 "$(stat -c %a m.svg)"
echo old >target.svg
ln -s target.svg link.svg
$FLARE flamegraph -i base.data -o link.svg 2>/dev/null
check_eq "flamegraph -o SYMLINK: the link stays a link" "symbolic link" "$(stat -c %F link.svg)"
check_grep "flamegraph -o SYMLINK: its target gets the SVG" '<svg' target.svg
$FLARE record -q -o base.data -- true >/dev/null 2>&1
check_eq "record -o FILE: perf.data's mode (0600 as perf)" 600 "$(stat -c %a base.data)"
check_eq "record -o FILE: the previous one becomes .old" "regular file" "$(stat -c %F base.data.old)"

# a failure leaves nothing: neither the file nor a temporary one, and the old file is back
cp base.data.old keep.data
$FLARE record -q -o keep.data -e no-such-event -- true >/dev/null 2>&1
cmp -s keep.data base.data.old && pass "failed record: the existing file is untouched" || fail "failed record: the existing file is untouched" "keep.data changed"
$FLARE record -q -o keep.data -- /nonexistent/cmd >/dev/null 2>&1
cmp -s keep.data base.data.old && pass "record of a missing command: the existing file is back" || fail "record of a missing command: the existing file is back" "$(ls -la keep.data*)"
check_eq "failed record: no keep.data.old left" "" "$(ls keep.data.old 2>/dev/null)"
check_eq "no temporary file left anywhere" "" "$(ls -a | grep flare-tmp)"
