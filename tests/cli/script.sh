#!/usr/bin/env bash
# script: flare script against perf script on a fresh recording, its filters, -D, the folded
# stacks FlameGraph-style tools make of it, and bad input.
source "$ROOT/tests/lib.sh"
FX=$TESTDATA
"$FX/install-bins.sh"

if have_perf; then
	perf record -q -g -F 999 -o wl.data -- "$WL/mt_burn" 0.4 >/dev/null 2>&1
	perf script -i wl.data >perf.txt 2>/dev/null
	check "script on perf's recording of mt_burn" $FLARE script -i wl.data
	if diff perf.txt "$TMP/out" >d.txt; then
		pass "same text as perf script on a fresh recording"
	else
		fail "same text as perf script on a fresh recording" "$(head -6 d.txt | tr '\n' '~')"
	fi
	perf script -F comm,tid,time,ip,sym,dso --ns -i wl.data >perf2.txt 2>/dev/null
	$FLARE script -F comm,tid,time,ip,sym,dso --ns -i wl.data >flare2.txt 2>&1
	check_eq "same text as perf script -F comm,tid,time,ip,sym,dso --ns" "" "$(diff perf2.txt flare2.txt | head -3)"
	# what stackcollapse-perf.pl makes of it (flare's port of it) is the same too
	$FLARE flamegraph --folded <perf.txt | sort >perf.folded 2>/dev/null
	$FLARE script -i wl.data | $FLARE flamegraph --folded 2>/dev/null | sort >flare.folded
	if [ -s perf.folded ] && cmp -s perf.folded flare.folded; then
		pass "folded stacks of flare script equal those of perf script"
	else
		fail "folded stacks of flare script equal those of perf script" "$(diff perf.folded flare.folded | head -4 | tr '\n' ' ')"
	fi
else
	skip "script on perf's recording" "Linux perf is not installed"
fi

