#!/usr/bin/env bash
# flare record under signals, as a user's terminal and a supervisor send them: SIGINT to the
# whole process group (Ctrl-C: flare and its workload both get it) and SIGTERM to flare alone,
# at many moments from 0 ms to 1.5 s, for `record CMD`, `record -a -g` and a tracepoint
# recording. Every time: the exit status is the signal's; a file is there and complete
# (flare and perf read it, and count the same samples flare said it wrote), or flare died
# of the signal before it had made anything; no temporary file is left; the tracepoint's
# enable switch is as it was. Then SIGKILL (salvage: the file so far is readable) and a
# file cut short (read up to the cut, the loss said).
source "$ROOT/tests/lib.sh"
set -m	# each background job in its own process group, as a shell gives a terminal's job

if ! have_perf; then
	skip "signals vs perf" "Linux perf is not installed"
	exit 0
fi
tp=sched/sched_switch
tp_enable=/sys/kernel/tracing/events/$tp/enable
tp_before=$(cat "$tp_enable" 2>/dev/null)

# trial NAME SIGNAL(INT to the group | TERM to flare) DELAY ARGS...
trial() {
	local name=$1 sig=$2 delay=$3 pid rc want samples fl pl
	shift 3
	rm -f t.data t.data.old t.err
	$FLARE record -o t.data "$@" >/dev/null 2>t.err &
	pid=$!
	[ "$delay" = 0 ] || sleep "$delay"
	if [ "$sig" = INT ]; then kill -INT -- -"$pid" 2>/dev/null; want=130; else kill -TERM "$pid" 2>/dev/null; want=143; fi
	wait "$pid"
	rc=$?
	local what="$name, SIG$sig after ${delay}s"
	if [ -n "$(ls -a | grep flare-tmp)" ]; then
		fail "$what: no temporary file left" "$(ls -a | grep flare-tmp | tr '\n' ' ')"
		rm -f .*flare-tmp*
		return
	fi
	if [ "$rc" != "$want" ]; then
		fail "$what: exit status $want" "got $rc: $(head -c 300 t.err | tr '\n' ' ')"
		return
	fi
	if [ ! -e t.data ]; then
		# only when flare died of the signal before it made anything, or the signal came
		# before the events were on and flare said so in one line
		if [ ! -s t.err ] || ! grep -qv '^flare: warning: ' t.err; then
			# killed by the signal itself before its handling was set up (perhaps after
			# a warning about the events, such as the cpu-clock fallback)
			pass "$what: died before starting, nothing left"
		elif tail -1 t.err | grep -q 'before the recording started: nothing was recorded$'; then
			pass "$what: interrupted before starting, said so, nothing left"
		else
			fail "$what: no file, and why" "$(head -c 300 t.err | tr '\n' ' ')"
		fi
		return
	fi
	if [ "$(grep -c . t.err)" -gt 0 ] && ! grep -q 'Captured and wrote' t.err; then
		fail "$what: the final line" "$(head -c 300 t.err | tr '\n' ' ')"
		return
	fi
	samples=$(sed -n 's/.*Captured and wrote .* (\([0-9]*\) samples.*/\1/p' t.err)
	fl=$($FLARE script -i t.data -F comm 2>t.ferr | wc -l)
	pl=$(perf script -i t.data -F comm 2>t.perr | wc -l)
	if [ -s t.ferr ] || [ -s t.perr ]; then
		fail "$what: readable by flare and perf" "$(head -c 200 t.ferr) $(grep -v '^ *$' t.perr | head -c 200)"
	elif [ "$fl" != "$pl" ] || { [ -n "$samples" ] && [ "$samples" != "$fl" ]; }; then
		fail "$what: sample counts agree" "flare said $samples, flare script $fl, perf script $pl"
	else
		pass "$what: a complete file ($fl samples), read alike by flare and perf"
	fi
}

delays="0 0.002 0.01 0.04 0.15 0.5 1.5"
for sig in INT TERM; do
	for d in $delays; do
		trial "record CMD" $sig "$d" -- "$WL/cpu_burn" 5
	done
	for d in $delays; do
		trial "record -a -g" $sig "$d" -a -g
	done
	for d in $delays; do
		trial "record -e ${tp/\//:} -a" $sig "$d" -e "${tp/\//:}" -a
	done
done
check_eq "the tracepoint's enable switch is as it was" "$tp_before" "$(cat "$tp_enable" 2>/dev/null)"

# SIGKILL: nothing can be cleaned up; what was written so far is a readable perf.data
rm -f k.data
$FLARE record -o k.data -a -g >/dev/null 2>&1 &
pid=$!
# recording once the start-up records are on disk (the header's data size, at 48, is set)
for i in $(seq 100); do
	[ "$(od -An -tu8 -j48 -N8 k.data 2>/dev/null | tr -d ' ')" -gt 0 ] 2>/dev/null && break
	sleep 0.1
done
sleep 0.2
"$WL/cpu_burn" 0.5 >/dev/null
sleep 0.3	# drained (at least every 100 ms) and on disk with the header's size
kill -KILL "$pid"
wait "$pid" 2>/dev/null
check_eq "SIGKILL: no hidden temporary file" "" "$(ls -a | grep flare-tmp)"
if [ -s k.data ]; then
	pass "SIGKILL: k.data is there"
	$FLARE report --stdio --no-children --sort comm -i k.data >kf.txt 2>kf.err
	check_eq "SIGKILL: flare report reads it (exit 0)" 0 $?
	check_grep "SIGKILL: flare report shows cpu_burn's samples" '%.*cpu_burn' kf.txt
	perf report --stdio --no-children --sort comm -i k.data >kp.txt 2>kp.err
	check_grep "SIGKILL: perf report reads it too" '%.*cpu_burn' kp.txt
else
	fail "SIGKILL: k.data is there" "$(ls -la)"
fi

# a file cut short: read up to the cut, the loss said in one line, exit 0
$FLARE record -q -o full.data -g -- "$WL/cpu_burn" 0.5 >/dev/null 2>&1
off=$(od -An -tu8 -j40 -N16 full.data | awk '{print $1 + int($2 / 2) + 3}')
head -c "$off" full.data >cut.data
for cmd in "report --stdio" "script" "flamegraph -o cut.svg"; do
	$FLARE $cmd -i cut.data >cut.out 2>cut.err
	rc=$?
	# perf script's status for a file that breaks off is 234 (-EINVAL); report's is 0
	want=0
	[ "$cmd" = script ] && want=234
	check_eq "cut file: $cmd exits $want (as perf)" $want "$rc"
	[ "$cmd" = script ] && check_grep "cut file: script prints the samples before the cut" 'cpu_burn' cut.out
	check_grep "cut file: $cmd says what was lost" "cut short at offset 0x[0-9a-f]+: read [0-9]+ of .* bytes" cut.err
	check_eq "cut file: $cmd says it once" 1 "$(grep -c . cut.err)"
done
check_grep "cut file: report shows the samples before the cut" '%.*cpu_burn' <($FLARE report --stdio -i cut.data 2>/dev/null)
