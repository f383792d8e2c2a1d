#!/usr/bin/env bash
# tests/data/make-fixtures.sh: records the golden fixtures with Linux perf 6.1 and captures
# perf's own `perf report --stdio` and `perf script` output on them at the same time.
#
#   tests/data/make-fixtures.sh            (as root, on the machine the tests run on)
#
# The workloads are the binaries committed in tests/data/bin (built once from tests/workloads
# with the Makefile's frame-pointer flags), run from a fixed path, /tmp/flare-fixtures-bin,
# so that the recordings name the same files wherever the tree is checked out: the tests copy
# tests/data/bin there before reading the fixtures (tests/data/install-bins.sh).
# Kernel symbols: perf record keeps a copy of the running kernel's kallsyms in its build-id
# cache; that copy is kept in tests/data/home/.debug, and the tests read the fixtures with
# HOME=tests/data/home, so that flare (as perf would) finds the recorded kernel's symbols on
# any later kernel. The pipe fixture has no build-ids (perf writes none in pipe mode), so its
# samples are user-only: a kernel address there could only be resolved with the running
# kernel's symbols. Every golden command is listed in tests/data/golden.list as
#   <id>|<fixture>|<subcommand and options>
# and its output (stdout only) is in tests/data/golden/<id>.txt; tests/cli/report-golden.sh
# and tests/cli/script-golden.sh run flare with the same options and compare.
set -eu
cd "$(dirname "$0")"
DATA=$(pwd)
BIN=/tmp/flare-fixtures-bin
"$DATA/install-bins.sh"
export LC_ALL=C
command -v perf >/dev/null || { echo "needs Linux perf" >&2; exit 1; }
mountpoint -q /sys/kernel/tracing || mount -t tracefs nodev /sys/kernel/tracing

rm -rf golden && mkdir golden
: >golden.list
tmp=$(mktemp -d)
mkdir "$tmp/home"
trap 'rm -rf "$tmp"; perf probe -q -d "probe_cpu_burn:*" 2>/dev/null || true' EXIT

# perf record's build-id cache goes to $tmp/home/.debug
rec() {	# rec NAME perf-record-args...: records NAME.data (in a scratch dir, then moved)
	local name=$1; shift
	(cd "$tmp" && env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME="$tmp/home" \
		perf record -q -o "$name.data" "$@" >/dev/null 2>&1)
	mv "$tmp/$name.data" "$DATA/$name.data"
	chmod 644 "$DATA/$name.data"
}

n=0
golden() {	# golden FIXTURE SUBCOMMAND ARGS...: perf's stdout on the fixture
	local fx=$1; shift
	n=$((n + 1))
	local id
	id=$(printf '%03d' $n)
	perf "$@" -i "$DATA/$fx.data" >"golden/$id.txt" 2>/dev/null
	echo "$id|$fx|$*" >>golden.list
}

# per-task, frame-pointer call graphs
rec fp -F 999 -g -- "$BIN/cpu_burn" 0.3
# two named threads
rec mt -F 999 -g -- "$BIN/mt_burn" 0.3
# a fixed period: no PERIOD in sample_type, no call chains
rec period -e cpu-clock -c 500000 -- "$BIN/cpu_burn" 0.3
# DWARF stacks (2 KiB copies keep the file small; the environment is empty)
rec dwarf -F 300 --call-graph dwarf,2048 -- "$BIN/cpu_burn" 0.3
# pipe format written to a regular file
(cd "$tmp" && env -i PATH=/usr/bin:/bin HOME="$tmp/home" \
	perf record -q -e cpu-clock:u -F 999 -g -o - -- "$BIN/cpu_burn" 0.3 >"$DATA/pipe.data" 2>/dev/null)
