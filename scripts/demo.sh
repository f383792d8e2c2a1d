#!/usr/bin/env bash
# scripts/demo.sh: the main job. Installs missing build dependencies, builds flare, profiles
# the bundled demo workload (tests/workloads/cpu_burn.c: main->a->b 60%, main->a 30%,
# main->c 10%) and shows the report; writes the flame graph to demo-out/flame.svg.
set -eu
cd "$(dirname "$0")/.."
echo "== installing missing dependencies"
scripts/deps.sh
echo "== building flare into build/flare"
make -j"$(nproc)" >/dev/null
mkdir -p demo-out
FLARE=build/flare
echo "== flare stat -- build/workloads/cpu_burn 1"
$FLARE stat -- build/workloads/cpu_burn 1
if $FLARE record -h >/dev/null 2>&1 || [ $? -eq 129 ]; then
	echo "== flare record -F 999 -g -o demo-out/perf.data -- build/workloads/cpu_burn 2"
	$FLARE record -F 999 -g -o demo-out/perf.data -- build/workloads/cpu_burn 2
	echo "== flare report --stdio -i demo-out/perf.data --no-children"
	$FLARE report --stdio -i demo-out/perf.data --no-children
	echo "== flare flamegraph -i demo-out/perf.data -o demo-out/flame.svg"
	$FLARE flamegraph -i demo-out/perf.data -o demo-out/flame.svg
	echo "flame graph written to demo-out/flame.svg (open it in a browser)"
fi
