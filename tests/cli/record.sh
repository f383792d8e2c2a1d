#!/usr/bin/env bash
# flare record: the file it writes is read by Linux perf with no warning and shows the
# workload's known call tree; perf's output line, exit codes, perf.data.old, pipe mode.
source "$ROOT/tests/lib.sh"

if ! have_perf; then
	skip "record vs perf" "Linux perf is not installed"
	exit 0
fi

# perf report --stdio with its stderr kept apart: any line there is a warning
preport() { perf report --stdio "$@" 2>"$TMP/perr"; }
no_warning() {
	if [ -s "$TMP/perr" ]; then fail "$1" "perf said: $(head -c 300 "$TMP/perr" | tr '\n' ' ')"; else pass "$1"; fi
}
# the first three frames of symbol $2's call chain in a --no-children report $1
chain3() { awk -v s="$2" '$NF == s && $1 ~ /%$/ { on = 1; next } on { gsub(/[ |]/, ""); sub(/^-+/, ""); if ($0 != "") { out = out (n ? " " : "") $0; if (++n == 3) { print out; exit } } }' "$1"; }
# overhead of symbol $2 in a --no-children report file $1
share() { awk -v s="$2" '$NF == s && $1 ~ /%$/ { sub("%", "", $1); print $1; exit }' "$1"; }

# -g on cpu_burn: main->a->b 60%, a 30%, c 10%
$FLARE record -g -o fp.data "$WL/cpu_burn" 0.5 >out.txt 2>err.txt
check_eq "record -g exits with the workload's status" 0 $?
check_grep "final line in perf's shape" '^\[ flare record: Captured and wrote [0-9]+\.[0-9]{3} MB fp\.data \([0-9]+ samples\) \]$' err.txt
check_grep "the no-PMU fallback is said on one line" 'sampling cpu-clock' err.txt
check_grep "record -g hints at the flame graph of the file" '^flare: see it as a flame graph: flare flamegraph -i fp\.data -o flame\.svg$' err.txt
$FLARE report --stdio -i fp.data >frep.txt 2>/dev/null
check_grep "report on call graphs tips the flame graph" '^# \(Tip: See the call graphs as a flame graph: flare flamegraph -i fp\.data -o flame\.svg\)$' frep.txt
preport --no-children -i fp.data >rep.txt
no_warning "perf report reads flare's -g file without a warning"
# perf's own default event on this machine (host-only cycles, or host and guest on AMD)
perf record -q -o pdef.data -- true >/dev/null 2>&1
pdef=$(perf evlist -i pdef.data 2>/dev/null | head -1)
check_grep "perf names the event as for its own fallback ($pdef)" "of event '${pdef:-none}'" rep.txt
within "b has ~60% (perf report on flare's file)" "$(share rep.txt b)" 60 6
within "a has ~30%" "$(share rep.txt a)" 30 6
within "c has ~10%" "$(share rep.txt c)" 10 5
check_eq "b's call chain is b<-a<-main" "b a main" "$(chain3 rep.txt b)"
n_flare=$(grep -c . <(perf script -i fp.data -F ip 2>/dev/null | grep -v '^\s*$'))
[ "$n_flare" -gt 0 ] && pass "perf script reads the samples" || fail "perf script reads the samples" "none"
perf buildid-list -i fp.data >bid.txt 2>&1
check_grep "build-id of the workload binary" "cpu_burn$" bid.txt
if perf report --stdio --no-children -g none --sort dso -i fp.data 2>/dev/null | grep -q 'kernel.kallsyms'; then
	check_grep "build-id of the kernel (a sample hit it)" '\[kernel.kallsyms\]$' bid.txt
else
	grep -q 'kernel.kallsyms' bid.txt && fail "no kernel build-id without kernel samples" "listed" || pass "no kernel build-id without kernel samples"
fi
check_grep "build-id of [vdso] (perf always lists it)" '\[vdso\]$' bid.txt
perf report --header-only -I -i fp.data >hdr.txt 2>&1
for f in hostname "os release" arch "nrcpus online" cpudesc cpuid "total memory" cmdline "sibling sockets" "pmu mappings" "time of first sample"; do
	check_grep "header has $f" "^# $f" hdr.txt
