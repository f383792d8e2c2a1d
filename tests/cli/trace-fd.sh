#!/usr/bin/env bash
# flare trace: the paths after fd arguments ("fd: 3</path>"), against perf trace's for the
# same workload (a process that keeps its fds open while perf reads /proc) and strace -y's;
# fds from before the trace, children that inherit them, and what -e leaves unseen.
source "$ROOT/tests/lib.sh"

F=$(realpath "$TMP")/fd-file
printf 'hello\n' >"$F"
W=$WL/fd_paths

# fdtoks FILE: "name 3</p> 9</p>" per line of the workload from its read of the file on (the
# lines before are the dynamic loader's): the syscall and its fds with paths
fdtoks() {
	awk '/fd_paths\/[0-9]+ lseek\(/ && !s { s = 1; print prev } s { print } { prev = $0 }' "$1" |
		grep -E 'fd_paths/[0-9]+ (read|lseek|dup2|close)\(' |
		sed -E 's/^.*fd_paths\/[0-9]+ //; s/\) += .*//' |
		perl -ne 'my ($n) = /^(\w+)\(/; my @f = /(?:^|[(, ])(?:\w+: )?(\d+<[^>]*>)/g;
			print "$n @f\n"'
}

if ! $FLARE trace -e read,lseek,dup2,close,openat -o fl.txt -- "$W" "$F" >/dev/null 2>fl.err; then
	if grep -q "cannot load the BPF" fl.err; then
		skip "flare trace fd paths" "this kernel refuses BPF: $(head -1 fl.err)"
		exit 0
	fi
	fail "flare trace runs" "$(head -3 fl.err | tr '\n' ' ')"
fi
check_grep "perf's shape: fd: N<path>" "read\(fd: 3<$F>, buf: \"hell\", count: 4\) += 4$" fl.txt
check_grep "dup2 hands the path to the new fd" "dup2\(oldfd: 3<$F>, newfd: 9<$F>\) += 9$" fl.txt
check_grep "close shows the path it drops" "close\(fd: 9<$F>\) += 0$" fl.txt
fdtoks fl.txt >fl.toks
check_eq "every read, lseek, dup2 and close names the file" 8 "$(grep -c "<$F>" fl.toks)"
check_eq "the loader's fd 3 is its own file, not the one fd 3 is later" "" \
	"$(grep -E "(close|read)\(fd: 3<$F>" fl.txt | grep -vE 'count: [24]\)|= 0$' | head -3)"

if have_perf; then
	perf trace -e read,lseek,dup2,close,openat -o pf.txt -- "$W" "$F" >/dev/null 2>&1
	fdtoks pf.txt >pf.toks
	# perf's workload starts with one of perf's fds open: the numbers may differ by one
	check_eq "fd paths equal perf trace's (fds kept open while perf reads /proc)" \
		"$(sed -E 's/ [0-9]+</ </g' pf.toks)" "$(sed -E 's/ [0-9]+</ </g' fl.toks)"
else
	skip "fd paths equal perf trace's" "perf is not installed"
fi

if command -v strace >/dev/null; then
	strace -y -o st.txt -e trace=read,close "$W" "$F" >/dev/null
	# strace's "read(3</p>, ...)": the call and its fd with path
	grep -E '^(read|close)\(' st.txt | grep "<$F>" |
		sed -E 's/^(\w+)\(([0-9]+<[^>]*>).*/\1 \2/' >st.toks
	grep -E '^(read|close) ' fl.toks >fl.rc
	check_eq "read and close fd paths equal strace -y's" "$(cat st.toks)" "$(cat fl.rc)"
else
	skip "fd paths equal strace -y's" "strace is not installed"
fi

# an fd from before the trace: the workload's stdout, redirected to a file by the caller
$FLARE trace -o out.txt -- "$WL/syscalls_known" 1 1 >"$TMP/stdout-file" 2>/dev/null
check_grep "an fd inherited from the caller has its /proc path" \
	"write\(fd: 1<$(realpath "$TMP")/stdout-file>, buf: " out.txt
# a forked child inherits its parent's table: the child of sh writes to the same file
$FLARE trace -o sh.txt -- sh -c "exec 7<'$F'; cat /dev/null; cat <&7 >/dev/null; true" \
	>/dev/null 2>&1
check_grep "a child's fds come from its parent's (dup2 to fd 0 is hidden, as perf)" \
	"cat/[0-9]+ read\(buf: \"hello\\\\n\", count: [0-9]+\) += 6$" sh.txt
check_grep "the shell's own fd 7 keeps its path" "dup2\(oldfd: [0-9]+<$F>, newfd: 7" sh.txt

# only some calls traced: the paths /proc gives while the process lives (perf's way), and
# what the opens said once it is gone
$FLARE trace -e openat,read -o some.txt -- "$W" "$F" 0 >/dev/null 2>&1
check_grep "-e openat,read: the file's reads still name it" "read\(fd: 3<$F>, buf: \"hell\"" some.txt
check_eq "nothing is left in tracefs" "" "$(tracefs_leftovers)"
