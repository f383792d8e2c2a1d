#!/usr/bin/env bash
# bench/annotate.sh [FLARE] [DATA]: flare annotate --stdio against perf annotate --stdio on one
# system-wide recording with call graphs, every symbol with samples annotated (no symbol
# given), side by side in one run: wall time of each, the ratio, and how many lines and
# instruction lines each printed (perf runs objdump once per symbol; flare decodes with
# capstone and reads the line tables itself).
#
# Without DATA the recording is made once and kept in /tmp/flare-bench/annotate.data:
# perf record -a -g -F 999 for $SECS seconds (default 10) while gcc compiles flare's own
# sources, so that kernel, compiler, libc and shell symbols all have samples.
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
FLARE=${1:-$ROOT/build/flare}
DATA=${2:-/tmp/flare-bench/annotate.data}
SECS=${SECS:-10}
export LC_ALL=C

if [ ! -s "$DATA" ]; then
	mkdir -p "$(dirname "$DATA")"
	work=$(mktemp -d)
	srcs=$(ls "$ROOT"/lib/*/*.c)
	(cd "$work" && perf record -q -a -g -F 999 -o "$DATA" -- sh -c "
		end=\$((\$(date +%s) + $SECS))
		for f in $(echo $srcs); do
			gcc -O2 -g -std=gnu11 -D_GNU_SOURCE -I$ROOT $(pkg-config --cflags libtraceevent libtracefs) -c \$f -o /dev/null 2>/dev/null
			[ \$(date +%s) -lt \$end ] || break
		done" >/dev/null 2>&1)
	rm -rf "$work"
fi
n=$(perf report --stdio -n --sort comm -g none -i "$DATA" 2>/dev/null | sed -n 's/^# Samples: \([0-9]*\)\([KM]*\).*/\1\2/p' | head -1)
echo "recording: $DATA ($(du -h "$DATA" | cut -f1), $n samples per perf report)"

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
run() {	# run NAME CMD...: prints seconds; the output goes to $out/NAME
	local t0 t1
	t0=$(date +%s.%N)
	"${@:2}" >"$out/$1" 2>/dev/null || true
	t1=$(date +%s.%N)
	echo "$t1 - $t0" | bc
}

# warm the page cache for both (the recording and the objects it names)
"$FLARE" annotate --stdio -i "$DATA" >/dev/null 2>&1 || true
pt=$(run perf perf annotate --stdio -i "$DATA")
ft=$(run flare "$FLARE" annotate --stdio -i "$DATA")
insns() { grep -cE '^ +-?[0-9.]+ : +[0-9a-f]+:' "$1" || true; }
printf '%-32s %10s %10s %14s %8s\n' "" "time (s)" "lines" "instructions" "symbols"
printf '%-32s %10.2f %10d %14d %8d\n' "perf annotate --stdio" "$pt" "$(wc -l <"$out/perf")" \
	"$(insns "$out/perf")" "$(grep -c 'Source code & Disassembly' "$out/perf" || true)"
printf '%-32s %10.2f %10d %14d %8d\n' "flare annotate --stdio" "$ft" "$(wc -l <"$out/flare")" \
	"$(insns "$out/flare")" "$(grep -c 'Source code & Disassembly' "$out/flare" || true)"
printf 'flare is %.1fx faster; %d of perf'"'"'s lines differ from flare'"'"'s\n' \
	"$(echo "$pt / $ft" | bc -l)" "$(diff "$out/perf" "$out/flare" | grep -c '^<' || true)"
# the machine's load: times stretch with it (other builds share the CPUs)
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
