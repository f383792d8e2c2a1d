#!/usr/bin/env bash
# sym: the symbol and dso names flare resolves are the ones perf script prints, on recordings
# made here by Linux perf: frame-pointer call chains (main->a->b), C++ and Rust names, a shared
# library, a non-PIE binary, kernel frames, a JIT's perf-PID.map, [vdso], and debug info found
# through .gnu_debuglink and by build-id. The comparison tool is the session unit binary's
# `dump` mode, which prints samples as `perf script -F comm,tid,ip,sym,symoff,dso` does.
source "$ROOT/tests/lib.sh"

DUMP=$(dirname "$FLARE")/tests/unit/session
if ! have_perf; then
	skip "all" "Linux perf is not installed"
	exit 0
fi
[ -x "$DUMP" ] || { fail "dump tool" "$DUMP missing"; exit 0; }

norm() { tr -s ' ' | sed 's/^ //;s/ $//;s/\t /\t/'; }
rec() {	# rec NAME perf-record-args...
	local name=$1; shift
	perf record -q --no-bpf-event -o "$name.data" "$@" >/dev/null 2>"$name.rec.err"
}
# same NAME [SYMFS]: flare's resolution of NAME.data equals perf script's, line for line
same() {
	local name=$1 symfs=${2:-}
	perf script -i "$name.data" ${symfs:+--symfs="$symfs"} -F comm,tid,ip,sym,symoff,dso \
		2>/dev/null | norm >"$name.perf"
	"$DUMP" dump "$name.data" $symfs 2>"$name.dump.err" | norm >"$name.flare"
	if [ ! -s "$name.perf" ]; then
		fail "$name: perf script printed nothing" "$(head -c 300 "$name.rec.err")"
	elif cmp -s "$name.perf" "$name.flare"; then
		pass "$name: $(grep -c . "$name.perf") lines of symbols and dsos as perf script prints"
	else
		fail "$name: differs from perf script" "$(head -c 300 "$name.dump.err") $(diff "$name.perf" "$name.flare" | head -6 | tr '\n' '|')"
	fi
}
CFLAGS="-O1 -g -fno-omit-frame-pointer -mno-omit-leaf-frame-pointer -fno-inline"

# frame pointers: main -> a -> b as call chains
rec fp -F 999 -g "$WL/cpu_burn" 0.4
same fp
# (gcc 12 builds the leaf b without a frame, so its caller a is not in perf's chain either)
if awk 'BEGIN { RS = "" } /^[^\n]*\n\t *[0-9a-f]+ a\+[^\n]*\n\t *[0-9a-f]+ main\+/ { a++ }
	/^[^\n]*\n\t *[0-9a-f]+ b\+[^\n]*\n/ { b++ } END { exit !(a > 0 && b > a) }' fp.flare; then
	pass "fp: leaves b and a, a called from main"
else
	fail "fp: leaves b and a, a called from main" "$(head -c 300 fp.flare)"
fi

# C++: demangled without parameters, as perf 6.1 prints them
cat >cxx.cc <<'X'
#include <vector>
namespace ns { template <typename T> struct W {
	__attribute__((noinline)) T spin(T n) { volatile T x = 0; for (T i = 0; i < n; i++) x = x + i; return x; } }; }
__attribute__((noinline)) long work(int k, std::vector<int> &v) { ns::W<long> w; return w.spin(60000000L) + k + v.size(); }
int main() { std::vector<int> v(3); return (int)(work(1, v) & 1); }
X
if g++ $CFLAGS -o cxx cxx.cc 2>cxx.err; then
	rec cxx -F 999 -g ./cxx
	same cxx
	check_grep "cxx: C++ names demangled" 'ns::W<long>::spin\+0x' cxx.flare
	perf script --no-demangle -F ip,sym -i cxx.data >cxx.nd.perf 2>/dev/null
	$FLARE script --no-demangle -F ip,sym -i cxx.data >cxx.nd.flare 2>/dev/null
	check_grep "cxx: --no-demangle keeps the mangled names" '_ZN2ns1WIlE4spinEl' cxx.nd.flare
	check "cxx: script --no-demangle prints what perf prints" cmp cxx.nd.perf cxx.nd.flare
