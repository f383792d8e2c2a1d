#!/usr/bin/env bash
# flare stat: exact counts against perf stat, output shapes (text, -x, -j, -r, -I, -A), targets,
# exit statuses and bad input.
source "$ROOT/tests/lib.sh"

# count EVENT CSV-FILE: the value of EVENT in a -x, output
count() { awk -F, -v e="$1" '$3 == e { print $1; exit }' "$2"; }

# --- exact counts, compared with perf on the same workloads ---
$FLARE stat -x, -e syscalls:sys_enter_openat -- "$WL/open_n" 500 2>fl.csv
fo=$(count syscalls:sys_enter_openat fl.csv)
$FLARE stat -x, -e syscalls:sys_enter_getppid -- "$WL/getppid_n" 1234 2>fg.csv
fg=$(count syscalls:sys_enter_getppid fg.csv)
check_eq "getppid_n 1234 counts 1234 sys_enter_getppid" 1234 "$fg"
if have_perf; then
	perf stat -x, -e syscalls:sys_enter_openat -- "$WL/open_n" 500 2>pl.csv
	check_eq "openat count equals perf's" "$(count syscalls:sys_enter_openat pl.csv)" "$fo"
	perf stat -x, -e syscalls:sys_enter_getppid -- "$WL/getppid_n" 1234 2>pg.csv
	check_eq "getppid count equals perf's" "$(count syscalls:sys_enter_getppid pg.csv)" "$fg"
	perf stat -x, -e page-faults -- "$WL/touch_pages" 20000 2>pp.csv
	$FLARE stat -x, -e page-faults -- "$WL/touch_pages" 20000 2>fp.csv
	pp=$(count page-faults pp.csv); fp=$(count page-faults fp.csv)
	within "page-faults within 1% of perf's ($fp vs $pp)" "$fp" "$pp" "$(( pp / 100 + 1 ))"
	perf stat -x, -e syscalls:sys_enter_execve,syscalls:sys_exit_execve -- "$WL/getppid_n" 1 2>pe.csv
	$FLARE stat -x, -e syscalls:sys_enter_execve,syscalls:sys_exit_execve -- "$WL/getppid_n" 1 2>fe.csv
	check_eq "counting starts at exec, as perf's (enter, exit execve)" \
		"$(count syscalls:sys_enter_execve pe.csv),$(count syscalls:sys_exit_execve pe.csv)" \
		"$(count syscalls:sys_enter_execve fe.csv),$(count syscalls:sys_exit_execve fe.csv)"
else
	skip "counts equal perf's" "perf is not installed"
fi
check_eq "open_n 500 counts at least 500 openat" 1 "$(( fo >= 500 ))"
if have_perf; then
	perf stat -x, -e 'sched:*,syscalls:sys_enter_open*' -- true 2>&1 | cut -d, -f3 >porder.txt
	$FLARE stat -x, -e 'sched:*,syscalls:sys_enter_open*' -- true 2>&1 | cut -d, -f3 >forder.txt
	check_eq "a glob's events in perf's order" "$(cat porder.txt)" "$(cat forder.txt)"
fi
check_eq "sys_enter_execve counts 0 (counting starts at the exec)" 0 \
	"$($FLARE stat -x, -e syscalls:sys_enter_execve -- "$WL/getppid_n" 1 2>&1 | awk -F, '{print $1}')"

# --- inherit: children are counted unless -i (the shell's own getppid calls cancel out) ---
script="'$WL/getppid_n' 300; '$WL/getppid_n' 200"
$FLARE stat -x, -e syscalls:sys_enter_getppid -- sh -c "$script" 2>inh.csv
$FLARE stat -i -x, -e syscalls:sys_enter_getppid -- sh -c "$script" 2>noinh.csv
check_eq "children counted (inherit), not with -i" 500 \
	"$(( $(count syscalls:sys_enter_getppid inh.csv) - $(count syscalls:sys_enter_getppid noinh.csv) ))"

# --- the default text output ---
$FLARE stat -- "$WL/getppid_n" 100 2>def.txt
check_grep "header names the command" "^ Performance counter stats for '$WL/getppid_n 100':$" def.txt
check_grep "task-clock in msec with CPUs utilized" '^ +[0-9.,]+ msec task-clock +# +[0-9.]+ CPUs utilized' def.txt
check_grep "page-faults with a /sec rate" '^ +[0-9,]+      page-faults +# +[0-9.]+ [KMG]?/sec' def.txt
check_grep "elapsed line" '^ +[0-9]+\.[0-9]{9} seconds time elapsed$' def.txt
check_grep "user line" '^ +[0-9]+\.[0-9]{9} seconds user$' def.txt
if grep -q '<not supported>' def.txt; then
	check_grep "<not supported> is followed by why" '^ +\(no hardware PMU: this is a VM guest\)$' def.txt
