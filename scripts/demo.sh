#!/usr/bin/env bash
# scripts/demo.sh: the main job. Installs missing build dependencies, builds flare, profiles
# the bundled demo workload (tests/workloads/cpu_burn.c: main->a->b 60%, main->a 30%,
# main->c 10% of the time), shows the report and writes a flame graph.
# Output: demo-out/perf.data, demo-out/flame.svg, demo-out/flame.html.
set -eu
cd "$(dirname "$0")/.."
echo "== installing missing build dependencies"
scripts/deps.sh
echo "== building flare into build/flare"
make -j"$(nproc)" >/dev/null
mkdir -p demo-out
run() {
	echo
	echo "== $*"
	"$@"
}
run build/flare stat -- build/workloads/cpu_burn 1
run build/flare record -F 999 -g -o demo-out/perf.data -- build/workloads/cpu_burn 2
run build/flare report --stdio -i demo-out/perf.data --no-children
run build/flare flamegraph -i demo-out/perf.data -o demo-out/flame.svg
run build/flare flamegraph -i demo-out/perf.data -o demo-out/flame.html
echo
echo "flame graph: demo-out/flame.svg (and demo-out/flame.html); open either in a browser"
