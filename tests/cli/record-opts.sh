#!/usr/bin/env bash
# flare record's perf options beyond the basics (-T, -P, -d, --no-bpf-event, --all-user,
# --all-kernel, -D, --exclude-perf, -B, -s, --switch-events, -n, -z): the same attrs as perf's
# file made with the same options (perf evlist -v), the same kinds of records, read by perf
# report and perf script without a warning; refusals as perf's.
source "$ROOT/tests/lib.sh"

if ! have_perf; then
	skip "record options vs perf" "Linux perf is not installed"
	exit 0
fi

# perf evlist -v without the wakeup fields (flare wakes at a quarter of the ring, by design)
attrs() {
	perf evlist -v -i "$1" 2>/dev/null | grep -v Tip |
		sed -E 's/, watermark: 1//; s/, \{ wakeup_events, wakeup_watermark \}: [0-9]+//'
}
# the kinds of records in a file, one per line, without counts
# the kinds of records in a file; BPF_EVENT and KSYMBOL come when another process loads a BPF
# program during the recording, so they are not the recorder's to compare
kinds() {
	perf report -D -i "$1" 2>/dev/null | grep -oE 'PERF_RECORD_[A-Z0-9_]+' |
		grep -vE '^PERF_RECORD_(BPF_EVENT|KSYMBOL)$' | sort -u
}
# records both perf and flare with options "$@" on mt_burn; p.data and f.data
both() {
	perf record -q "$@" -o p.data -- "$WL/mt_burn" >/dev/null 2>&1
	$FLARE record -q "$@" -o f.data -- "$WL/mt_burn" >/dev/null 2>f.err
}
# perf report and perf script on f.data say nothing on stderr
reads_clean() {
	perf report --stdio -i f.data >/dev/null 2>perr.txt
	perf script -i f.data >/dev/null 2>>perr.txt
	if [ -s perr.txt ]; then fail "$1" "perf said: $(head -c 300 perr.txt | tr '\n' ' ')"
	else pass "$1"; fi
}
# the header's feature sections, by what perf says is missing
missing() { perf report --header-only -i "$1" 2>/dev/null | grep '^# missing features'; }
same_as_perf() {
	both "$@"
	check_eq "$* : attrs as perf's" "$(attrs p.data)" "$(attrs f.data)"
	check_eq "$* : the same kinds of records as perf's" "$(kinds p.data)" "$(kinds f.data)"
	check_eq "$* : the same header features as perf's" "$(missing p.data)" "$(missing f.data)"
	reads_clean "$* : perf reads flare's file without a warning"
}

same_as_perf -T
same_as_perf --no-timestamp
perf report --header-only -i f.data >hdr.txt 2>&1
check_grep "--no-timestamp: no sample time, as perf writes it" 'time of first sample : 18446744073' hdr.txt
same_as_perf -P -c 100000	# 10K samples a second: the ring keeps up on a loaded machine too
same_as_perf -d
perf script --show-mmap-events -i f.data 2>/dev/null >mm.txt
check_grep "-d: data mmaps (MMAP2 records of rw-p mappings)" 'PERF_RECORD_MMAP2.*: rw-p' mm.txt
same_as_perf --no-bpf-event
same_as_perf --all-user
same_as_perf --all-kernel
same_as_perf -e cycles:u
same_as_perf -D 10
same_as_perf -D 10 -g -d --switch-events -s
same_as_perf -D 10 --all-user
same_as_perf -s
perf report -T --stdio -i p.data 2>/dev/null | awk '/PID +TID/ { on = 1; next } on && NF == 3 { n++ } END { print n + 0 }' >pt.txt
perf report -T --stdio -i f.data 2>/dev/null | awk '/PID +TID/ { on = 1; next } on && NF == 3 { n++ } END { print n + 0 }' >ft.txt
check_eq "-s: perf report -T shows as many per-thread counts as on perf's file" "$(cat pt.txt)" "$(cat ft.txt)"
same_as_perf --switch-events
perf script --show-switch-events -i p.data 2>/dev/null | grep -c 'PERF_RECORD_SWITCH' >ps.txt
perf script --show-switch-events -i f.data 2>/dev/null | grep -c 'PERF_RECORD_SWITCH' >fs.txt
[ "$(cat fs.txt)" -gt 0 ] && pass "--switch-events: perf script shows the switches ($(cat fs.txt), perf $(cat ps.txt))" ||
	fail "--switch-events: perf script shows the switches" "none"
