#!/bin/sh
# Copies the fixture workloads to the fixed path the golden recordings name
# (/tmp/flare-fixtures-bin), unless identical copies are there already.
src=$(cd "$(dirname "$0")" && pwd)/bin
dst=/tmp/flare-fixtures-bin
mkdir -p "$dst" || exit 1
for f in "$src"/*; do
	cmp -s "$f" "$dst/$(basename "$f")" || cp "$f" "$dst/" || exit 1
done
