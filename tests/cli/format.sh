#!/usr/bin/env bash
# The C sources are formatted as .clang-format says (scripts/format-check.sh), and the check
# itself tells a formatted file from one that is not.
source "$ROOT/tests/lib.sh"

# the tree is the same for every build: checked in the first build's pass only
case $FLARE in */build/flare) ;; *) exit 0 ;; esac
if ! command -v clang-format >/dev/null; then
	skip "sources formatted as .clang-format says" "clang-format is not installed (scripts/deps.sh --test)"
	exit 0
fi

# the checker on two files of its own, with the tree's .clang-format beside them
cp "$ROOT/.clang-format" "$TMP/.clang-format"
printf 'static int twice(int x)\n{\n\treturn 2 * x;\n}\n' >"$TMP/good.c"
printf 'static int twice(int x) {\n  return 2*x;\n}\n' >"$TMP/bad.c"
check "format-check passes a formatted file" "$ROOT/scripts/format-check.sh" "$TMP/good.c"
"$ROOT/scripts/format-check.sh" "$TMP/good.c" "$TMP/bad.c" >"$TMP/check.out" 2>&1
check_eq "format-check fails on a file that is not formatted" 1 $?
check_grep "format-check names that file" "bad\.c: [0-9]+ places to format" "$TMP/check.out"

# the tree
if "$ROOT/scripts/format-check.sh" >"$TMP/tree.out" 2>&1; then
	pass "sources formatted as .clang-format says"
else
	fail "sources formatted as .clang-format says" "$(tail -1 "$TMP/tree.out"): $(head -5 "$TMP/tree.out" | tr '\n' ' ')"
fi