done
check_grep "cmdline is flare's" "^# cmdline : .*flare record -g -o fp.data" hdr.txt

# the data section order perf itself uses
perf report -D -i fp.data 2>/dev/null | grep -oE 'PERF_RECORD_[A-Z_]+' | head -5 | tr '\n' ' ' >order.txt
check_grep "starts with ID_INDEX, kernel MMAP, THREAD_MAP, CPU_MAP" '^PERF_RECORD_ID_INDEX PERF_RECORD_MMAP PERF_RECORD_THREAD_MAP PERF_RECORD_CPU_MAP' order.txt

# flare's own reader agrees on the file
if $FLARE report --stdio --no-children -i fp.data >frep.txt 2>/dev/null; then
	within "flare report agrees with perf report on b" "$(share frep.txt b)" "$(share rep.txt b)" 0.1
else
	skip "flare report on flare's file" "flare report does not run in this build"
fi

# dwarf call graphs: perf unwinds them
$FLARE record --call-graph dwarf -o dw.data "$WL/cpu_burn" 0.3 >/dev/null 2>&1
preport --no-children -i dw.data >dw.txt
no_warning "perf report reads a dwarf recording without a warning"
check_eq "perf unwinds flare's dwarf samples to b<-a<-main" "b a main" "$(chain3 dw.txt b)"
perf evlist -v -i dw.data >dwev.txt 2>&1
check_grep "dwarf samples carry REGS_USER and STACK_USER" 'REGS_USER\|STACK_USER' dwev.txt
check_grep "dwarf stack size 8192" 'sample_stack_user: 8192' dwev.txt

# an existing file becomes .old
$FLARE record -q -o fp.data "$WL/cpu_burn" 0.1 >/dev/null 2>&1
[ -s fp.data.old ] && pass "existing file becomes fp.data.old" || fail "existing file becomes fp.data.old" "no fp.data.old"

# exit status is the workload's
$FLARE record -q -o ec.data "$WL/exit_code" 3 >/dev/null 2>&1
check_eq "exit status is the workload's" 3 $?
$FLARE record -e cpu-clock -o nf.data /nonexistent/cmd >/dev/null 2>nf.txt
check_eq "missing program exits 255 as perf" 255 $?
check_eq "missing program: one line" 1 "$(wc -l <nf.txt)"
[ -e nf.data ] && fail "missing program leaves no file" "nf.data exists" || pass "missing program leaves no file"
check_eq "no temporary file left behind" "" "$(ls -a | grep flare-tmp)"

# -F above the kernel's limit is lowered, with a message
max=$(cat /proc/sys/kernel/perf_event_max_sample_rate)
$FLARE record -F $((max + 1000)) -o hi.data "$WL/cpu_burn" 0.1 >/dev/null 2>hi.txt
check_grep "-F above the limit is said" "lowering it to $max Hz" hi.txt
perf evlist -v -i hi.data 2>/dev/null | grep -q "sample_freq }: $max," && pass "-F lowered to the limit" || fail "-F lowered to the limit" "$(perf evlist -v -i hi.data 2>&1 | head -c 200)"

# -c: a fixed period, no PERIOD in sample_type (as perf)
$FLARE record -e cpu-clock -c 100000 -o c.data "$WL/cpu_burn" 0.2 >/dev/null 2>&1
perf evlist -v -i c.data >cev.txt 2>&1
check_grep "-c sets the period" 'sample_period, sample_freq }: 100000,' cev.txt
check_grep "-c: no PERIOD in sample_type" 'sample_type: IP\|TID\|TIME,' cev.txt

# pipe mode: perf reads it from stdin
$FLARE record -g -o - "$WL/cpu_burn" 0.2 2>/dev/null >pipe.data
perf report --stdio --no-children -i - <pipe.data >prep.txt 2>"$TMP/perr"
no_warning "perf report reads flare's pipe output without a warning"
check_grep "pipe output has the samples" '\[\.\] b$' prep.txt