fi
if have_perf; then
	perf stat -- "$WL/getppid_n" 100 2>pdef.txt
	check_eq "same event lines as perf" \
		"$(awk '/Performance/{p=1;next} /time elapsed/{p=0} p && NF && !/^ +\(/ {print $NF == "utilized" || $NF ~ /sec$/ ? $3 : $2}' pdef.txt | tr '\n' ' ')" \
		"$(awk '/Performance/{p=1;next} /time elapsed/{p=0} p && NF && !/^ +\(/ {print $NF == "utilized" || $NF ~ /sec$/ ? $3 : $2}' def.txt | tr '\n' ' ')"
	check_eq "text line widths equal perf's" \
		"$(grep -E 'task-clock|page-faults|cycles' pdef.txt | awk '{print length($0)}' | tr '\n' ' ')" \
		"$(grep -E 'task-clock|page-faults|cycles' def.txt | awk '{print length($0)}' | tr '\n' ' ')"
fi

# --- thousands separators: the locale's, as perf's (none under C; en_US in fidelity.sh) ---
LC_ALL=C $FLARE stat -e syscalls:sys_enter_getppid -- "$WL/getppid_n" 12345 2>big.txt
check_grep "counts grouped as the C locale does: not at all" '^ +12345      syscalls:sys_enter_getppid' big.txt
$FLARE stat --no-big-num -e syscalls:sys_enter_getppid -- "$WL/getppid_n" 12345 2>nobig.txt
check_grep "--no-big-num drops them" '^ +12345      syscalls:sys_enter_getppid' nobig.txt

# --- terms after a named event or tracepoint, as perf accepts them ---
$FLARE stat -x, -e 'syscalls:sys_enter_getppid//,cs/name=sw/,cpu-clock/period=1000/u' \
	-- "$WL/getppid_n" 7 2>terms.csv
check_eq "tracepoint// counts as the tracepoint" 7 "$(count syscalls:sys_enter_getppid terms.csv)"
check_grep "name= renames the event" '^[0-9]+,,sw,' terms.csv
check_grep "symbolic event with terms keeps perf's name" ',msec,cpu-clock/period=1000/u,' terms.csv

# --- tool events ---
$FLARE stat -x, -e duration_time,user_time -- "$WL/cpu_burn" 0.2 2>tool.csv
dur=$(count duration_time tool.csv)
check_eq "duration_time: the run's nanoseconds ($dur)" 1 "$(( dur > 190000000 && dur < 2000000000 ))"
check_grep "tool events in ns, as perf" '^[0-9]+,ns,user_time,[0-9]+,100\.00,,$' tool.csv

# --- CSV: perf's field order ---
$FLARE stat -x, -e task-clock,cs,cycles -- "$WL/getppid_n" 10 2>x.csv
check_grep "CSV clock: value,unit,event,runtime,pcnt,metric,metric-unit" \
	'^[0-9]+\.[0-9]{2},msec,task-clock,[0-9]+,100\.00,[0-9]+\.[0-9]{3},CPUs utilized$' x.csv
check_grep "CSV count with a rate" '^[0-9]+,,cs,[0-9]+,100\.00,[0-9.]+,[KMG]?/sec$' x.csv
if grep -q 'not supported' x.csv; then
	check_grep "CSV <not supported> as perf" '^<not supported>,,cycles,0,100\.00,,$' x.csv
fi
$FLARE stat -x';' -e cs -- true 2>semi.csv
check_grep "-x takes any separator" '^[0-9]+;;cs;[0-9]+;100\.00;;$' semi.csv

# --- CSV field counts of every aggregation mode, as perf's own stat+csv_output test checks ---
commas() { # commas EXPECTED OPTIONS...: every line of the output has EXPECTED separators
	local exp=$1 bad; shift
	$FLARE stat -x@ "$@" -- true 2>lint.csv
	bad=$(awk -F@ -v e="$exp" 'NF - 1 != e' lint.csv | head -2)
	check_eq "-x@ $* has $exp separators per line" "" "$bad"
}
commas 6
commas 6 -a
commas 6 -e cpu-clock
commas 7 -I 1000
commas 7 --per-thread -a
commas 7 -A -a --no-merge
commas 8 --per-core -a
commas 8 --per-socket -a
commas 8 --per-die -a
commas 8 --per-node -a

