#!/usr/bin/env bash
# flare flamegraph from perf.data: folded stacks equal to those of the perf script text of the
# same file (whose folding tests/cli/flamegraph.sh holds to stackcollapse-perf.pl's), for
# per-task, multi-thread, system-wide and tracepoint recordings; default input, pipes,
# the demo's -i/-o form and a differential of two recordings.
source "$ROOT/tests/lib.sh"

# flare's own recordings, as the README's demo makes and draws them
mkdir -p demo-out
if timeout -s KILL 60 "$FLARE" record -g -o demo-out/perf.data "$WL/cpu_burn" 0.3 >/dev/null 2>rec.err; then
	check "demo: flare flamegraph -i demo-out/perf.data -o demo-out/flame.svg" \
		"$FLARE" flamegraph -i demo-out/perf.data -o demo-out/flame.svg
	check_grep "demo: the svg shows main" '^<title>main \(' demo-out/flame.svg
	"$FLARE" flamegraph --folded -i demo-out/perf.data >demo.folded
	check_grep "flare's recording folds cpu_burn;...;main;a" '^cpu_burn;.*main;a(;b)? [0-9]+$' demo.folded
	if have_perf; then
		perf script -i demo-out/perf.data 2>/dev/null | "$FLARE" flamegraph --folded >demo.s
		check "flare's recording: = perf script on it | collapse" cmp -s demo.s demo.folded
	fi
else
	fail "flare record -g for the demo" "$(tail -c 300 rec.err)"
fi
if timeout -s KILL 60 "$FLARE" record -g -o - "$WL/cpu_burn" 0.2 2>/dev/null >pipe.data; then
	"$FLARE" flamegraph --folded <pipe.data >fpipe.out 2>&1
	check_grep "flare record -o - | flare flamegraph" '^cpu_burn;.*main;' fpipe.out
else
	fail "flare record -o -" "exit $?"
fi

if ! have_perf; then
	skip "perf.data input" "Linux perf is not installed to record and print the fixtures"
	exit 0
fi

# same_as_script "what" file [flare options]: flare on the file = flare on perf script's text
same_as_script() {
	local what=$1 file=$2
	shift 2
	perf script -i "$file" 2>/dev/null | "$FLARE" flamegraph --folded "$@" >s.out 2>/dev/null
	"$FLARE" flamegraph --folded "$@" -i "$file" >d.out 2>d.err
	if [ -s s.out ] && cmp -s s.out d.out; then
		pass "$what $* = perf script | collapse"
	else
		fail "$what $* = perf script | collapse" "$(diff s.out d.out | head -4 | tr '\n' ' ') $(head -c 200 d.err)"
	fi
}

perf record -q -F 999 -g -o fp.data "$WL/cpu_burn" 0.3 >/dev/null 2>&1
perf record -q -F 999 -g -o mt.data "$WL/mt_burn" 0.3 >/dev/null 2>&1
perf record -q -F 499 -a -g -o sys.data -- "$WL/cpu_burn" 0.3 >/dev/null 2>&1
perf record -q -e sched:sched_switch -e syscalls:sys_enter_getppid -e syscalls:sys_enter_openat \
	-g -o tp.data -- "$WL/open_n" 300 >/dev/null 2>&1
perf record -q -e cpu-clock -e syscalls:sys_enter_getppid -F 999 -g -o mix.data -- \
	"$WL/getppid_n" 100000 >/dev/null 2>&1
perf record -q -e cpu-clock -c 200000 -g -o period.data "$WL/cpu_burn" 0.2 >/dev/null 2>&1
same_as_script "fixed period (-c: the period comes from the attr)" period.data
for f in fp mt tp mix; do
	for o in "" --kernel --all --addrs; do
		# shellcheck disable=SC2086
		same_as_script "$f" $f.data $o
	done
done
# system-wide: the workload's samples (other processes hit whatever the kernel runs)
for o in "" --kernel --addrs; do
	# shellcheck disable=SC2086
	same_as_script sys sys.data --comm cpu_burn $o
done
same_as_script mix mix.data --event-filter=syscalls:sys_enter_getppid

# --pid/--tid: real ids, as perf script prints them with -F pid,tid
for o in --pid --tid; do
	perf script -F comm,pid,tid,time,period,event,ip,sym,dso -i mt.data 2>/dev/null |
		"$FLARE" flamegraph --folded $o >s.out
	"$FLARE" flamegraph --folded $o -i mt.data >d.out
	check "mt $o = perf script -F pid,tid | collapse $o" cmp -s s.out d.out
done
pid=$(awk -F'[-;/]' '{print $2; exit}' d.out)
check_grep "--tid roots are comm-pid/tid" "^worker_a-$pid/[0-9]+;" d.out

