#!/usr/bin/env bash
# flare's front door: --help, --version, help CMD, CMD -h, unknown options and commands.
source "$ROOT/tests/lib.sh"

$FLARE --help >help.txt; check_eq "--help exits 0" 0 $?
check_grep "--help lists stat" '^   stat +Run a command and gather performance counter statistics' help.txt
check_grep "--help lists list" '^   list ' help.txt
$FLARE --version >ver.txt; check_eq "--version exits 0" 0 $?
check_grep "--version prints the version" '^flare version [0-9]+\.[0-9]+' ver.txt
# help CMD opens the man page, as perf help does; the usage when man cannot show one
if command -v man >/dev/null; then
	MANPAGER=cat MANWIDTH=100 $FLARE help stat >hm.txt; check_eq "help stat (man) exits 0" 0 $?
	check_grep "help stat shows the man page of flare stat" '^ *flare-stat - run a command' hm.txt
	MANPAGER=cat $FLARE --help stat >hs2.txt; check_eq "--help CMD exits 0" 0 $?
	check_grep "--help stat shows the man page, as perf --help stat" 'flare-stat - run' hs2.txt
else
	skip "help stat shows the man page" "man is not installed here (apt-get install man-db)"
fi
PATH=/nonexistent $FLARE help stat >hs.txt; check_eq "help stat without man exits 0" 0 $?
check_grep "help stat without man shows stat's usage" 'Usage: flare stat \[<options>\] \[<command>\]' hs.txt
check_grep "help stat without man shows -e" '^    -e, --event <event>' hs.txt
$FLARE stat -h >sh.txt; check_eq "stat -h exits 129, as perf" 129 $?
check_grep "stat -h prints the usage" 'Usage: flare stat' sh.txt
$FLARE list -h >lh.txt; check_eq "list -h exits 129" 129 $?
check_grep "list -h prints the usage" 'Usage: flare list' lh.txt
$FLARE stat --bogus 2>bo.txt; check_eq "unknown option exits 129" 129 $?
check_eq "unknown option: the first line says what is wrong" "  Error: unknown option \`bogus'" "$(head -1 bo.txt)"
check_grep "unknown option: then the usage" 'Usage: flare stat' bo.txt
$FLARE stat -Q 2>bq.txt; check_eq "unknown switch exits 129" 129 $?
$FLARE --bogus 2>mb.txt; check_eq "unknown global option exits 129" 129 $?
$FLARE stta 2>uc.txt; check_eq "unknown command exits 1" 1 $?
check_eq "unknown command: one line with the closest name" 1 "$(wc -l <uc.txt)"
check_grep "unknown command suggests stat" "did you mean ('[a-z-]+', )*'stat'" uc.txt
$FLARE help nosuch 2>hn.txt; check_eq "help of an unknown command exits 1" 1 $?
$FLARE help help >hh.txt; check_eq "help help exits 0" 0 $?
check_grep "help help lists the commands" '^   stat ' hh.txt
$FLARE --no-pager list sw >np.txt; check_eq "--no-pager before the command is accepted, as perf's" 0 $?
check_grep "--no-pager list sw lists" 'context-switches OR cs' np.txt
if command -v script >/dev/null; then
	# a terminal on stdout: the pager runs, unless --no-pager
	script -qec "FLARE_PAGER='sed s/^/PAGED:/' '$FLARE' list sw" /dev/null >tty1.txt
	check_grep "on a terminal the output goes through the pager" '^PAGED:' tty1.txt
	script -qec "FLARE_PAGER='sed s/^/PAGED:/' '$FLARE' --no-pager list sw" /dev/null >tty2.txt
	check_eq "--no-pager: no pager on a terminal" "" "$(grep PAGED tty2.txt)"
else
	skip "--no-pager on a terminal" "no script(1) here"
fi
