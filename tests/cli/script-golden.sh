#!/usr/bin/env bash
# script-golden: flare script on perf.data files recorded by Linux perf 6.1 (tests/data) must
# print exactly what perf script printed on them (tests/data/golden/*.txt).
source "$ROOT/tests/lib.sh"
"$TESTDATA/install-bins.sh" || { skip "golden script" "cannot install fixture binaries"; exit 0; }
[ -r /proc/kallsyms ] || { skip "golden script" "no /proc/kallsyms"; exit 0; }
# the recorded kernel's kallsyms is in perf record's build-id cache under tests/data/home
HOME=$(fixture_home)
export HOME

# A file the recording names by build-id but this machine has in another build (a system
# binary of another patch level, e.g. the /usr/bin/perf of a system-wide recording): its
# frames print "[unknown]" here where perf named them there. Those frames' names are left out
# of the comparison (their addresses and everything else still compared), and a skip says so.
# mask FILE STALE: FILE's lines with the symbol of a frame in a STALE path replaced by "?"
mask() {
	local sedargs=() p
	while read -r p _; do
		sedargs+=(-e "s#^([[:space:]]*[0-9a-f]+ ).* \\(${p//./\\.}\\)\$#\\1? (${p})#")
	done <"$2"
	if [ ${#sedargs[@]} -eq 0 ]; then cat "$1"; else sed -E "${sedargs[@]}" "$1"; fi
}
while IFS='|' read -r id fx args; do
	[[ $args == script* ]] || continue
	[ -f "$TMP/$fx.stale" ] || stale_dsos "$TESTDATA/$fx.data" >"$TMP/$fx.stale"
	if [ -s "$TMP/$fx.stale" ] && [ ! -f "$TMP/$fx.said" ]; then
		skip "frames of $fx in $(awk '{ printf "%s ", $1 }' "$TMP/$fx.stale")named as perf named them" \
			"this machine has other builds of them (build-ids recorded, here: $(awk '{ printf "%.8s %.8s ", $2, $3 }' "$TMP/$fx.stale")): their names are not compared"
		touch "$TMP/$fx.said"
	fi
	# shellcheck disable=SC2086
	$FLARE $args -i "$TESTDATA/$fx.data" >"$TMP/$id.out" 2>"$TMP/$id.err"
	rc=$?
	if [ $rc -ne 0 ]; then
		fail "$id $fx: flare $args" "exit $rc: $(head -c 300 "$TMP/$id.err")"
		continue
	fi
	if diff <(mask "$TESTDATA/golden/$id.txt" "$TMP/$fx.stale") \
		<(mask "$TMP/$id.out" "$TMP/$fx.stale") >"$TMP/$id.diff"; then
		pass "$id $fx: flare $args matches perf"
	else
		fail "$id $fx: flare $args matches perf" "$(head -12 "$TMP/$id.diff" | tr '\n' '~')"
	fi
done <"$TESTDATA/golden.list"