# perf script's options, each compared with perf script on the fixtures (HOME holds the cached
# kallsyms of the fixtures' kernel, as in script-golden.sh, in a copy that perf may write to)
FXHOME=$(fixture_home)
# same_as_perf "what" FIXTURE ARGS...: both print the same, non-empty, and exit 0
same_as_perf() {
	local what=$1 fx=$2 prc frc; shift 2
	HOME=$FXHOME perf script -i "$FX/$fx.data" "$@" >p.out 2>/dev/null; prc=$?
	HOME=$FXHOME $FLARE script -i "$FX/$fx.data" "$@" >f.out 2>f.err; frc=$?
	if [ $prc -ne 0 ] || [ $frc -ne 0 ] || [ ! -s p.out ]; then
		fail "$what" "perf exit $prc ($(wc -l <p.out) lines), flare exit $frc: $(head -c 200 f.err)"
	elif diff p.out f.out >d.txt; then
		pass "$what"
	else
		fail "$what" "$(head -6 d.txt | tr '\n' '~')"
	fi
}
# refused_as_perf "what" FIXTURE ARGS...: both refuse with the same exit status; flare with
# one line and nothing on stdout
refused_as_perf() {
	local what=$1 fx=$2 prc frc; shift 2
	HOME=$FXHOME perf script -i "$FX/$fx.data" "$@" >p.out 2>&1; prc=$?
	HOME=$FXHOME $FLARE script -i "$FX/$fx.data" "$@" >f.out 2>f.err; frc=$?
	check_eq "$what" "perf refuses, flare $prc 0 1" \
		"$([ $prc -ne 0 ] && echo perf refuses), flare $frc $(wc -c <f.out) $(wc -l <f.err)"
}
if have_perf; then
	same_as_perf "-C 1 as perf" syswide -C 1
	# a kallsyms of a few symbols: every kernel address is named after one of them
	grep -E ' (_text|schedule|__schedule|do_syscall_64|asm_sysvec_apic_timer_interrupt)$' \
		"$FXHOME"/.debug/'[kernel.kallsyms]'/*/kallsyms >"$TMP/ks"
	same_as_perf "--kallsyms FILE as perf" fp -F ip,sym --kallsyms "$TMP/ks"
	refused_as_perf "--kallsyms of a missing file is refused as by perf" fp --kallsyms /no/such
	same_as_perf "-C 0-1 as perf" syswide -C 0-1
	same_as_perf "-C 01,x (octal, list ends at x) as perf" syswide -C 01,x
	same_as_perf "-C 0 with a tracepoint as perf" tp -C 0
	refused_as_perf "-C on a file without CPUs is refused as by perf" fp -C 0
	refused_as_perf "-C with a CPU the file has not is refused as by perf" syswide -C 3
	refused_as_perf "-C with a CPU twice is refused as by perf" syswide -C 1,1
	refused_as_perf "-C x is refused as by perf" syswide -C x
	same_as_perf "--time START,STOP as perf" fp --time 2175.6,2175.7
	same_as_perf "--time START, as perf" fp --time 2175.6,
	same_as_perf "--time ,STOP as perf" fp --time ,2175.54
	same_as_perf "--time with two ranges as perf" fp --time "2175.54,2175.55 2175.6,2175.61"
	same_as_perf "--time 10%/2 as perf" fp --time 10%/2
	same_as_perf "--time 0%-10%,30%-40% as perf" fp --time 0%-10%,30%-40%
	same_as_perf "--time 50% as perf" fp --time 50%
	same_as_perf "--time on a pipe recording as perf" pipe --time 2180.5,2181.6
	refused_as_perf "--time without a comma is refused as by perf" fp --time 2175.6
	refused_as_perf "--time with STOP before START is refused as by perf" fp --time 2175.7,2175.6
	refused_as_perf "--time with three commas in one range is refused as by perf" fp \
		--time 2175.54,2175.55,2175.6
	refused_as_perf "--time 10%/2 without sample times is refused as by perf" pipe --time 10%/2
	for fx in fp tp pipe; do
		same_as_perf "--header on $fx as perf" $fx --header
		same_as_perf "--header-only on $fx as perf" $fx --header-only
		same_as_perf "--header -I on $fx as perf" $fx --header -I
		same_as_perf "-I on $fx as perf" $fx -I
	done
	same_as_perf "--header-only -I on syswide as perf" syswide --header-only -I
	same_as_perf "-S one symbol as perf" mt -S work_a
	same_as_perf "-S a user and a kernel symbol as perf" mt -S work_b,irqentry_exit_to_user_mode
	same_as_perf "-S a symbol of ld.so as perf" period -S do_lookup_x
	same_as_perf "-S on tracepoint samples as perf" tp -S __GI___open64_nocancel
	same_as_perf "-S with -C as perf" syswide -S work_a -C 1
	for fx in fp mt syswide tp; do
		same_as_perf "--show-task-events on $fx as perf" $fx --show-task-events
		same_as_perf "--show-mmap-events on $fx as perf" $fx --show-mmap-events
	done
	same_as_perf "--show-task-events --show-mmap-events -C 1 as perf" syswide \
		--show-task-events --show-mmap-events -C 1
	same_as_perf "--show-task-events --show-mmap-events -G --ns on tracepoints as perf" tp \
		--show-task-events --show-mmap-events -G --ns
	same_as_perf "--show-mmap-events -F comm,pid,tid,time as perf" fp --show-mmap-events \
		-F comm,pid,tid,time
	same_as_perf "-G on tracepoints with call chains as perf" tp -G
	same_as_perf "--symfs / as perf" fp --symfs /
	same_as_perf "--symfs with no binaries under it as perf" fp --symfs "$TMP"
	# a recording of a kernel this machine does not run, its kallsyms in ~/.debug: named from
	# there, but not under --symfs /, whose build-id cache is /.debug
	if command -v python3 >/dev/null && other_kernel_copy "$FX/fp.data" "$TMP/fpk.data" "$FXHOME"; then
		FX=$TMP same_as_perf "another kernel's recording: kernel frames from ~/.debug as perf" fpk
		FX=$TMP same_as_perf "another kernel's recording: --symfs / as perf" fpk --symfs /
	else
		skip "--symfs / on another kernel's recording" "python3 is not installed"
	fi
	same_as_perf "--max-stack 2 as perf" mt --max-stack 2
	same_as_perf "--max-stack 1 on tracepoints as perf" tp --max-stack 1
	same_as_perf "--reltime with task events as perf" fp --reltime --show-task-events
	same_as_perf "--deltatime --ns with task events as perf" syswide --deltatime --ns \
		--show-task-events
	same_as_perf "--reltime --time 0.1,0.2 as perf" fp --reltime --time 0.1,0.2
	refused_as_perf "--reltime with --deltatime is refused as by perf" fp --reltime --deltatime
	# -D prints the records as --show-*-events do (after perf's CPU/time/offset prefix; perf
	# prints them in time order, flare in file order)
	re='PERF_RECORD_\(MMAP\|COMM\|FORK\|EXIT\).*'
	for fx in fp syswide; do
		HOME=$FXHOME perf script -D -i "$FX/$fx.data" | grep -o "$re" | sort >p.out
		HOME=$FXHOME $FLARE script -D -i "$FX/$fx.data" | grep -o "$re" | sort >f.out
		check_eq "-D prints MMAP, MMAP2, COMM, FORK, EXIT of $fx as perf" "" \
			"$(diff p.out f.out | head -3)"
	done
	# context switches: a fresh recording with --switch-events, per task and system-wide
	perf record -q --switch-events -o sw.data -- "$WL/cpu_burn" 0.1 >/dev/null 2>&1
	perf record -q -a --switch-events -o swa.data -- sleep 0.1 >/dev/null 2>&1
	# (system-wide, a switch may rarely come out of order against perf's round-by-round
	# release: the lines are compared sorted there)
	# System-wide, a sample may land in a BPF program another process loaded: perf names it
	# from PERF_RECORD_KSYMBOL, which flare does not read yet. drop_bpf P F leaves out of both
	# outputs the samples perf named so (by their prefix up to the address), counted in nbpf.
	nbpf=0
	drop_bpf() {
		grep 'bpf_prog_' "$1" | sed -E 's/^(.*:  +[0-9a-f]+) .*/\1 /' >bpf.keys
		[ -s bpf.keys ] || return 0
		nbpf=$((nbpf + $(wc -l <bpf.keys)))
		grep -vF -f bpf.keys "$1" >"$1.t" && mv "$1.t" "$1"
		grep -vF -f bpf.keys "$2" >"$2.t" && mv "$2.t" "$2"
	}
	for d in sw swa; do
		srt=cat
		[ $d = swa ] && srt=sort
		perf script -i $d.data --show-switch-events 2>/dev/null | $srt >p.out
		$FLARE script -i $d.data --show-switch-events 2>&1 | $srt >f.out
		drop_bpf p.out f.out
		check_eq "--show-switch-events on a fresh $d recording as perf" "" \
			"$(diff p.out f.out | head -3)"
		check_grep "--show-switch-events on $d shows switches" "PERF_RECORD_SWITCH" f.out
	done
	perf script -i swa.data --show-switch-events -C 1 2>/dev/null | sort >p.out
	$FLARE script -i swa.data --show-switch-events -C 1 2>&1 | sort >f.out
	drop_bpf p.out f.out
	check_eq "--show-switch-events -C 1 system-wide as perf" "" "$(diff p.out f.out | head -3)"
	if [ "$nbpf" -gt 0 ]; then
		skip "$nbpf samples in BPF programs named as perf names them" \
			"flare does not read PERF_RECORD_KSYMBOL yet (programs loaded by other processes)"
	fi
