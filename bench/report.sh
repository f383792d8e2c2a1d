#!/usr/bin/env bash
# bench/report.sh [FLARE] [DATA]: flare report --stdio against perf report --stdio on one
# recording of at least a million samples with call graphs, side by side in one run: wall time
# and peak RSS of each, and the ratios.
#
# Without DATA the recording is made once and kept in /tmp/flare-bench/report.data: perf
# record -g at 20 kHz of gcc compiling flare's own sources for 130 s, one compiler at a time
# (one CPU), which gives over 1,000,000 samples with deep, varied stacks.
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
FLARE=${1:-$ROOT/build/flare}
DATA=${2:-/tmp/flare-bench/report.data}
export LC_ALL=C

if [ ! -s "$DATA" ]; then
	mkdir -p "$(dirname "$DATA")"
	work=$(mktemp -d)
	srcs=$(ls "$ROOT"/lib/*/*.c "$ROOT"/cli/*.c)
	(cd "$work" && perf record -q -g -F 20000 -o "$DATA" -- sh -c "
		end=\$((\$(date +%s) + 130))
		while [ \$(date +%s) -lt \$end ]; do
			for f in $(echo $srcs); do
				gcc -O2 -g -std=gnu11 -D_GNU_SOURCE -I$ROOT $(pkg-config --cflags libtraceevent libtracefs) -c \$f -o /dev/null 2>/dev/null
				[ \$(date +%s) -lt \$end ] || break
			done
		done" >/dev/null 2>&1)
	rm -rf "$work"
fi
n=$(perf report --stdio -n --sort comm -g none -i "$DATA" 2>/dev/null | sed -n 's/^# Samples: \([0-9]*\)\([KM]*\).*/\1\2/p' | head -1)
echo "recording: $DATA ($(du -h "$DATA" | cut -f1), $n samples per perf report, call graphs)"

run() {	# run NAME CMD...: prints "seconds maxrss_kb"
	local t0 t1 tf
	tf=$(mktemp)
	t0=$(date +%s.%N)
	/usr/bin/time -f '%M' -o "$tf" "${@:2}" >/dev/null 2>&1 || true
	t1=$(date +%s.%N)
	echo "$(echo "$t1 - $t0" | bc) $(tail -1 "$tf")"
	rm -f "$tf"
}

# warm the page cache and the symbol files for both
perf report --stdio -i "$DATA" >/dev/null 2>&1 || true
"$FLARE" report --stdio -i "$DATA" >/dev/null 2>&1 || true
read -r pt pm < <(run perf perf report --stdio -i "$DATA")
read -r ft fm < <(run flare "$FLARE" report --stdio -i "$DATA")
printf '%-32s %10s %12s\n' "" "time (s)" "peak RSS (MB)"
printf '%-32s %10.2f %12.1f\n' "perf report --stdio" "$pt" "$(echo "$pm / 1024" | bc -l)"
printf '%-32s %10.2f %12.1f\n' "flare report --stdio" "$ft" "$(echo "$fm / 1024" | bc -l)"
printf 'flare is %.1fx faster and uses %.2f of perf'"'"'s peak memory\n' \
	"$(echo "$pt / $ft" | bc -l)" "$(echo "$fm / $pm" | bc -l)"
# the machine's load: times stretch with it (other builds share the CPUs)
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
