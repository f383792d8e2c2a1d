#!/usr/bin/env bash
# flare data convert --to-json against perf data convert 6.1 on the same recordings: byte for
# byte where perf writes the same keys; tracepoint samples also carry their fields (as newer
# perf's do), which perf 6.1 leaves out.
source "$ROOT/tests/lib.sh"

if ! have_perf; then
	skip "data convert against perf" "Linux perf is not installed (apt-get install linux-perf)"
	exit 0
fi
perf record -q -o p.data -- "$WL/cpu_burn" 0.2 >/dev/null 2>&1
perf record -q -g -a -o g.data -- sleep 0.1 >/dev/null 2>&1
perf record -q -e sched:sched_switch -e sched:sched_process_exec -a -o t.data -- \
	"$WL/cpu_burn" 0.05 >/dev/null 2>&1
$FLARE record -q -g -o f.data -- "$WL/cpu_burn" 0.1 >/dev/null 2>&1
for f in p.data g.data f.data; do
	perf data convert --to-json "p-$f.json" -i $f >/dev/null 2>&1
	$FLARE data convert --to-json "f-$f.json" -i $f 2>msg.txt
	check_eq "convert $f exits 0" 0 $?
	if cmp -s "p-$f.json" "f-$f.json"; then pass "convert $f: perf's JSON byte for byte"
	else fail "convert $f: perf's JSON byte for byte" "$(diff "p-$f.json" "f-$f.json" | head -6 | tr '\n' ' ')"; fi
done
check_grep "convert says what it wrote, as perf" '^\[ flare data convert: Converted and wrote [0-9.]+ MB \([0-9]+ samples\) \]$' msg.txt
perf data convert --to-json p-t.json -i t.data >/dev/null 2>&1
$FLARE data convert --to-json f-t.json -i t.data 2>/dev/null
if command -v python3 >/dev/null; then
	out=$(python3 - p-t.json f-t.json <<'PY'
import json, sys
p = json.load(open(sys.argv[1])); f = json.load(open(sys.argv[2]))
assert p["headers"] == f["headers"], "headers differ"
assert len(p["samples"]) == len(f["samples"]), "sample counts differ"
extra = 0
for a, b in zip(p["samples"], f["samples"]):
    for k, v in a.items():
        assert b.get(k) == v, "sample key %s differs: %r %r" % (k, v, b.get(k))
    extra += len(set(b) - set(a))
switch = [s for s in f["samples"] if "next_comm" in s]
assert switch and all("prev_pid" in s for s in switch), "sched_switch fields missing"
exe = [s for s in f["samples"] if "filename" in s]
assert exe and all("tp_pid" in s for s in exe), "sched_process_exec pid not as tp_pid"
print("ok", len(p["samples"]), extra)
PY
)
	check_grep "tracepoints: perf's keys equal, and each sample has its fields" '^ok [1-9][0-9]* [1-9]' <(echo "$out")
fi
$FLARE data convert --to-json f-p.data.json -i p.data 2>ex.txt; check_eq "an existing output is refused (exit 1)" 1 $?
check_grep "an existing output: says to use --force" 'exists already \(use --force' ex.txt
$FLARE data convert --force --to-json f-p.data.json -i p.data 2>/dev/null; check_eq "--force overwrites" 0 $?
$FLARE data convert --to-json x.json -i nosuch.data 2>/dev/null; check_eq "a missing input exits 255" 255 $?
check "a missing input leaves no output" test ! -e x.json
$FLARE data convert -i p.data 2>/dev/null; check_eq "no --to-json is a usage error (129)" 129 $?
$FLARE data 2>/dev/null; check_eq "data alone is a usage error (129)" 129 $?
$FLARE data convert --to-ctf dir -i p.data 2>ctf.txt; check_eq "--to-ctf is refused" 1 $?
check_grep "--to-ctf: says why and what works" 'libbabeltrace.*--to-json' ctf.txt