fi

# filters
$FLARE script -F comm,tid --comm worker_b -i "$FX/mt.data" >c.txt
check_eq "--comm keeps only that command" "worker_b" "$(awk '{ print $1 }' c.txt | sort -u)"
tid=$(head -1 c.txt | awk '{ print $2 }')
$FLARE script -F tid --tid "$tid" -i "$FX/mt.data" >t.txt
check_eq "--tid keeps only that thread" "$tid" "$(awk '{ print $1 }' t.txt | sort -u)"
check_eq "--comm and --tid agree on the count" "$(wc -l <c.txt)" "$(wc -l <t.txt)"
$FLARE script -G -F ip,sym -i "$FX/fp.data" >g.txt
check_eq "-G prints one line per sample" "$(grep -c 'cpu-clock' "$FX/golden/055.txt")" "$(wc -l <g.txt)"

# -D: every record, with offsets and a hex dump
$FLARE script -D -i "$FX/fp.data" >dump.txt
check_grep "-D starts with the first record's offset and type" "^0x108@.*fp.data \[0x50\]: event: 69$" dump.txt
check_grep "-D dumps the bytes" '^\.  0000:  45 00 00 00 00 00 50 00' dump.txt
check_eq "-D shows every sample" "$(grep -c 'cpu-clock' "$FX/golden/055.txt")" "$(grep -c ': PERF_RECORD_SAMPLE' dump.txt)"
check_grep "-D decodes COMM" 'PERF_RECORD_COMM exec: cpu_burn:' dump.txt

# bad input
$FLARE script -F cpu -i "$FX/fp.data" >o.txt 2>e.txt; rc=$?
check_eq "-F cpu on a per-task file: exit 255 as perf's" 255 "$rc"
check_grep "-F cpu on a per-task file: says why and what to do" "^flare: samples of 'cpu-clock:pppH?' .* have no CPU \(record with -a" e.txt
check_fails "-F with an unknown field is refused" $FLARE script -F comm,bogus -i "$FX/fp.data"
$FLARE script -i missing.data >o.txt 2>e.txt; rc=$?
check_eq "missing file: exit 255 (as perf) with one line" "255 1" "$rc $(wc -l <e.txt)"
echo junk >junk.data
check_fails "junk file is refused" $FLARE script -i junk.data
check_fails "junk file is refused by -D" $FLARE script -D -i junk.data