# --- JSON: one valid object per counter ---
$FLARE stat -j -e task-clock,cs,page-faults -- "$WL/getppid_n" 10 2>j.json
check_eq "JSON: one line per counter" 3 "$(wc -l <j.json)"
if python3 - j.json <<'PY'
import json, sys
keys = ["counter-value", "unit", "event", "event-runtime", "pcnt-running", "metric-value", "metric-unit"]
for line in open(sys.argv[1]):
    o = json.loads(line)
    assert list(o.keys()) == keys, o.keys()
PY
then pass "JSON objects parse, with perf's keys in perf's order"; else fail "JSON objects parse"; fi
jkeys() { # jkeys "FIRST KEYS" OPTIONS...: every object starts with these keys, then perf's 7
	local first=$1; shift
	$FLARE stat -j "$@" -- true 2>lj.json
	if python3 - lj.json "$first" <<'PY'
import json, sys
want = sys.argv[2].split() + ["counter-value", "unit", "event", "event-runtime", "pcnt-running",
                               "metric-value", "metric-unit"]
lines = open(sys.argv[1]).read().splitlines()
assert lines
for line in lines:
    assert list(json.loads(line).keys()) == want, line
PY
	then pass "-j $*: keys as perf's"; else fail "-j $*: keys as perf's" "$(head -2 lj.json)"; fi
}
jkeys "" -a
jkeys "interval" -I 1000
jkeys "cpu" -A -a
jkeys "thread" --per-thread -a
jkeys "core aggregate-number" --per-core -a
jkeys "die aggregate-number" --per-die -a
jkeys "socket aggregate-number" --per-socket -a
jkeys "node aggregate-number" --per-node -a

# --- -r: mean and noise ---
$FLARE stat -r 3 -e task-clock,syscalls:sys_enter_getppid -- "$WL/getppid_n" 100 2>r.txt
check_grep "-r header says the runs" "^ Performance counter stats for '$WL/getppid_n 100' \\(3 runs\\):$" r.txt
check_grep "-r: a varying counter has a noise column" 'task-clock .*\( \+- +[0-9.]+% \)$' r.txt
check_grep "-r: an exact counter has none" '^ +100      syscalls:sys_enter_getppid +# +[0-9.]+ [KMG]?/sec +$' r.txt
check_grep "-r elapsed with +-" 'seconds time elapsed' r.txt
timeout -s INT 0.6 $FLARE stat -r 0 -x, -e syscalls:sys_enter_getppid -- "$WL/getppid_n" 5 2>fe.csv
n=$(grep -c '^5,,syscalls:sys_enter_getppid,' fe.csv)
check_eq "-r 0 runs until Ctrl-C, printing each run ($n runs)" 1 "$(( n >= 2 ))"
$FLARE stat -r 3 --table -e cs -- true 2>tab.txt
check_eq "--table: one line per run" 3 "$(grep -cE '^ +[0-9]+\.[0-9]+ \([-+][0-9.]+\) #+$' tab.txt)"
check_grep "--table: the final result follows" '^ +# Final result:$' tab.txt
check_eq "-r runs the command 3 times" 3 "$($FLARE stat -r 3 -- sh -c 'echo run' 2>/dev/null | grep -c run)"

# --- -I intervals ---
$FLARE stat -I 100 -e task-clock -- "$WL/cpu_burn" 0.35 2>i.txt
n=$(grep -cE '^ +[0-9]+\.[0-9]{9} +[0-9.,]+ msec task-clock' i.txt)
check_eq "-I 100 over 0.35 s prints 4 to 6 intervals ($n)" 1 "$(( n >= 4 && n <= 6 ))"
first=$(awk '/task-clock/ {print $1; exit}' i.txt)
check_eq "first interval stamped after 0.1 s ($first)" 1 \
	"$(awk -v f="$first" 'BEGIN { print (f >= 0.099 && f < 1) }')"
check_eq "interval stamps increase" "$(awk '/task-clock/ {print $1}' i.txt | sort -n | tr '\n' ' ')" \
	"$(awk '/task-clock/ {print $1}' i.txt | tr '\n' ' ')"
