#!/usr/bin/env bash
# flare flamegraph: folded stacks byte-identical to stackcollapse-perf.pl (golden data), frame
# geometry identical to flamegraph.pl, differential graphs, perf.data input equal to the
# perf script text path, SVG/HTML well-formed, errors.
source "$ROOT/tests/lib.sh"
G=$TESTDATA/flamegraph

# "title x y width height" of each frame of an SVG, sorted (as the .geom files were made)
geom() { sed -n 's/^<title>\(.*\)<\/title><rect x="\([^"]*\)" y="\([^"]*\)" width="\([^"]*\)" height="\([^"]*\)".*/\1 \2 \3 \4 \5/p' "$1" | LC_ALL=C sort; }

# folded output against stackcollapse-perf.pl's, per recording and option
for f in "$G"/*.folded; do
	b=$(basename "$f" .folded)
	name=${b%.*}
	opt=${b##*.}
	[ -f "$G/$name.txt.gz" ] || continue
	case $opt in
	default) args=() ;;
	event-filter) [ "$name" = edge ] && args=(--event-filter=other-event) ||
		args=(--event-filter=syscalls:sys_enter_getppid) ;;
	*) args=("--$opt") ;;
	esac
	zcat "$G/$name.txt.gz" | "$FLARE" flamegraph --folded "${args[@]}" >"$TMP/f.out" 2>"$TMP/f.err"
	if cmp -s "$f" "$TMP/f.out"; then
		pass "folded $name ${args[*]} = stackcollapse-perf.pl"
	else
		fail "folded $name ${args[*]} = stackcollapse-perf.pl" "$(diff "$f" "$TMP/f.out" | head -5 | tr '\n' ' ')"
	fi
done

# stdin, a file argument and -i give the same
zcat "$G/fp.txt.gz" >fp.txt
"$FLARE" flamegraph --folded fp.txt >a.out 2>/dev/null
"$FLARE" flamegraph --folded -i fp.txt >b.out 2>/dev/null
check "perf script text as a file argument" cmp -s "$G/fp.default.folded" a.out
check "perf script text with -i" cmp -s "$G/fp.default.folded" b.out

# frame geometry and tooltips against flamegraph.pl's
while IFS='|' read -r name input opts; do
	# shellcheck disable=SC2086
	if [ "${name#diff}" != "$name" ]; then
		"$FLARE" flamegraph --diff $opts "$G/diff-before.folded" "$G/diff-after.folded" >g.svg 2>g.err
	else
		"$FLARE" flamegraph $opts <"$G/$input" >g.svg 2>g.err
	fi
	geom g.svg >g.geom
	if [ -s g.geom ] && cmp -s "$G/$name.geom" g.geom; then
		pass "svg frames $name ($opts) = flamegraph.pl"
	else
		fail "svg frames $name ($opts) = flamegraph.pl" "$(diff "$G/$name.geom" g.geom | head -4 | tr '\n' ' ')"
	fi
done <"$G/geom.list"

# differential folded = difffolded.pl -n
"$FLARE" flamegraph --diff --folded "$G/diff-before.folded" "$G/diff-after.folded" | LC_ALL=C sort >d.out
check "--diff --folded = difffolded.pl -n" cmp -s <(LC_ALL=C sort "$G/diff.difffolded") d.out

# the slowed function is the red one; the others are not red
"$FLARE" flamegraph --diff "$G/diff-before.folded" "$G/diff-after.folded" >d.svg
fill() { grep -A0 "^<title>$1 (" d.svg | sed -n 's/.*fill="rgb(\([0-9]*\),\([0-9]*\),\([0-9]*\))".*/\1 \2 \3/p' | head -1; }
read -r r g b <<<"$(fill b)"
if [ "${r:-0}" = 255 ] && [ "${g:-255}" -lt 100 ] && [ "$g" = "$b" ]; then pass "diff: slowed b is red ($r,$g,$b)"; else fail "diff: slowed b is red" "rgb($r,$g,$b)"; fi
for fn in a c main; do
	read -r r g b <<<"$(fill $fn)"
	if [ -n "$r" ] && { [ "$r" -lt 255 ] || [ "$g" = 255 ]; }; then pass "diff: $fn is not red ($r,$g,$b)"; else fail "diff: $fn is not red" "rgb($r,$g,$b)"; fi
done
"$FLARE" flamegraph --diff-table "$G/diff-before.folded" "$G/diff-after.folded" >t.out
check_grep "--diff-table: b grew most in self" '^ +[0-9]+ +333333333 +\+[0-9]+ +\+23\.02%  b$' t.out
check_eq "--diff-table: b first in self" "b" "$(sed -n '/^# self/,/^$/p' t.out | sed -n 3p | awk '{print $NF}')"

# well-formed SVG and HTML
"$FLARE" flamegraph -o fp.svg fp.txt
"$FLARE" flamegraph -o fp.html fp.txt
"$FLARE" flamegraph --format html <fp.txt >fp2.html
check "html from --format equals -o x.html" cmp -s fp.html fp2.html
if command -v python3 >/dev/null; then
	check "svg is well-formed XML" python3 -c 'import sys, xml.dom.minidom as m; m.parse(sys.argv[1])' fp.svg
	check "html parses, one script with the data" python3 - fp.html <<'PY'