# the call tree of cpu_burn is there, with its shares
"$FLARE" flamegraph --folded -i fp.data >fp.folded
check_grep "cpu_burn;...;main;b (b's caller a is a leaf call perf's unwinding skips)" '^cpu_burn;.*main;(a;)?b [0-9]+$' fp.folded
total=$(awk '{s += $NF} END {print s}' fp.folded)
b=$(awk '/;b$/ || / / {split($1, f, ";"); if (f[length(f)] == "b") s += $NF} END {print s}' fp.folded)
within "b has about 60% of the samples" "$(awk -v b="$b" -v t="$total" 'BEGIN {print 100 * b / t}')" 60 12

# filters on perf.data
"$FLARE" flamegraph --folded --comm worker_b -i mt.data >m.out
check_eq "--comm on perf.data" worker_b "$(cut -d';' -f1 m.out | sort -u)"
tid=$(perf script -F comm,tid -i mt.data 2>/dev/null | awk '$1 == "worker_a" {print $2; exit}')
"$FLARE" flamegraph --folded --tid="$tid" -i mt.data >m.out
check_grep "--tid=LIST on perf.data keeps that thread" '^worker_a;' m.out
check_eq "--tid=LIST on perf.data drops the others" 0 "$(grep -c '^worker_b' m.out)"
"$FLARE" flamegraph --folded --pid=1 -i mt.data >m.out 2>/dev/null
check_eq "--pid=LIST of another process keeps nothing" 0 "$(wc -l <m.out)"

# the demo's form, and ./perf.data by default
check "-i perf.data -o flame.svg" "$FLARE" flamegraph -i fp.data -o flame.svg
check_grep "the svg draws main" '^<title>main \(' flame.svg
cp fp.data perf.data
"$FLARE" flamegraph </dev/null >default.svg 2>/dev/null
check "no input given: ./perf.data" cmp -s flame.svg default.svg
"$FLARE" flamegraph --folded <fp.data >pipe.out 2>/dev/null
check "perf.data on standard input" cmp -s fp.folded pipe.out
perf record -q -F 999 -g -o - "$WL/cpu_burn" 0.2 2>/dev/null | "$FLARE" flamegraph --folded >pp.out 2>pp.err
check_grep "perf's pipe format on standard input" '^cpu_burn;.*main;(a;)?b [0-9]+$' pp.out
rm -f perf.data
"$FLARE" flamegraph -o html.html -i fp.data
check_grep "html from perf.data carries the frames" '"main"' html.html

# a recording without -g still draws: one frame per sample under its command
perf record -q -F 999 -o nog.data "$WL/cpu_burn" 0.2 >/dev/null 2>&1
"$FLARE" flamegraph --folded -i nog.data >nog.out
check_grep "no call graph: comm;leaf" '^cpu_burn;b [0-9]+$' nog.out

# differential of two recordings of the demo workload, b made slower: b is the red frame
perf record -q -F 999 -g -o slow.data "$WL/cpu_burn" 0.5 b >/dev/null 2>&1
"$FLARE" flamegraph --diff fp.data slow.data >diff.svg
rgb() { grep "^<title>$1 (" diff.svg | sed -n 's/.*fill="rgb(\([0-9]*\),\([0-9]*\),\([0-9]*\))".*/\1 \2 \3/p' | head -1; }
read -r r g bl <<<"$(rgb b)"
if [ "${r:-0}" = 255 ] && [ "${g:-255}" -lt 150 ]; then pass "diff: slowed b is red"; else fail "diff: slowed b is red" "rgb($r,$g,$bl)"; fi
for fn in a c main cpu_burn; do
	read -r r g bl <<<"$(rgb $fn)"
	# c (10% of the time before, 4% after) may get no sample in a short run under load
	[ -z "$r" ] && [ $fn = c ] && ! grep -q ';c ' <("$FLARE" flamegraph --folded -i slow.data) && continue
	if [ -n "$r" ] && [ "$bl" -ge "$g" ] && { [ "$r" -lt 255 ] || [ "$g" -ge 200 ]; }; then
		pass "diff: $fn is not red"
	else
		fail "diff: $fn is not red" "rgb($r,$g,$bl)"
	fi
done
"$FLARE" flamegraph --diff-table fp.data slow.data >table.out
check_eq "--diff-table: b grew most in self" b "$(sed -n '/^# self/,/^$/p' table.out | sed -n 3p | awk '{print $NF}')"
check_grep "--diff-table: b's self delta is positive" '^ +[0-9]+ +[0-9]+ +\+[0-9]+ +\+[0-9.]+%  b$' table.out

# errors on perf.data
printf 'PERFILE2 but not really' >bad.data
"$FLARE" flamegraph -i bad.data -o bad.svg >/dev/null 2>e.err
check_eq "corrupt perf.data exits 1" 1 "$?"
check_eq "corrupt perf.data: one line" 1 "$(wc -l <e.err)"
check_grep "corrupt perf.data names the file" "^flare: cannot read 'bad.data'" e.err
check "corrupt perf.data leaves no svg" test ! -e bad.svg