check_grep "-I header" '^#           time             counts unit events$' i.txt
$FLARE stat -I 100 --interval-count 2 -x, -e task-clock -- "$WL/cpu_burn" 0.5 2>ic.csv
check_eq "--interval-count 2 stops after 2" 2 "$(grep -c task-clock ic.csv)"

$FLARE stat -x, -I 100 --summary -e syscalls:sys_enter_getppid -- "$WL/getppid_n" 77 2>sum.csv
check_grep "-I --summary: the total, prefixed as perf's" '^         summary,77,,syscalls:sys_enter_getppid,' sum.csv
$FLARE stat -x, -I 100 --summary --no-csv-summary -e syscalls:sys_enter_getppid -- "$WL/getppid_n" 77 2>nsum.csv
check_grep "--no-csv-summary: the total without the summary field, as perf's" \
	'^77,,syscalls:sys_enter_getppid,' nsum.csv
$FLARE stat -I 100 --summary -e syscalls:sys_enter_getppid -- "$WL/getppid_n" 77 2>sum.txt
check_grep "-I --summary text: then the usual totals" '^ +77      syscalls:sys_enter_getppid' sum.txt

# --- -a, -A, per-core, per-socket, -C ---
ncpu=$(getconf _NPROCESSORS_ONLN)
$FLARE stat -a -A -x, -e cpu-clock -- sleep 0.1 2>a.csv
check_eq "-A: one line per CPU" "$ncpu" "$(grep -c '^CPU[0-9]*,.*cpu-clock' a.csv)"
$FLARE stat -a -e cpu-clock -- sleep 0.2 2>aa.txt
check_grep "-a header says system wide" "^ Performance counter stats for 'system wide':$" aa.txt
util=$(awk '/cpu-clock/ {print $(NF-2)}' aa.txt)
within "-a cpu-clock: every CPU utilized ($util)" "$util" "$ncpu" 0.2
$FLARE stat -C 0 -x, -e cpu-clock -- sleep 0.1 2>c0.csv
check_grep "-C 0 counts one CPU" '^[0-9.]+,msec,cpu-clock,[0-9]+,100\.00,(0\.9|1\.0)[0-9]*,CPUs utilized$' c0.csv
$FLARE stat -a --per-socket -x, -e cpu-clock -- sleep 0.1 2>s.csv
check_grep "--per-socket: S<n>,<cpus>" "^S0,$ncpu,[0-9.]+,msec,cpu-clock" s.csv
$FLARE stat -a --per-core -e cpu-clock -- sleep 0.1 2>core.txt
check_grep "--per-core text prefix" '^S0-D0-C0 +1 +[0-9.,]+ msec cpu-clock' core.txt
$FLARE stat -a --per-node -x, -e cpu-clock -- sleep 0.1 2>node.csv
check_grep "--per-node: N<n>,<cpus>" "^N0,$ncpu,[0-9.]+,msec,cpu-clock" node.csv
"$WL/mt_burn" 0.4 >/dev/null &
bp=$!
sleep 0.1
$FLARE stat --per-thread -p $bp -e task-clock 2>thr.txt
wait $bp
check_eq "--per-thread -p: one line per thread of the process" 3 \
	"$(grep -cE '^ *mt_burn-[0-9]+ +[0-9.,]+ msec task-clock|^ *worker_[ab]-[0-9]+ +[0-9.,]+ msec task-clock' thr.txt)"

# --- -p and -t on a running process ---
"$WL/cpu_burn" 1 >/dev/null &
bp=$!
sleep 0.05
timeout -s INT 0.5 $FLARE stat -x, -p $bp -e task-clock 2>p.csv
wait $bp
ms=$(awk -F, '/task-clock/ {print int($1)}' p.csv)
check_eq "-p counts a running process until SIGINT (${ms} ms)" 1 "$(( ms > 5 && ms < 600 ))"
"$WL/cpu_burn" 1 >/dev/null &
bp=$!
sleep 0.05
$FLARE stat -x, -p $bp -e task-clock -- sleep 0.3 2>pd.csv
wait $bp
ms=$(awk -F, '/task-clock/ {print int($1)}' pd.csv)
"$WL/cpu_burn" 0.5 >/dev/null &
bp=$!
$FLARE stat -p $bp -e cs -- sleep 0.05 2>ph.txt
wait $bp
check_grep "-p with a command: the header names the process, as perf" "^ Performance counter stats for process id '$bp':$" ph.txt
check_eq "-p with a command: no user/sys lines, as perf" "" "$(grep -E 'seconds (user|sys)' ph.txt)"
check_eq "-p PID -- sleep 0.3: the command sets the duration (${ms} ms)" 1 "$(( ms > 5 && ms < 600 ))"
"$WL/cpu_burn" 1 >/dev/null &
bp=$!
sleep 0.05
$FLARE stat -x, -t $bp -e task-clock 2>t.csv
wait $bp
check_grep "-t ends when the thread exits" 'task-clock' t.csv

