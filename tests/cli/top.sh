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

# --- the terminal browser, driven in tmux as a person would ---
if ! command -v tmux >/dev/null 2>&1; then
	skip "the browser in tmux" "tmux is not installed (scripts/deps.sh --test)"
	exit 0
fi
SOCK=flare-top-test-$$-0
NTERM=0
tm() { tmux -L "$SOCK" "$@"; }
# the servers' sockets go with the test: only this test's own
trap 'tm kill-server 2>/dev/null; rm -f "${TMUX_TMPDIR:-/tmp}/tmux-$(id -u)/flare-top-test-$$-"*' EXIT
# start W H CMD: a fresh terminal of W x H running CMD, its stty state saved before and after
start() {
	tm kill-server 2>/dev/null
	NTERM=$((NTERM + 1))
	SOCK=flare-top-test-$$-$NTERM	# a new server each time: the old one may still be going
	rm -f exit.txt after.stty
	tm new-session -d -x "$1" -y "$2" "stty -g >before.stty; $3; echo EXIT=\$? >exit.txt; stty -g >after.stty; sleep 60"
}
screen() { tm capture-pane -p >screen.txt; }
# wait_for REGEX [SECONDS]: until the screen shows it (the machine may be loaded)
wait_for() {
	local i
	for ((i = 0; i < ${2:-20} * 5; i++)); do
		screen
		grep -Eq -- "$1" screen.txt && return 0
		sleep 0.2
	done
	return 1
}
wait_exit() {
	local i
	for ((i = 0; i < ${1:-20} * 5; i++)); do
		[ -s after.stty ] && return 0
		sleep 0.2
	done
	return 1
}
restored() {
	if wait_exit 20 && cmp -s before.stty after.stty; then pass "$1"; else
		fail "$1" "stty before '$(cat before.stty 2>/dev/null)' after '$(cat after.stty 2>/dev/null)'"; fi
}

$FLARE record -q -g -o tui.data "$WL/cpu_burn" 1 >/dev/null 2>&1
start 120 30 "$FLARE report -i tui.data"
if wait_for 'cpu_burn +\[\.\] b *$'; then pass "report browser: the entries"; else
	fail "report browser: the entries" "$(head -c 400 screen.txt)"; fi
check_grep "report browser: the title says samples and event" "^Samples: [0-9]+ of event 'cpu-clock" screen.txt
check_grep "report browser: the column header" "Children +Self +Command +Shared Object +Symbol" screen.txt
tm send-keys /; tm send-keys -l '[.] a'; tm send-keys Enter
if wait_for '^search: \[\.\] a'; then pass "report browser: / finds an entry"; else fail "report browser: / finds an entry" "$(tail -c 200 screen.txt)"; fi
tm send-keys Enter
# b under a, as a branch ("--60.00%--b") or a line of a straight chain, as the profile falls
expanded='(--b *$|^[ |]+b *$)'
if wait_for "$expanded"; then pass "report browser: Enter expands the chain a -> b"; else
	fail "report browser: Enter expands the chain a -> b" "$(head -c 600 screen.txt)"; fi
