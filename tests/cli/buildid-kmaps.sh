#!/usr/bin/env bash
# buildid-list -m: the running kernel's and its modules' maps with build-ids, against
# perf 6.1's on this machine (computed here). The kernel's line must be perf's; each module's
# addresses and build-id too (its path can differ where a module has two files, which perf
# picks in directory order).
source "$ROOT/tests/lib.sh"

$FLARE buildid-list -m >f.txt 2>f.err; check_eq "buildid-list -m exits 0" 0 $?
check_grep "buildid-list -m: the kernel's line" '^[0-9a-f]{40} +[0-9a-f]{16} +[0-9a-f]{16} \[kernel.kallsyms\]$' f.txt
check_eq "buildid-list -m: the kernel's build-id is -k's" "$($FLARE buildid-list -k)" \
	"$(awk '/\[kernel.kallsyms\]$/ { print $1 }' f.txt)"
if ! have_perf; then
	skip "buildid-list -m against perf" "perf is not installed"
	exit 0
fi
perf buildid-list -m >p.txt 2>/dev/null
check_eq "buildid-list -m: the kernel's line is perf's" "$(grep 'kernel.kallsyms' p.txt)" \
	"$(grep 'kernel.kallsyms' f.txt)"
check_eq "buildid-list -m: perf's number of maps" "$(wc -l <p.txt)" "$(wc -l <f.txt)"
# build-id (possibly empty), start and end of each module, in perf's order
cols() { awk '{ if (NF == 4) print $1, $2, $3; else print "-", $1, $2 }' "$1"; }
check_eq "buildid-list -m: each map's build-id and addresses as perf's" "$(cols p.txt)" "$(cols f.txt)"
