#!/usr/bin/env bash
# report-golden: flare report on perf.data files recorded by Linux perf 6.1 (tests/data) must
# print what perf report printed on them (tests/data/golden/*.txt), line for line; only the
# random "(Tip: ...)" line may differ. perf breaks some ties between entries of equal Children
# share by internals of its rb-trees; where only the order of such blocks differs, the check
# passes on the same lines (same rows, same percentages, same call graphs) and says so.
source "$ROOT/tests/lib.sh"
"$TESTDATA/install-bins.sh" || { skip "golden report" "cannot install fixture binaries"; exit 0; }
[ -r /proc/kallsyms ] || { skip "golden report" "no /proc/kallsyms"; exit 0; }

# The fixtures were recorded on another kernel: their kallsyms is in perf record's build-id cache
# under tests/data/home, where perf (and so flare) looks for it.
HOME=$(fixture_home)
export HOME
norm() { sed -e 's/^# (Tip: .*)$/# (Tip)/' "$1"; }
# perf prints the file's mtime as "captured on": a clone's, not the recording's
golden() {	# golden ID FIXTURE
	norm "$TESTDATA/golden/$1.txt" |
		sed "s/^# captured on    : .*/# captured on    : $(date -r "$TESTDATA/$2.data" '+%a %b %e %H:%M:%S %Y')/"
}

while IFS='|' read -r id fx args; do
	[[ $args == report* ]] || continue
	# shellcheck disable=SC2086
	$FLARE $args -i "$TESTDATA/$fx.data" >"$TMP/$id.out" 2>"$TMP/$id.err"
	rc=$?
	if [ $rc -ne 0 ]; then
		fail "$id $fx: flare $args" "exit $rc: $(head -c 300 "$TMP/$id.err")"
		continue
	fi
	if diff <(golden "$id" "$fx") <(norm "$TMP/$id.out") >"$TMP/$id.diff"; then
		pass "$id $fx: flare $args matches perf"
	elif [[ $args == *children* || $args != *no-children* ]] &&
		diff <(golden "$id" "$fx" | sort) <(norm "$TMP/$id.out" | sort) >/dev/null; then
		pass "$id $fx: flare $args has perf's lines (equal-share entries in another order)"
	else
		fail "$id $fx: flare $args matches perf" "$(head -12 "$TMP/$id.diff" | tr '\n' '~')"
	fi
done <"$TESTDATA/golden.list"
