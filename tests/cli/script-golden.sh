#!/usr/bin/env bash
# script-golden: flare script on perf.data files recorded by Linux perf 6.1 (tests/data) must
# print exactly what perf script printed on them (tests/data/golden/*.txt).
source "$ROOT/tests/lib.sh"
"$TESTDATA/install-bins.sh" || { skip "golden script" "cannot install fixture binaries"; exit 0; }
[ -r /proc/kallsyms ] || { skip "golden script" "no /proc/kallsyms"; exit 0; }
# the recorded kernel's kallsyms is in perf record's build-id cache under tests/data/home
HOME=$(fixture_home)
export HOME

while IFS='|' read -r id fx args; do
	[[ $args == script* ]] || continue
	# shellcheck disable=SC2086
	$FLARE $args -i "$TESTDATA/$fx.data" >"$TMP/$id.out" 2>"$TMP/$id.err"
	rc=$?
	if [ $rc -ne 0 ]; then
		fail "$id $fx: flare $args" "exit $rc: $(head -c 300 "$TMP/$id.err")"
		continue
	fi
	if diff "$TESTDATA/golden/$id.txt" "$TMP/$id.out" >"$TMP/$id.diff"; then
		pass "$id $fx: flare $args matches perf"
	else
		fail "$id $fx: flare $args matches perf" "$(head -12 "$TMP/$id.diff" | tr '\n' '~')"
	fi
done <"$TESTDATA/golden.list"