chmod 644 "$DATA/pipe.data"
# tracepoints with kernel+user call chains, two events
rec tp -e syscalls:sys_enter_openat -e syscalls:sys_exit_openat -g -- "$BIN/open_n" 40
# system-wide, with CPUs; the workload keeps one CPU busy
rec syswide -a -g -F 299 -- sh -c "$BIN/mt_burn 0.3 & $BIN/cpu_burn 0.3; wait"
# an uprobe on c()
perf probe -q -x "$BIN/cpu_burn" c
rec uprobe -e probe_cpu_burn:c -- "$BIN/cpu_burn" 0.1
perf probe -q -d "probe_cpu_burn:*"
# the recorded kernel's kallsyms, as perf record cached it (nothing else of the cache is kept:
# the user binaries are tests/data/bin)
rm -rf home
for k in "$tmp"/home/.debug/'[kernel.kallsyms]'/*/kallsyms; do
	d=home/.debug/'[kernel.kallsyms]'/$(basename "$(dirname "$k")")
	mkdir -p "$d"
	cp "$k" "$d/kallsyms"
done
[ -d home ] || { echo "perf record cached no kallsyms" >&2; exit 1; }

# ---- perf report ----
for fx in fp mt pipe; do
	golden $fx report --stdio
	golden $fx report --stdio --no-children
	golden $fx report --stdio --no-children -n --sort comm,dso
	golden $fx report --stdio -n --sort pid,sym -g none
	golden $fx report --stdio --no-children -g folded
	golden $fx report --stdio -g flat
	golden $fx report --stdio --no-children -g fractal
	golden $fx report --stdio --no-children -g callee
	golden $fx report --stdio --children -g caller,0.5,callee
	golden $fx report --stdio --percent-limit 20
	golden $fx report --stdio --no-children --sort dso,sym -g graph,5
done
golden fp report --stdio --no-children --dso cpu_burn -n
golden mt report --stdio --no-children --comm worker_a -n
golden mt report --stdio --no-children -n --sort pid,comm -g none
golden mt report --stdio --sort comm,sym -n -g none
golden mt report --stdio --children --sort sym -g none
golden period report --stdio
golden period report --stdio -n --sort comm,dso,sym
golden period report --stdio --sort sym --percent-limit 15
golden dwarf report --stdio --no-children -g none --sort sym
golden tp report --stdio --no-children
golden tp report --stdio --no-children -n --sort comm,sym -g none
golden tp report --stdio --children -g none
golden syswide report --stdio --no-children -n --sort comm,dso -g none
golden syswide report --stdio --no-children -n --sort cpu -g none
golden syswide report --stdio --no-children -n --sort cpu,comm -g none
golden syswide report --stdio --no-children --comm cpu_burn
golden syswide report --stdio --comm cpu_burn -g folded
golden syswide report --stdio --no-children -n --sort pid -g none --comm cpu_burn,worker_a
golden syswide report --stdio --no-children --sort comm,dso,sym -g none --dso cpu_burn,mt_burn
golden uprobe report --stdio -n
golden uprobe report --stdio -n --sort comm,dso,sym

# ---- perf script ----
for fx in fp mt pipe tp syswide uprobe period; do
	golden $fx script
done
golden fp script -F comm,tid,time,event,ip,sym
golden fp script -F comm,pid,tid,time,period,ip,sym,symoff,dso --ns
golden fp script -F ip,sym -G
golden mt script -F comm,tid,event,sym
golden tp script -F comm,pid,event,trace
golden tp script -F trace
golden syswide script -F comm,pid,cpu,time,period,event,ip,sym,dso --ns
golden period script -F comm,time,ip,sym,symoff,dso
golden uprobe script -F comm,tid,event,ip,sym,trace

# ---- headers (feature sections) ----
golden fp report --stdio --header-only
golden pipe report --stdio --header-only -I
golden tp report --stdio --header -I --no-children -g none
golden period report --stdio --header --sort dso

# ---- columns: cpu of a per-task file (-001), a padded symbol column, address zero ----
golden fp report --stdio --no-children --sort cpu,sym -g none
golden tp report --stdio --no-children --sort sym,comm -g none
golden mt report --stdio --no-children --sort sym,dso -g fractal

# ---- script -F with +/- fields ----
golden tp script -F -dso
golden syswide script -F -period,-cpu
golden fp script -F +pid

# ---- -q: entries only ----
golden tp report --stdio -q --no-children
golden mt report --stdio -q --sort dso -n
