#!/usr/bin/env bash
# scripts/format-check.sh [FILE...]: checks that the C sources are formatted as .clang-format
# says (clang-format --dry-run --Werror): lib/, cli/, tests/unit, tests/fuzz and any *.c or *.h
# at the top, or the files given. Prints each file that would change, with how many places,
# and exits 1 when any would; 0 when none; 2 without clang-format. `clang-format -i FILE`
# formats a file in place.
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
command -v clang-format >/dev/null ||
	{ echo "format-check: clang-format is not installed (apt-get install clang-format)" >&2; exit 2; }
if [ $# -gt 0 ]; then
	files=("$@")
else
	mapfile -t files < <(ls lib/*/*.[ch] cli/*.[ch] tests/unit/*.[ch] tests/fuzz/*.[ch] \
		./*.[ch] 2>/dev/null | sed 's|^\./||')
fi
[ ${#files[@]} -gt 0 ] || { echo "format-check: no C files to check" >&2; exit 2; }
for f in "${files[@]}"; do
	[ -f "$f" ] || { echo "format-check: no file '$f'" >&2; exit 2; }
done
# one clang-format for all files: each place that would change is one violation line
rc=0
out=$(clang-format --dry-run --Werror "${files[@]}" 2>&1) || rc=$?
bad=$(grep -E '^[^ ]+:[0-9]+:[0-9]+: error: code should be clang-formatted' <<<"$out" |
	cut -d: -f1 | uniq -c || true)
if [ $rc -ne 0 ] && [ -z "$bad" ]; then
	# clang-format itself failed (a bad .clang-format, a file it cannot read)
	echo "format-check: clang-format failed: $(head -3 <<<"$out")" >&2
	exit 2
fi
if [ -z "$bad" ]; then
	echo "format-check: ${#files[@]} files formatted as .clang-format says"
	exit 0
fi
awk '{printf "%s: %d places to format\n", $2, $1}' <<<"$bad"
echo "format-check: $(wc -l <<<"$bad") of ${#files[@]} files differ from .clang-format" \
	"(clang-format -i FILE formats one)"
exit 1