both -n
check_eq "-n: attrs as perf's" "$(attrs p.data)" "$(attrs f.data)"
check_eq "-n: no samples" "" "$(kinds f.data | grep SAMPLE)"
same_as_perf -B
perf report --header-only -i f.data 2>/dev/null | grep '^# missing features' >miss.txt
check_grep "-B: no BUILD_ID feature" 'BUILD_ID' miss.txt

# -D: perf's two lines, in order, and no sample before the delay is over
$FLARE record -D 100 -o d.data -- "$WL/cpu_burn" 0.3 >/dev/null 2>d.err
check_eq "-D: 'Events disabled' then 'Events enabled'" "Events disabled Events enabled" \
	"$(grep '^Events' d.err | tr '\n' ' ' | sed 's/ $//')"
$FLARE record -q -D -1 -o d.data -- "$WL/cpu_burn" 0.1 >/dev/null 2>&1
check_eq "-D -1: the events are never enabled" "" "$(kinds d.data | grep SAMPLE)"

# --exclude-perf: the tracepoints of the last -e leave out flare's own process
$FLARE record -q -a -e raw_syscalls:sys_enter --exclude-perf -o x.data -- sleep 0.2 >/dev/null 2>&1 &
fpid=$!
wait $fpid
perf script -F pid -i x.data 2>/dev/null | awk -v p=$fpid '$1 == p { n++ } END { print n + 0 }' >xn.txt
check_eq "--exclude-perf: no sample of flare's own pid" 0 "$(cat xn.txt)"
$FLARE record -q -a -e raw_syscalls:sys_enter -o x.data -- sleep 0.2 >/dev/null 2>&1 &
fpid=$!
wait $fpid
perf script -F pid -i x.data 2>/dev/null | awk -v p=$fpid '$1 == p { n++ } END { print n + 0 }' >xn.txt
[ "$(cat xn.txt)" -gt 0 ] && pass "without --exclude-perf flare's own syscalls are there" ||
	fail "without --exclude-perf flare's own syscalls are there" "none"
# two --filter join as perf's: (a) && (b)
$FLARE record -q -e sched:sched_switch --filter 'prev_pid==0' --filter 'prev_pid!=0' -o fl.data \
	-- sleep 0.05 >/dev/null 2>&1
check_eq "two --filter: both apply, as perf's" 0 "$(perf script -i fl.data 2>/dev/null | grep -c .)"

# refusals as perf's (usage, 129)
$FLARE record --all-user --all-kernel -o r.data true >/dev/null 2>r.err
check_eq "--all-user --all-kernel refused (129)" 129 $?
check_grep "... saying which" 'all-kernel.*all-user' r.err
$FLARE record -e cpu-clock --exclude-perf -o r.data true >/dev/null 2>r.err
check_eq "--exclude-perf after a non-tracepoint refused (129)" 129 $?
check_grep "... as perf says it" '^--exclude-perf option should follow a -e tracepoint option$' r.err
$FLARE record -D -3 -o r.data true >/dev/null 2>&1
check_eq "-D below -1 refused (129)" 129 $?

