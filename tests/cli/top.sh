#!/usr/bin/env bash
# flare top: --stdio against a report of the same period, its header, a -p task that exits,
# bad input; the terminal browser (report's and top's) driven in tmux.
source "$ROOT/tests/lib.sh"

# last_screen FILE: the rows of the last refresh of a --stdio output
last_screen() { awk '/PerfTop:/ { n = 0; delete r } /%/ && !/PerfTop:/ { r[n++] = $0 }
	END { for (i = 0; i < n; i++) print r[i] }' "$1"; }

# --- --stdio on a task, beside a recording of the same period ---
"$WL/cpu_burn" 4 >/dev/null & P=$!
$FLARE record -q -p $P -o same.data 2>rec.err & R=$!
timeout 30 $FLARE top --stdio -d 1 -p $P >top.out 2>top.err; rc=$?
wait $R
check_eq "top -p of a task that exits ends by itself, status 0" 0 "$rc"
check_grep "the header: rate, event, lost and target" \
	'PerfTop: +[0-9]+ irqs/sec  kernel: *[0-9.]+%  exact: *[0-9.]+% lost: 0/0 drop: 0/0 \[[0-9]+Hz [a-z-]+(:[a-zA-Z]+)?\],  \(target_pid: '$P'\)' top.out
check_grep "no PMU: one line says cpu-clock is sampled instead" 'no hardware PMU|^$' top.err
last_screen top.out >rows
top_sym=$(awk '{ print $NF; exit }' rows)
rep_sym=$($FLARE report -i same.data --stdio -q -s dso,sym 2>/dev/null | awk 'NF { print $NF; exit }')
check_eq "the hot symbol on top is the one a report of the same period shows" "$rep_sym" "$top_sym"
check_grep "rows in report's shape: percent, dso, [.] symbol" '^ +[0-9]+\.[0-9]+%  cpu_burn +\[\.\] b$' rows

# -E, -n, -s comm on a tracepoint, -g with children
"$WL/cpu_burn" 3 >/dev/null & P=$!
timeout 30 $FLARE top --stdio -d 1 -E 2 -g -p $P >g.out 2>&1
wait $P
check_grep "-g: Children and Self columns" '^ +[0-9.]+% +[0-9.]+%  ' g.out
check_grep "-g: a call chain under an entry" '[-]{3}[a-z_]' g.out
"$WL/getppid_n" 3000000 >/dev/null & P=$!
timeout 30 $FLARE top --stdio -d 1 -e syscalls:sys_enter_getppid -n -s comm -p $P >tp.out 2>&1
wait $P
check_grep "a tracepoint by comm with -n: the sample count column" \
	'^ +100\.00% +[0-9]+  getppid_n' tp.out
check_eq "the tracepoint's event is left disabled" "" "$(tracefs_enabled_events 2>/dev/null | grep sys_enter_getppid)"

# --- bad input ---
check_fails "top -p of no process fails" $FLARE top --stdio -p 4194000
check_grep "... saying which pid" "no process 4194000 for -p" "$TMP/out"
check_fails "top -d 0 is a usage error" $FLARE top --stdio -d 0
check_fails "an unknown sort key fails" $FLARE top --stdio -s nosuch -p $$
check_grep "... naming it" "unknown --sort key 'nosuch'" "$TMP/out"
check_fails "an unknown event fails" $FLARE top --stdio -e nosuch