tm send-keys -
sleep 0.5; screen
if grep -Eq -- "$expanded" screen.txt; then fail "report browser: - collapses it"; else pass "report browser: - collapses it"; fi
tm send-keys e Home
wait_for '---__libc_start_call_main' 10 && pass "report browser: e expands every entry" || fail "report browser: e expands every entry"
tm send-keys c h
wait_for 'zoom into the entry' 10 && pass "report browser: h shows the help" || fail "report browser: h shows the help"
tm send-keys q i
wait_for '^# (hostname|os release|cmdline)' 10 && pass "report browser: i shows the header info" || fail "report browser: i shows the header info"
tm send-keys q /; tm send-keys -l '[.] b'; tm send-keys Enter a
if wait_for 'Percent +\| +Source code & Disassembly of ' 20; then pass "report browser: a shows the entry's symbol annotated"
else fail "report browser: a shows the entry's symbol annotated" "$(head -c 400 screen.txt)"; fi
tm send-keys q
wait_for 'cpu_burn +\[\.\] b *$' 10 && pass "report browser: q leaves the annotation for the entries" || fail "report browser: q leaves the annotation for the entries"
tm send-keys t
wait_for '\[thread: cpu_burn\([0-9]+\)\]' 10 && pass "report browser: t zooms into the thread" || fail "report browser: t zooms into the thread"
tm send-keys q
sleep 0.5; screen
grep -q 'thread:' screen.txt && fail "report browser: q leaves the zoom" || pass "report browser: q leaves the zoom"
tm send-keys s; tm send-keys -l 'sym'; tm send-keys Enter
wait_for '^ *Children +Self +Symbol *$' 10 && pass "report browser: s sorts by other keys" || fail "report browser: s sorts by other keys" "$(sed -n 2p screen.txt)"
tm send-keys q
restored "report browser: q quits and the terminal is as before"
check_eq "report browser: exit status 0" "EXIT=0" "$(cat exit.txt)"

# SIGTERM while browsing: the terminal is restored all the same
rm -f after.stty
start 120 30 "$FLARE report -i tui.data"
wait_for 'cpu_burn +\[\.\] b *$' >/dev/null
rp=$(pgrep -f "^$FLARE report -i tui.data$")
[ -n "$rp" ] && kill -TERM $rp
restored "report browser: SIGTERM restores the terminal"

# a resize: too small says so, larger again shows the entries; Ctrl-C quits
start 120 30 "$FLARE report -i tui.data"
wait_for 'cpu_burn +\[\.\] b *$' >/dev/null
tm resize-window -x 30 -y 4 2>/dev/null
wait_for 'terminal too small' 10 && pass "a resize to a tiny terminal says it is too small" ||
	fail "a resize to a tiny terminal says it is too small" "$(cat screen.txt)"
tm resize-window -x 120 -y 30 2>/dev/null
wait_for 'cpu_burn +\[\.\] b *$' 10 && pass "resized back, the entries again" ||
	fail "resized back, the entries again" "$(head -c 300 screen.txt)"
tm send-keys C-c
restored "report browser: Ctrl-C quits and the terminal is as before"

# too small a terminal: one line, status 1, the terminal as before
rm -f after.stty
start 30 5 "$FLARE report -i tui.data 2>small.err"
restored "a terminal too small: the terminal as before"
check_grep "a terminal too small: says so and how to go on" "too small .*--stdio" small.err
check_eq "a terminal too small: status 1" "EXIT=1" "$(cat exit.txt)"

# top in the browser over a running workload, and a -p task that exits under it
"$WL/cpu_burn" 8 >/dev/null & P=$!
rm -f after.stty
start 120 30 "$FLARE top -d 1 -p $P 2>top-tui.err"
if wait_for 'cpu_burn +\[\.\] b *$' 30; then pass "top browser: the workload's entries"; else
	fail "top browser: the workload's entries" "$(head -c 400 screen.txt)"; fi
check_grep "top browser: the title names the target" "\(target_pid: $P\)" screen.txt
restored "top browser: the -p task exits, top ends, the terminal as before"
check_eq "top browser: exit status 0 when the task is gone" "EXIT=0" "$(cat exit.txt)"
check_eq "top browser: nothing said on stderr but the PMU line" "" "$(grep -v 'no hardware PMU' top-tui.err)"
wait $P
"$WL/cpu_burn" 30 >/dev/null & P=$!
rm -f after.stty
start 120 30 "$FLARE top -d 1 -g -p $P"
wait_for 'cpu_burn +\[\.\] b *$' 30 >/dev/null
tm send-keys Down Down Enter
wait_for '--[0-9.]+%--b' 20 && pass "top browser: Enter expands a chain" || fail "top browser: Enter expands a chain" "$(head -c 600 screen.txt)"
tm send-keys q
restored "top browser: q quits and the terminal is as before"
kill $P 2>/dev/null
wait $P 2>/dev/null || true