else
	skip "cxx" "g++ failed: $(head -c 200 cxx.err)"
fi

# Rust: legacy (hash-suffixed) and v0 mangling
cat >r.rs <<'X'
mod inner { pub struct S<T>(pub T); impl<T: Copy + Into<u64>> S<T> { #[inline(never)] pub fn spin(&self, n: u64) -> u64 { let mut x = self.0.into(); for i in 0..n { x = x.wrapping_mul(6364136223846793005).wrapping_add(i); } x } } }
#[inline(never)] fn work<F: Fn(u64) -> u64>(f: F) -> u64 { f(300_000_000) }
fn main() { let s = inner::S(3u32); let r = work(|n| s.spin(n)); println!("{}", r); }
X
if command -v rustc >/dev/null 2>&1 && rustc -O -C force-frame-pointers=yes -o rleg r.rs 2>rs.err &&
	rustc -O -C force-frame-pointers=yes -C symbol-mangling-version=v0 -o rv0 r.rs 2>>rs.err; then
	rec rleg -F 999 -g ./rleg
	same rleg
	check_grep "rust legacy: hash dropped, escapes decoded" 'r::inner::S<T>::spin\+0x' rleg.flare
	rec rv0 -F 999 -g ./rv0
	same rv0
	check_grep "rust v0: demangled" '<r::inner::S<u32>>::spin\+0x' rv0.flare
else
	skip "rust" "rustc is not available or failed"
fi

# a shared library (load bias from its MMAP2), and a non-PIE executable
cat >lib.c <<'X'
__attribute__((noinline)) unsigned long spin_in_lib(unsigned long n)
{ volatile unsigned long x = 0; for (unsigned long i = 0; i < n; i++) x += i; return x; }
X
cat >uselib.c <<'X'
unsigned long spin_in_lib(unsigned long n);
__attribute__((noinline)) static unsigned long local_spin(unsigned long n)
{ volatile unsigned long x = 0; for (unsigned long i = 0; i < n; i++) x += i; return x; }
int main(void) { return (int)((spin_in_lib(80000000) + local_spin(40000000)) & 1); }
X
gcc $CFLAGS -shared -fPIC -o libspin.so lib.c && gcc $CFLAGS -o uselib uselib.c -L. -lspin -Wl,-rpath,"$TMP"
rec so -F 999 -g ./uselib
same so
check_grep "so: library symbol in the library's dso" 'spin_in_lib\+0x[0-9a-f]+ \(.*/libspin.so\)' so.flare
gcc $CFLAGS -no-pie -o nopie uselib.c -L. -lspin -Wl,-rpath,"$TMP"
rec nopie -F 999 -g ./nopie
same nopie
check_grep "nopie: static function of a non-PIE binary" 'local_spin\+0x' nopie.flare

# kernel frames: every page fault with its kernel and user call chain
rec pf -e page-faults -c 1 -g "$WL/touch_pages" 300
same pf
check_grep "pf: kernel symbols from kallsyms" ' [a-z_]+\+0x[0-9a-f]+ \(\[kernel.kallsyms\]\)' pf.flare

# a JIT: anonymous executable code described in /tmp/perf-PID.map
JIT=$WL/jit_loop
[ -x "$JIT" ] || JIT=$(dirname "$FLARE")/workloads/jit_loop
rec jit -F 999 -g "$JIT" 0.4
same jit
check_grep "jit: perf-PID.map symbols" 'jit_spin_a\+0x[0-9a-f]+ \(/tmp/perf-[0-9]+\.map\)' jit.flare
for p in $(perf script -i jit.data -F pid 2>/dev/null | sort -u); do rm -f "/tmp/perf-$p.map"; done

# [vdso]: a loop of clock_gettime calls
cat >vdso.c <<'X'
#include <time.h>
int main(void) { struct timespec ts; long s = 0; for (int i = 0; i < 3000000; i++) { clock_gettime(CLOCK_MONOTONIC, &ts); s += ts.tv_nsec; } return (int)(s & 1); }
X
gcc $CFLAGS -o vdso vdso.c
rec vdso -F 999 -g ./vdso
same vdso
check_grep "vdso: [vdso] symbols" ' [a-z_]+\+0x[0-9a-f]+ \(\[vdso\]\)' vdso.flare

# separate debug info: .gnu_debuglink beside the binary, then by build-id (under --symfs)
cat >dbg.c <<'X'
__attribute__((noinline)) static unsigned long hidden_spin(unsigned long n)
{ volatile unsigned long x = 0; for (unsigned long i = 0; i < n; i++) x += i; return x; }
int main(void) { return (int)(hidden_spin(100000000) & 1); }
X
gcc $CFLAGS -o dbg dbg.c && objcopy --only-keep-debug dbg dbg.debug && strip --strip-all dbg &&
	objcopy --add-gnu-debuglink=dbg.debug dbg
rec dbg -F 999 -g ./dbg
same dbg
check_grep "debuglink: static function from dbg.debug" 'hidden_spin\+0x' dbg.flare
bid=$(readelf -n dbg | awk '/Build ID/ { print $3 }')
mkdir -p "symfs$TMP" "symfs/usr/lib/debug/.build-id/${bid:0:2}"
cp dbg "symfs$TMP/dbg" && objcopy --remove-section=.gnu_debuglink "symfs$TMP/dbg"
cp dbg.debug "symfs/usr/lib/debug/.build-id/${bid:0:2}/${bid:2}.debug"
perf script -i dbg.data --symfs="$TMP/symfs" -F ip,sym,symoff,dso 2>/dev/null | norm |
	grep "($TMP/dbg)" >dbg.perf
"$DUMP" dump dbg.data "$TMP/symfs" | norm | grep "($TMP/dbg)" >dbg.flare
if [ -s dbg.perf ] && cmp -s dbg.perf dbg.flare; then
	pass "build-id: $(grep -c . dbg.perf) frames of the stripped binary as perf script --symfs"
else
	fail "build-id: differs from perf script --symfs" "$(diff dbg.perf dbg.flare | head -6 | tr '\n' '|')"
fi
check_grep "build-id: static function from /usr/lib/debug/.build-id" 'hidden_spin\+0x' dbg.flare

# processes that fork and exec: comms, inherited and replaced maps, thread ids
rec forks -F 999 -g -- sh -c "$WL/cpu_burn 0.2 & $WL/mt_burn 0.2 >/dev/null; wait; exec $WL/cpu_burn 0.1"
same forks
check_grep "forks: the exec'd comm and the threads' names" '^worker_a [0-9]+$' forks.flare

# the whole machine for a moment: kernel threads, idle, every process's maps from /proc
rec syswide -a -g -F 999 -- "$WL/cpu_burn" 0.3
same syswide

# a tracepoint with kernel and user call chains, machine-wide (idle and unnamed tasks too)
rec sched -e sched:sched_switch -a -g -- sleep 0.3
same sched

# build-ids carried in the MMAP2 records themselves (--buildid-mmap)
rec bidmmap --buildid-mmap -F 999 -g "$WL/cpu_burn" 0.3
same bidmmap

# attaching to a running process: its maps come from /proc/PID/maps, written by perf
"$WL/cpu_burn" 1.5 >/dev/null &
bpid=$!
sleep 0.2
rec attach -F 999 -g -p "$bpid" -- sleep 0.4
wait "$bpid"
same attach
check_grep "attach: symbols of the attached process" ' (a|b|c)\+0x[0-9a-f]+ \(.*/cpu_burn\)' attach.flare

# the pipe format written to a stream, read back from a file
perf record -q --no-bpf-event -F 999 -g -o - "$WL/cpu_burn" 0.3 2>/dev/null >pipe.data
same pipe