# --- -o, -D ---
$FLARE stat -o out.txt -e cs -- true 2>stderr.txt
check_grep "-o writes the file" '^# started on ' out.txt
check_grep "-o file holds the counts" ' cs ' out.txt
check_eq "-o leaves stderr empty" "" "$(cat stderr.txt)"
$FLARE stat -D 200 -x, -e task-clock -- "$WL/cpu_burn" 0.4 2>d.csv
dms=$(awk -F, '/task-clock/ {print int($1)}' d.csv)
check_eq "-D 200 skips the first 200 ms (${dms} ms counted)" 1 "$(( dms < 300 ))"
$FLARE stat -D 100 -e cs -- true 2>d2.txt
check_eq "-D longer than the command: still enabled after the delay, as perf" \
	"Events disabled Events enabled" "$(grep Events d2.txt | tr '\n' ' ' | sed 's/ $//')"

# --- --filter, --timeout, -g, --all-user, --quiet, --pre/--post, --log-fd ---
$FLARE stat -x, -e syscalls:sys_enter_openat --filter 'flags == 1' \
	-e syscalls:sys_enter_getppid -- "$WL/open_n" 40 2>flt.csv
check_eq "--filter applies to the -e before it" "0 0" \
	"$(count syscalls:sys_enter_openat flt.csv) $(count syscalls:sys_enter_getppid flt.csv)"
$FLARE stat -x, -e syscalls:sys_enter_openat --filter 'flags == 0' -- "$WL/open_n" 40 2>flt2.csv
check_eq "--filter keeps what matches" 40 "$(count syscalls:sys_enter_openat flt2.csv)"
$FLARE stat -x, -e syscalls:sys_enter_openat --filter 'nosuchfield == 1' -- true 2>fltbad.txt
check_eq "a bad filter: exit 1 and one line" "1 1" "$? $(wc -l <fltbad.txt)"
$FLARE stat -x, -e cs --filter 'x' -- true 2>/dev/null
check_eq "--filter after a non-tracepoint is a usage error" 129 $?
$FLARE stat --timeout 200 -x, -e task-clock -- sleep 3 2>to.csv
check_eq "--timeout stops the workload and exits 0, as perf" 0 $?
check_grep "--timeout prints the counts" 'task-clock' to.csv
$FLARE stat -g -x, -e cs,faults -- true 2>g.csv
check_eq "-g counts the group" 2 "$(grep -cE ',(cs|faults),' g.csv)"
$FLARE stat --quiet -e cs -- true 2>q.txt
check_eq "--quiet prints nothing" "" "$(cat q.txt)"
$FLARE stat --pre 'echo pre' --post 'echo post' -x, -e cs -- true >pp.txt 2>/dev/null
check_eq "--pre and --post run around the command" "pre post" "$(tr '\n' ' ' <pp.txt | sed 's/ $//')"
$FLARE stat --log-fd 1 -x, -e cs -- true >lf.txt 2>/dev/null
check_grep "--log-fd writes the counts to that fd" '^[0-9]+,,cs,' lf.txt

# --- exit statuses ---
$FLARE stat -- "$WL/exit_code" 7 2>/dev/null
check_eq "the workload's exit status" 7 $?
$FLARE stat -- sh -c 'kill -TERM $$' 2>/dev/null
check_eq "a killed workload: 128+signal" 143 $?
$FLARE stat -- /nonexistent/prog 2>miss.txt
check_eq "missing program exits 255" 255 $?
check_eq "missing program: one line" "flare: cannot run '/nonexistent/prog': No such file or directory" "$(cat miss.txt)"

# --- bad input ---
$FLARE stat -e cyclez -- true 2>bad.txt
check_eq "bad event exits 129" 129 $?
check_grep "bad event shown with a caret" '^                     \\___ unknown event' bad.txt
check_grep "bad event hint" "did you mean 'cycles'" bad.txt
$FLARE stat -e sys_enter_getppid -- true 2>badtpn.txt
check_grep "a tracepoint name without its system: the hint names it" \
	"did you mean the tracepoint 'syscalls:sys_enter_getppid'\\?" badtpn.txt
