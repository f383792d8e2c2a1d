#!/usr/bin/env bash
# flare flamegraph in a browser: headless Chromium (Debian's chromium) driven through the
# DevTools protocol by tests/browser/flamegraph.mjs (node's built-ins only) clicks, searches
# and reads the SVG's and the HTML page's state back.
source "$ROOT/tests/lib.sh"
G=$TESTDATA/flamegraph
CHROMIUM=${CHROMIUM:-/usr/bin/chromium}
if [ ! -x "$CHROMIUM" ]; then
	skip "flame graphs in a browser" "chromium is not installed (apt-get install chromium)"
	exit 0
fi
if ! command -v node >/dev/null || ! node --experimental-websocket -e 'new WebSocket("ws://127.0.0.1:1").onerror = () => {}' 2>/dev/null; then
	skip "flame graphs in a browser" "node with WebSocket (node >= 20) is not installed"
	exit 0
fi
"$FLARE" flamegraph -o fp.svg "$G/fp.default.folded"
"$FLARE" flamegraph -o fp.html "$G/fp.default.folded"
# b's share of all samples, as the search should report it
pct=$(awk '{n = split($1, f, ";"); for (i = 1; i <= n; i++) if (f[i] == "b") { b += $NF; break }
	t += $NF} END {printf "%.4f", 100 * b / t}' "$G/fp.default.folded")
# a profile of 100k+ distinct frames: 40 mid frames, each with 3000 distinct leaves
awk 'BEGIN { for (m = 0; m < 40; m++) for (l = 0; l < 3000; l++)
	printf "big;main;mid_%d;work_%d;leaf_%d %d\n", m, l % 97, m * 3000 + l, 1 + (l * 7919) % 13 }' >big.folded
"$FLARE" flamegraph -o big.html big.folded
timeout 240 node --experimental-websocket "$ROOT/tests/browser/flamegraph.mjs" \
	"$PWD/fp.svg" "$PWD/fp.html" "$PWD/big.html" a b "$pct" 2>browser.err
rc=$?
[ $rc -eq 0 ] || [ $rc -eq 1 ] || fail "browser run" "exit $rc: $(tail -c 300 browser.err)"
