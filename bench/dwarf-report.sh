#!/usr/bin/env bash
# bench/dwarf-report.sh [SYSWIDE_DATA [SMALL_DATA]]: `report --no-children --stdio` of
# --call-graph dwarf recordings, flare against perf, side by side in one run:
#   big:   a system-wide recording of a build (perf record -a --call-graph dwarf -F 2999 --
#          timeout 10 make -j2: 10 s of building flare in a scratch copy of this tree): many
#          processes and objects
#   small: one process (perf record --call-graph dwarf -F 4999 -- cpu_burn 4)
# Without the arguments both are recorded first. perf may take minutes on the big one: it is
# given PERF_TIMEOUT seconds (default 600) and reported as '>' that when it runs out.
# PERF_ARGS (default empty) is added to perf's command line: --no-inline makes perf skip the
# inline frames (addr2line), which flare does not show yet, so that both do the same work.
# Prints the wall and CPU (user + sys) times, the ratios and the peak RSS of each (GNU time),
# and the number of entries (lines with a percent) each printed. On a loaded machine the CPU
# times are the steadier measure.
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
FLARE=${FLARE:-$ROOT/build/flare}
WL=${WL:-$ROOT/build/workloads}
PERF_TIMEOUT=${PERF_TIMEOUT:-600}
PERF_ARGS=${PERF_ARGS:-}
command -v perf >/dev/null || { echo "bench/dwarf-report.sh: needs Linux perf" >&2; exit 2; }
[ -x "$FLARE" ] || { echo "bench/dwarf-report.sh: no flare at $FLARE (make, or set FLARE)" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "bench/dwarf-report.sh: needs GNU time (apt-get install time)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
big=${1:-}
small=${2:-}
if [ -z "$big" ]; then
	big=$tmp/big.data
	mkdir "$tmp/src"
	(cd "$ROOT" && git ls-files -z | xargs -0 cp --parents -t "$tmp/src")
	echo "recording: perf record -a --call-graph dwarf -F 2999 -- timeout 10 make -j2 (flare, scratch copy)"
	perf record -q -a --call-graph dwarf -F 2999 -o "$big" -- \
		timeout 10 make -C "$tmp/src" -j2 build/flare >/dev/null 2>&1 || true
	rm -rf "$tmp/src"
fi
if [ -z "$small" ]; then
	small=$tmp/small.data
	echo "recording: perf record --call-graph dwarf -F 4999 -- cpu_burn 4"
	perf record -q --call-graph dwarf -F 4999 -o "$small" -- "$WL/cpu_burn" 4 >/dev/null 2>&1
fi

now() { date +%s.%N; }
# run NAME OUT TIMEOUT cmd...: wall seconds (or ">TIMEOUT") and peak RSS (MB) of cmd
run() {
	local name=$1 out=$2 limit=$3 t0 t1 rc; shift 3
	t0=$(now)
	set +e
	timeout "$limit" /usr/bin/time -f "%M %U %S" -o "$tmp/$name.rss" "$@" >"$out" 2>/dev/null
	rc=$?
	set -e
	t1=$(now)
	if [ $rc -eq 124 ]; then
		echo ">$limit"
	else
		awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f\n", b - a }'
	fi
}
rss() { awk 'NF == 3 && $1 ~ /^[0-9]+$/ { printf "%.0f", $1 / 1024 }' "$tmp/$1.rss" 2>/dev/null || echo "?"; }
cpu() { awk 'NF == 3 && $1 ~ /^[0-9]+$/ { printf "%.2f", $2 + $3 }' "$tmp/$1.rss" 2>/dev/null || echo "?"; }
ratio() { awk -v p="$1" -v f="$2" 'BEGIN { if (f > 0) printf "%.1f", p / f; else print "?" }'; }
entries() { grep -cE '^ +[0-9.]+%' "$1" || true; }

for kind in big small; do
	data=${!kind}
	samples=$(perf report -i "$data" --stats 2>/dev/null | awk '/SAMPLE events:/ {print $3; exit}')
	size=$(du -m "$data" | cut -f1)
	tf=$(run "flare-$kind" "$tmp/flare.txt" 3600 "$FLARE" report --no-children --stdio -i "$data")
	# shellcheck disable=SC2086
	tp=$(run "perf-$kind" "$tmp/perf.txt" "$PERF_TIMEOUT" perf report --no-children --stdio \
		$PERF_ARGS -i "$data")
	echo "$kind: $samples samples, $size MB: report --no-children --stdio (perf: ${PERF_ARGS:-defaults})"
	echo "  flare ${tf} s wall, $(cpu "flare-$kind") s CPU, $(rss "flare-$kind") MB;" \
		"perf ${tp} s wall, $(cpu "perf-$kind") s CPU, $(rss "perf-$kind") MB"
	case $tp in
	">"*) echo "  perf/flare wall: > $(ratio "${tp#>}" "$tf")x (perf stopped at the timeout)" ;;
	*) echo "  perf/flare wall: $(ratio "$tp" "$tf")x, CPU: $(ratio "$(cpu "perf-$kind")" \
		"$(cpu "flare-$kind")")x (entries: flare $(entries "$tmp/flare.txt")," \
		"perf $(entries "$tmp/perf.txt"))" ;;
	esac
done