$FLARE stat -e 'sched:nosuch' -- true 2>badtp.txt
check_eq "unknown tracepoint exits 129" 129 $?
check_grep "unknown tracepoint named" "unknown tracepoint 'sched:nosuch'" badtp.txt
$FLARE stat -p 4194000 2>pid.txt
rc=$?
check_eq "bad PID: exit 234 (as perf) and one line" "234 1" "$rc $(wc -l <pid.txt)"
check_grep "bad PID names the PID and the fix" 'no process with PID 4194000 \(check the PID with ps\)' pid.txt
$FLARE stat -C 0-x -- true 2>cpu.txt
check_eq "bad CPU list: exit 234 (as perf) and one line" "234 1" "$? $(wc -l <cpu.txt)"
$FLARE stat -C 999 -- true 2>cpu2.txt
check_grep "offline CPU named" 'CPU 999 is not online' cpu2.txt
$FLARE stat --per-thread -- true 2>pt.txt
check_eq "--per-thread without -p/-t/-a is a usage error" 129 $?
$FLARE stat -I 5 -- true 2>/dev/null
check_eq "-I below 10 ms is a usage error" 129 $?
# --- a PMU that counts CPUs (has a cpumask): system-wide, as perf does ---
cpmu=$(for d in /sys/bus/event_source/devices/*; do [ -f "$d/cpumask" ] && [ -d "$d/events" ] && ls "$d/events" | grep -v '\.' | head -1 | sed "s|^|$(basename "$d")/|"; done | head -1)
if [ -n "$cpmu" ]; then
	$FLARE stat -e "$cpmu/" -- true 2>cp.txt
	check_grep "only CPU-PMU events: counted system wide ($cpmu/)" "^ Performance counter stats for 'system wide':" cp.txt
	check_eq "CPU-PMU event counted" "" "$(grep 'not supported' cp.txt)"
	$FLARE stat -e "$cpmu/",cs -- true 2>cp2.txt
	check_grep "mixed with task events: why it is not counted" "counts CPUs, not tasks \(count it with -a or -C" cp2.txt
else
	skip "CPU-PMU events" "no PMU with a cpumask here"
fi

# --- a uprobe made in tracefs is a tracepoint too ---
ue=/sys/kernel/tracing/uprobe_events
off=$(nm "$WL/getppid_n" 2>/dev/null | awk '$3 == "main" {print $1}')
grp=flare_ev$$
if [ -w "$ue" ] && [ -n "$off" ] && echo "p:$grp/main_entry $WL/getppid_n:0x$off" >>"$ue" 2>/dev/null; then
	$FLARE stat -x, -e "$grp:*" -- "$WL/getppid_n" 10 2>up.csv
	echo "-:$grp/main_entry" >>"$ue"
	check_eq "uprobe on main counted once, through a glob" 1 "$(count "$grp:main_entry" up.csv)"
else
	skip "uprobe as a tracepoint" "cannot add a uprobe here"
fi

# --- tracefs missing: in a private mount namespace, so nothing else sees it unmounted ---
if unshare -m --propagation private true 2>/dev/null; then
	unshare -m --propagation private sh -c "umount /sys/kernel/tracing 2>/dev/null
		'$FLARE' stat -x, -e syscalls:sys_enter_getppid -- '$WL/getppid_n' 10" 2>um.csv
	check_eq "tracefs unmounted: flare mounts it and counts" 10 \
		"$(count syscalls:sys_enter_getppid um.csv)"
	unshare -m --propagation private sh -c "mount -t tmpfs none /sys/kernel
		'$FLARE' stat -e sched:sched_switch -- true" 2>nt.txt
	check_eq "no tracefs: exit 129" 129 $?
	check_grep "no tracefs: says so and how to fix it" \
		'tracefs is not mounted and could not be mounted' nt.txt
	check_grep "no tracefs: the fix" '^mount it: mount -t tracefs nodev /sys/kernel/tracing$' nt.txt
	unshare -m --propagation private sh -c "mount -t tmpfs none /sys/kernel
		'$FLARE' list tracepoint" 2>ntl.txt >/dev/null
	check_eq "no tracefs: flare list tracepoint fails" 1 $?
else
	skip "tracefs missing" "cannot make a private mount namespace here"
fi
check_eq "nothing left enabled in tracefs" "" "$(tracefs_leftovers)"
ls perf.data* >/dev/null 2>&1 && fail "stat leaves no perf.data" || pass "stat leaves no perf.data"