import sys, html.parser, json, re
s = open(sys.argv[1]).read()
class P(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(); self.tags = []
    def handle_starttag(self, t, a): self.tags.append(t)
p = P(); p.feed(s)
assert p.tags.count("script") == 1 and "canvas" in p.tags, p.tags
m = re.search(r"var D = (\{.*?\});\n", s, re.S)
d = json.loads(m.group(1))
assert len(d["nodes"]) % 5 == 0 and d["names"] and d["total"] > 0
assert "http://" not in s.replace("http://www.w3.org", "") and "https://" not in s
PY
else
	skip "svg and html well-formed" "python3 not installed"
fi
check_grep "svg has the title" '<text id="title" x="600.00" y="24" >Flame Graph</text>' fp.svg
check_grep "svg has search, reset zoom and matched" 'id="search".*Search' fp.svg
check_grep "svg frame tooltip with samples and percent" '^<title>main \([0-9,]+ samples, [0-9.]+%\)</title>' fp.svg
"$FLARE" flamegraph --title 'A <b> & c' --subtitle sub --notes hello --colors java fp.txt >o.svg
check_grep "title is escaped" '>A &lt;b&gt; &amp; c<' o.svg
check_grep "subtitle" '<text id="subtitle"[^>]*>sub</text>' o.svg
check_grep "notes comment" '<!-- NOTES: hello -->' o.svg
"$FLARE" flamegraph --inverted fp.txt >i.svg
check_grep "--inverted titles it Icicle Graph" '>Icicle Graph<' i.svg
"$FLARE" flamegraph --flamechart fp.txt >c.svg
check_grep "--flamechart titles it Flame Chart" '>Flame Chart<' c.svg

# --flamechart keeps time order: stacks alternate rather than merge
"$FLARE" flamegraph --flamechart --folded fp.txt >fc.folded
n_sorted=$(wc -l <"$G/fp.default.folded")
n_chart=$(wc -l <fc.folded)
if [ "$n_chart" -gt "$n_sorted" ]; then pass "--flamechart --folded keeps sample order ($n_chart runs > $n_sorted stacks)"; else fail "--flamechart keeps sample order" "$n_chart runs"; fi
check_eq "--flamechart runs sum to the same total" \
	"$(awk '{s += $NF} END {print s}' "$G/fp.default.folded")" "$(awk '{s += $NF} END {print s}' fc.folded)"

# --cp keeps colors in palette.map across runs
"$FLARE" flamegraph --cp fp.txt >p1.svg
check "--cp writes palette.map" test -s palette.map
sed -i 's/^main->.*/main->rgb(1,2,3)/' palette.map
"$FLARE" flamegraph --cp fp.txt >p2.svg
check_grep "--cp reuses palette.map colors" '^<title>main \(.*fill="rgb\(1,2,3\)"' p2.svg
rm -f palette.map
"$FLARE" flamegraph --hash fp.txt >h1.svg
"$FLARE" flamegraph --hash fp.txt >h2.svg
check "--hash colors are stable" cmp -s h1.svg h2.svg

# filters on perf script text
"$FLARE" flamegraph --folded --comm worker_a <(zcat "$G/mt.txt.gz") >m.out
check_eq "--comm keeps only that command" "worker_a" "$(cut -d';' -f1 m.out | sort -u)"
tid=$(zcat "$G/mt.txt.gz" | awk '$1 == "worker_b" {print $2; exit}')
"$FLARE" flamegraph --folded --tid="$tid" <(zcat "$G/mt.txt.gz") >m.out
check_eq "--tid=LIST keeps only that thread" "worker_b" "$(cut -d';' -f1 m.out | sort -u)"
t0=$(awk '/cpu-clock/ {sub(":", "", $3); print $3; exit}' fp.txt)
"$FLARE" flamegraph --folded --time ",$t0" fp.txt >m.out
check_eq "--time ,START keeps one sample" 1 "$(awk '{s += $NF} END {print s / 1001001}' m.out)"

# errors: one line, non-zero, nothing written
"$FLARE" flamegraph -i nonexistent.data -o x.svg >e.out 2>e.err
rc=$?
check_eq "missing input exits 1" 1 "$rc"
check_eq "missing input: one line" 1 "$(wc -l <e.err)"
check_grep "missing input names the file and the fix" "^flare: cannot open 'nonexistent.data'.*\(.*\)$" e.err
check "missing input leaves no output file" test ! -e x.svg
printf 'garbage\n' | "$FLARE" flamegraph -o y.svg >/dev/null 2>e.err
check_eq "no stacks: exit 1 and no file" "1 absent" "$? $([ -e y.svg ] && echo present || echo absent)"
"$FLARE" flamegraph --colors nope fp.txt >/dev/null 2>e.err
check_eq "unknown palette is a usage error" 129 "$?"
"$FLARE" flamegraph --minwidth 5px fp.txt >/dev/null 2>e.err
check_eq "bad --minwidth is a usage error" 129 "$?"
"$FLARE" flamegraph -o /nonexistent/dir/f.svg fp.txt >/dev/null 2>e.err
check_eq "unwritable output exits 1" 1 "$?"
check_grep "unwritable output names it" "cannot write '/nonexistent/dir/f.svg'" e.err
ls ./*.tmp* >/dev/null 2>&1 && fail "no temporary files left" "$(ls ./*.tmp*)" || pass "no temporary files left"

# default colors by kind of frame: kernel orange, user red, C++ yellow, JIT green, inlined aqua
zcat "$G/sys.txt.gz" | "$FLARE" flamegraph >k.svg
fillof() { grep "^<title>$1 (" "$2" | head -1 | sed -n 's/.*fill="rgb(\([0-9]*\),\([0-9]*\),\([0-9]*\))".*/\1 \2 \3/p'; }
read -r r g b <<<"$(fillof do_syscall_64 k.svg)"
if [ "${b:-1}" = 0 ] && [ "$g" -ge 90 ] && [ "$g" -le 155 ]; then pass "kernel frame drawn orange"; else fail "kernel frame drawn orange" "rgb($r,$g,$b)"; fi
read -r r g b <<<"$(fillof main k.svg)"
if [ -n "$r" ] && [ "$g" = "$b" ] && [ "$r" -ge 200 ]; then pass "user frame drawn red"; else fail "user frame drawn red" "rgb($r,$g,$b)"; fi
check_eq "kind marks are not shown" 0 "$(grep -c '_\[[kji]\]' k.svg)"
zcat "$G/edge.txt.gz" | "$FLARE" flamegraph >e.svg
read -r r g b <<<"$(fillof inl_b e.svg)"
if [ -n "$r" ] && [ "$g" = "$b" ] && [ "$g" -ge 165 ] && [ "$r" -le 110 ]; then pass "inlined frame drawn aqua"; else fail "inlined frame drawn aqua" "rgb($r,$g,$b)"; fi
read -r r g b <<<"$(fillof 'RegExp:\[&amp;&lt;&gt;\\\\\]' e.svg)"
if [ -n "$r" ] && [ "$r" = "$b" ] && [ "$g" -ge 200 ]; then pass "JIT frame drawn green"; else fail "JIT frame drawn green" "rgb($r,$g,$b)"; fi
read -r r g b <<<"$(fillof 'Interpreter::run' e.svg)"
if [ -n "$r" ] && [ "$r" = "$g" ] && [ "$b" -le 70 ]; then pass "C++ frame drawn yellow"; else fail "C++ frame drawn yellow" "rgb($r,$g,$b)"; fi
zcat "$G/sys.txt.gz" | "$FLARE" flamegraph --colors hot >h.svg
read -r r g b <<<"$(fillof do_syscall_64 h.svg)"
if [ -n "$r" ] && [ "$r" -ge 205 ] && [ "$b" -le 55 ]; then pass "--colors hot: flamegraph.pl's hot palette"; else fail "--colors hot" "rgb($r,$g,$b)"; fi

# --total, --factor, --encoding: the frames flamegraph.pl draws for the same input and options
# (checked against flamegraph.pl once; half a count rounds to even, as perl's sprintf does)
printf 'a;b 10\na;c 30\nd 5\n' >tf.folded
"$FLARE" flamegraph --total 90 --factor 2.5 --encoding iso-8859-1 <tf.folded >tf.svg
frames() { grep -o '<title>[^<]*</title><rect x="[^"]*" y="[^"]*" width="[^"]*"' "$1" | sort | tr '\n' '|'; }
check_eq "--total 90 --factor 2.5: flamegraph.pl's frames and counts" \
	'<title>a (100 samples, 44.44%)</title><rect x="10.0" y="53" width="524.4"|<title>all (225 samples, 100%)</title><rect x="10.0" y="69" width="1180.0"|<title>b (25 samples, 11.11%)</title><rect x="10.0" y="37" width="131.1"|<title>c (75 samples, 33.33%)</title><rect x="141.1" y="37" width="393.3"|<title>d (12 samples, 5.33%)</title><rect x="534.4" y="53" width="65.6"|' \
	"$(frames tf.svg)"
check_grep "--encoding in the XML declaration" '^<\?xml version="1.0" encoding="iso-8859-1" standalone="no"\?>$' tf.svg
"$FLARE" flamegraph --total 10 <tf.folded >tl.svg 2>tl.err
check_grep "--total below the sum: ignored with a warning, as flamegraph.pl" \
	'--total 10 is less than the sum of the counts \(45\): ignored' tl.err
check_eq "--total below the sum: the usual frames" "$(frames tl.svg)" \
	"$("$FLARE" flamegraph <tf.folded 2>/dev/null | frames /dev/stdin)"
"$FLARE" flamegraph --factor 2 -o tf.html <tf.folded
check_grep "--factor reaches the HTML page" '"factor":2,' tf.html
"$FLARE" flamegraph --factor 0 <tf.folded >/dev/null 2>&1
check_eq "--factor 0 is a usage error" 129 "$?"