# event specs: every parsed event excludes the guest by default (perf's event_attr_init on a
# host), G/H and u/k/h as perf reads them; tracepoints sample the CPU too. An explicit
# cpu-clock or task-clock gets perf's EVENT_UPDATE records of its unit (msec) and scale.
updates() {
	perf report -D -i "$1" 2>/dev/null | grep -A2 'PERF_RECORD_EVENT_UPDATE' |
		grep -oE '(unit|scale|name): +.*'
}
for ev in cpu-clock cpu-clock:G cpu-clock:H cpu-clock:u '{cpu-clock,task-clock}:S' \
	  cpu-clock,page-faults; do
	both -e "$ev"
	check_eq "-e $ev : attrs as perf's" "$(attrs p.data)" "$(attrs f.data)"
	check_eq "-e $ev : the same kinds of records as perf's" "$(kinds p.data)" "$(kinds f.data)"
	check_eq "-e $ev : EVENT_UPDATE units and scales as perf's" "$(updates p.data)" \
		"$(updates f.data)"
	reads_clean "-e $ev : perf reads flare's file without a warning"
done
perf record -q -e task-clock -o - -- "$WL/cpu_burn" 0.1 2>/dev/null >p.data
$FLARE record -q -e task-clock -o - -- "$WL/cpu_burn" 0.1 2>/dev/null >f.data
check_eq "-e task-clock -o - : unit, scale and name updates as perf's pipe" "$(updates p.data)" \
	"$(updates f.data)"
check_grep "... which name the event" 'name: +task-clock' <(updates f.data)
perf record -q -e syscalls:sys_enter_getppid -o p.data -- "$WL/getppid_n" 100 >/dev/null 2>&1
$FLARE record -q -e syscalls:sys_enter_getppid -o f.data -- "$WL/getppid_n" 100 >/dev/null 2>&1
check_eq "-e a tracepoint : attrs as perf's (CPU sampled)" "$(attrs p.data)" "$(attrs f.data)"
reads_clean "-e a tracepoint : perf reads flare's file without a warning"

# -z: the rings' data in COMPRESSED records (zstd), the COMPRESSED feature as perf writes it;
# perf and flare read the file, and see the same samples
same_as_perf -z
perf report --stats -i f.data >p.txt 2>/dev/null
$FLARE report --stats -i f.data >f.txt 2>/dev/null
check_eq "-z : report --stats counts the COMPRESSED records as perf's" "" "$(diff p.txt f.txt)"
check_grep "-z : ... which are there" 'COMPRESSED events:' f.txt
perf report --header-only -i f.data 2>/dev/null | grep '^# compressed' >hdr.txt
check_grep "-z : the COMPRESSED feature: zstd, level 1" '^# compressed : Zstd, level = 1, ratio = [1-9][0-9]*$' hdr.txt
perf script -F tid,time,ip,sym -i f.data 2>/dev/null >p.txt
$FLARE script -F tid,time,ip,sym -i f.data 2>/dev/null >f.txt
check_eq "-z : flare script reads it as perf script" "" "$(cmp p.txt f.txt 2>&1)"
check_eq "-z : ... and has samples" 1 "$([ "$(wc -l <p.txt)" -gt 50 ] && echo 1)"
$FLARE record -o f.data --compression-level=5 -- "$WL/cpu_burn" 0.2 >/dev/null 2>f.err
check_grep "--compression-level=5: perf's final line" \
	'^\[ flare record: Captured and wrote [0-9.]+ MB f\.data, compressed \(original [0-9.]+ MB, ratio is [0-9.]+\) \]$' f.err
perf report --header-only -i f.data 2>/dev/null | grep '^# compressed' >hdr.txt
check_grep "--compression-level=5: level 5 in the header" 'level = 5,' hdr.txt
$FLARE record -o f.data --compression-level=30 -- true >/dev/null 2>&1
perf report --header-only -i f.data 2>/dev/null | grep '^# compressed' >hdr.txt
check_grep "--compression-level=30: the maximum, as perf" 'level = 22,' hdr.txt
$FLARE record -o r.data --compression-level=x -- true >/dev/null 2>r.err
check_eq "--compression-level=x refused (129), no file" "129 0" "$? $(ls r.data 2>/dev/null | wc -l)"
$FLARE record -q -z -o - -- "$WL/cpu_burn" 0.2 2>/dev/null | perf report --stdio -i - >p.txt 2>perr.txt
check_grep "-z -o - : perf report reads the compressed pipe" '%.*cpu_burn' p.txt
