#!/usr/bin/env bash
# The commands around perf.data and flare as an installed tool: evlist, buildid-list,
# kallsyms, version --build-options, the bare usage, --list-cmds/--list-opts, make install
# and the bash completion, and flare run under the name perf. Each output is compared with
# perf 6.1's on the same file, computed here.
source "$ROOT/tests/lib.sh"

# the bare command: perf's usage shape, on stdout, status 1
$FLARE >bare.txt 2>bare.err; check_eq "flare alone exits 1, as perf" 1 $?
check_grep "flare alone prints the usage on stdout" '^ usage: flare \[--version\] \[--help\] \[OPTIONS\] COMMAND \[ARGS\]' bare.txt
check_grep "flare alone lists the commands, as perf's list" '^   record +Run a command and record its profile into perf.data' bare.txt
check_eq "flare alone writes nothing on stderr" 0 "$(wc -c <bare.err)"
$FLARE --list-cmds >cmds.txt; check_eq "--list-cmds exits 0" 0 $?
for c in buildid-list evlist kallsyms list record report script stat version; do
	check_grep "--list-cmds names $c" "^$c\$" cmds.txt
done
$FLARE record --list-opts >opts.txt; check_eq "record --list-opts exits 0" 0 $?
check_grep "record --list-opts lists --call-graph" '(^| )--call-graph ' opts.txt
$FLARE version >v.txt; check_grep "version prints the version" '^flare version [0-9]' v.txt
$FLARE version --build-options >vb.txt; check_eq "version --build-options exits 0" 0 $?
for l in libelf libdw libtraceevent libtracefs capstone libzstd; do
	check_grep "version --build-options lists $l with its version" "^ +$l: \[ on  \]  # [0-9]" vb.txt
done

# evlist and buildid-list against perf's on the same files
if have_perf; then
	perf record -q -g -e cpu-clock,task-clock -o p.data -- "$WL/cpu_burn" 0.1 >/dev/null 2>&1
	perf record -q -e '{cpu-clock,task-clock}' -e sched:sched_switch -o g.data -- sleep 0.05 \
		>/dev/null 2>&1
	$FLARE record -q -g -o f.data -- "$WL/cpu_burn" 0.1 >/dev/null 2>&1
	for f in p.data g.data f.data; do
		for a in "" -g -F -v --trace-fields; do
			perf evlist $a -i $f >pe.txt 2>&1
			$FLARE evlist $a -i $f 2>&1 | sed 's/flare evlist/perf evlist/' >fe.txt
			if cmp -s pe.txt fe.txt; then pass "evlist $a on $f: perf's lines"
			else fail "evlist $a on $f: perf's lines" "$(diff pe.txt fe.txt | head -5 | tr '\n' ' ')"; fi
		done
		for a in "" -H; do
			perf buildid-list $a -i $f >pb.txt 2>&1
			$FLARE buildid-list $a -i $f >fb.txt 2>&1
			if cmp -s pb.txt fb.txt; then pass "buildid-list $a on $f: perf's lines"
			else fail "buildid-list $a on $f: perf's lines" "$(diff pb.txt fb.txt | head -5 | tr '\n' ' ')"; fi
		done
	done
	check_eq "buildid-list -k: perf's kernel build-id" "$(perf buildid-list -k)" "$($FLARE buildid-list -k)"
	perf kallsyms schedule do_exit no_such_symbol_here >pk.txt 2>&1
	$FLARE kallsyms schedule do_exit no_such_symbol_here >fk.txt 2>&1
	if cmp -s pk.txt fk.txt; then pass "kallsyms: perf's lines"
	else fail "kallsyms: perf's lines" "$(diff pk.txt fk.txt | head -5 | tr '\n' ' ')"; fi
	$FLARE evlist -v -g -i p.data 2>eg.txt; check_eq "evlist -g with -v is a usage error (129), as perf" 129 $?
else
	skip "evlist, buildid-list, kallsyms against perf" "Linux perf is not installed (apt-get install linux-perf)"
fi
$FLARE evlist -i nosuch.data 2>en.txt; check_eq "evlist of a missing file exits 255, as perf" 255 $?
check_eq "evlist of a missing file: one line" 1 "$(wc -l <en.txt)"
check_grep "evlist of a missing file names it" "nosuch.data" en.txt
$FLARE buildid-list -i nosuch.data 2>bn.txt; check_eq "buildid-list of a missing file exits 255" 255 $?
$FLARE kallsyms 2>kn.txt; check_eq "kallsyms without a name is a usage error (129)" 129 $?

# make install into a scratch root, then the installed binary finds its man page
if make -s -C "$ROOT" install BUILD="$(dirname "$FLARE")" PREFIX=/usr DESTDIR="$TMP/root" \
	>inst.txt 2>&1; then
	pass "make install DESTDIR=... PREFIX=/usr"
	check "installed: the binary runs" "$TMP/root/usr/bin/flare" version
	check "installed: a man page per documented command" test -f "$TMP/root/usr/share/man/man1/flare-record.1"
	check "installed: bash completion" test -f "$TMP/root/usr/share/bash-completion/completions/flare"
	if command -v man >/dev/null; then
		MANPAGER=cat "$TMP/root/usr/bin/flare" help record >ih.txt 2>&1
		check_grep "installed: help record shows the installed man page" 'flare-record' ih.txt
	fi
	# the completion completes subcommands, options and events through the binary
	comp=$(PATH="$TMP/root/usr/bin:$PATH" bash -c '
		source "'"$TMP"'/root/usr/share/bash-completion/completions/flare"
		COMP_WORDS=(flare rec); COMP_CWORD=1; _flare; echo "${COMPREPLY[*]}"
		COMP_WORDS=(flare record --call); COMP_CWORD=2; _flare; echo "${COMPREPLY[*]}"
		COMP_WORDS=(flare stat -e task-cl); COMP_CWORD=3; _flare; echo "${COMPREPLY[*]}"' 2>&1)
	check_eq "completion: subcommand, option, event" "$(printf 'record\n--call-graph\ntask-clock')" "$comp"
else
	fail "make install DESTDIR=... PREFIX=/usr" "$(tail -3 inst.txt | tr '\n' ' ')"
fi

# under the name perf, the messages scripts read say perf
ln -s "$FLARE" perf
./perf stat --bogus 2>ps.txt
check_grep "as perf: the usage says perf" '^ Usage: perf stat' ps.txt
./perf evlist -i nosuch.data 2>pn.txt
check_grep "as perf: errors start with perf:" '^perf: cannot read' pn.txt
./perf record -o pr.data -- "$WL/cpu_burn" 0.05 >/dev/null 2>prr.txt
check_grep "as perf: record's summary says perf record, as scripts read it" '^\[ perf record: Captured and wrote [0-9.]+ MB pr.data' prr.txt

# buildid-cache in a scratch cache ($HOME/.debug, where perf keeps it): what flare adds perf
# lists, and the other way round
mkdir -p "$TMP/home"
export HOME=$TMP/home
$FLARE buildid-cache -a "$WL/cpu_burn,$WL/mt_burn" -v 2>bc.txt; check_eq "buildid-cache -a two files exits 0" 0 $?
check_grep "buildid-cache -a -v says what it added" '^Adding [0-9a-f]{40} .*/cpu_burn: Ok$' bc.txt
$FLARE buildid-cache -l >fl.txt
check_eq "buildid-cache -l lists both" 2 "$(wc -l <fl.txt)"
if have_perf; then
	check_eq "perf buildid-cache -l lists what flare added" "$(cat fl.txt)" "$(perf buildid-cache -l 2>/dev/null)"
	perf buildid-cache -a /usr/lib/x86_64-linux-gnu/libc.so.6 2>/dev/null
	check_eq "flare lists what perf added, in perf's order" "$(perf buildid-cache -l 2>/dev/null)" "$($FLARE buildid-cache -l)"
fi
$FLARE buildid-cache -r "$WL/mt_burn"; check_eq "buildid-cache -r exits 0" 0 $?
check_eq "buildid-cache -r removed that build only" 0 "$($FLARE buildid-cache -l | grep -c mt_burn)"
$FLARE buildid-cache -r "$WL/mt_burn" 2>rr.txt; check_eq "removing what is not cached exits 1" 1 $?
check_grep "removing what is not cached: says so and how to look" 'is not in the build-id cache \(see flare buildid-cache -l' rr.txt
$FLARE buildid-cache -a /nonexistent/x 2>ra.txt; check_eq "adding a missing file exits 1" 1 $?
check_eq "adding a missing file: one line" 1 "$(wc -l <ra.txt)"
$FLARE buildid-cache -p "$WL/cpu_burn"; check_eq "buildid-cache -p exits 0" 0 $?
check_eq "buildid-cache -p removed every build of the path" 0 "$($FLARE buildid-cache -l | grep -c cpu_burn)"
$FLARE record -q -o bm.data -- "$WL/cpu_burn" 0.05 >/dev/null 2>&1
$FLARE buildid-cache -P; check_eq "buildid-cache -P exits 0" 0 $?
check_eq "buildid-cache -P empties the list" 0 "$($FLARE buildid-cache -l | wc -l)"
$FLARE buildid-cache -M bm.data >bmm.txt
check_grep "buildid-cache -M names what the recording lacks in the cache" '^[0-9a-f]{40} .*/cpu_burn$' bmm.txt
