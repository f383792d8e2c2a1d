#!/usr/bin/env bash
# annotate: flare annotate --stdio against perf annotate --stdio on the same recording, perf's
# answer computed here: the seed's nop loop (16 nops and a jmp in main), a C program with a hot
# loop, a function of a shared library, a recording flare made; per instruction address the
# same percent, and for the programs built here the same listing (header, objdump's text, the
# interleaved source, perf's line numbers), with -n, --show-total-period, --percent-type,
# --no-source, --asm-raw, -M intel and -l. Bad input is refused in one line.
source "$ROOT/tests/lib.sh"

if ! have_perf; then
	skip "all" "Linux perf is not installed"
	exit 0
fi
if ! command -v gcc >/dev/null; then
	skip "all" "no gcc to build the workloads"
	exit 0
fi
cd "$TMP" || exit 1

cat >noploop.c <<'EOF'
int main(void)
{
	asm volatile("1:\n\t"
		     "nop\n\tnop\n\tnop\n\tnop\n\tnop\n\tnop\n\tnop\n\tnop\n\t"
		     "nop\n\tnop\n\tnop\n\tnop\n\tnop\n\tnop\n\tnop\n\tnop\n\t"
		     "jmp 1b\n");
	return 0;
}
EOF
cat >hot.c <<'EOF'
#include <stdio.h>
#include <stdlib.h>

extern unsigned lib_mix(unsigned x);

static inline unsigned mix(unsigned x)
{
	x ^= x >> 13;
	x *= 0x5bd1e995;
	return x ^ (x >> 15);
}

__attribute__((noinline)) unsigned hot(const unsigned *v, int n)
{
	unsigned s = 0;

	for (int i = 0; i < n; i++)
		s += mix(v[i]) * (i & 7);
	return s;
}

int main(int argc, char **argv)
{
	static unsigned v[4096];
	unsigned s = 0;
	long iters = argc > 1 ? atol(argv[1]) : 20000;

	for (int i = 0; i < 4096; i++)
		v[i] = i * 2654435761u;
	for (long k = 0; k < iters; k++) {
		v[k & 4095] ^= (unsigned)k;
		s += hot(v, 4096);
		for (int j = 0; j < 2048; j++)
			s += lib_mix(s + j);
	}
	printf("%u\n", s);
	return 0;
}
EOF
cat >lib.c <<'EOF'
unsigned lib_mix(unsigned x)
{
	for (int i = 0; i < 4; i++)
		x = (x ^ (x >> 7)) * 0x9e3779b1u;
	return x;
}
EOF
if ! gcc -O0 -g -o noploop noploop.c 2>cc.err ||
   ! gcc -O2 -g -fPIC -shared -o libmix.so lib.c 2>>cc.err ||
   ! gcc -O2 -g -o hot hot.c -L. -lmix -Wl,-rpath,"$TMP" 2>>cc.err; then
	fail "build the workloads" "$(head -c 300 cc.err)"
	exit 0
fi

# perf's samples of the nop loop, which runs until timeout ends it
perf record -q --no-bpf-event -F 2999 -o nop.data -- timeout 2 ./noploop >/dev/null 2>&1
perf record -q --no-bpf-event -F 2999 -o hot.data ./hot 3000 >/dev/null 2>hot.rec.err
$FLARE record -F 2999 -o flare.data ./hot 1500 >/dev/null 2>flare.rec.err

# percents FILE: "header-number address percent" of each instruction line
percents() {
	awk '/Source code & Disassembly of/ { h++ }
	     /^ +-?[0-9.]+ : +[0-9a-f]+:/ { sub(":", "", $3); print h, $3, $1 }' "$1"
}
# same_percents NAME FILE ARGS...: per instruction address the percents perf annotate prints
same_percents() {
	local name=$1 file=$2; shift 2
	perf annotate --stdio -i "$file" "$@" 2>/dev/null >"$name.perf"
	$FLARE annotate --stdio -i "$file" "$@" 2>"$name.err" >"$name.flare"
	local rc=$?
	percents "$name.perf" >"$name.perf.pct"
	percents "$name.flare" >"$name.flare.pct"
	if [ ! -s "$name.perf.pct" ]; then
		fail "$name: perf annotate printed no instruction" "$(head -c 200 "$name.perf")"
	elif [ $rc -ne 0 ]; then
		fail "$name: flare annotate $*" "exit $rc: $(head -c 300 "$name.err")"
	elif cmp -s "$name.perf.pct" "$name.flare.pct"; then
		pass "$name: the percents of perf annotate $* at $(wc -l <"$name.perf.pct") addresses"
	else
		fail "$name: the percents of perf annotate $*" \
			"$(diff "$name.perf.pct" "$name.flare.pct" | head -6 | tr '\n' '~')"
	fi
}
# same_listing NAME FILE ARGS...: the whole listing equals perf annotate's
same_listing() {
	local name=$1 file=$2; shift 2
	perf annotate --stdio -i "$file" "$@" 2>/dev/null >"$name.perf"
	$FLARE annotate --stdio -i "$file" "$@" 2>"$name.err" >"$name.flare"
	if [ ! -s "$name.perf" ]; then
		fail "$name: perf annotate $* printed nothing" "$(head -c 200 "$name.err")"
	elif cmp -s "$name.perf" "$name.flare"; then
		pass "$name: perf annotate $*'s $(wc -l <"$name.perf") lines"
	else
		fail "$name: perf annotate $*'s listing" \
			"$(diff "$name.perf" "$name.flare" | head -8 | tr '\n' '~')"
	fi
}

if [ -s nop.data ]; then
	same_listing nop-main nop.data main
	same_percents nop-all nop.data
	# the seed's point: the samples spread over the 16 nops and the jmp
	n=$(awk '$2 >= 0 { print }' nop-main.flare | grep -cE '^ +[0-9.]+ : +[0-9a-f]+: +(nop|jmp)')
	check_eq "nop-main: the loop's 16 nops and its jmp are listed" 17 "$n"
else
	fail "record the nop loop with perf" "no nop.data"
fi

if [ -s hot.data ]; then
	same_percents hot-all hot.data
	same_listing hot-main hot.data main
	same_listing hot-hot hot.data hot
	same_listing hot-lib hot.data lib_mix
	same_listing hot-n hot.data -n hot
	same_listing hot-period hot.data --show-total-period hot
	same_listing hot-global hot.data --percent-type global-hits hot
	same_listing hot-nosrc hot.data --no-source main
	same_listing hot-raw hot.data --asm-raw hot
	same_listing hot-intel hot.data -M intel hot
	same_listing hot-lines hot.data -l hot
	same_listing hot-dsos hot.data --dsos libmix.so
else
	fail "record the hot loop with perf" "$(head -c 300 hot.rec.err)"
fi

if [ -s flare.data ]; then
	same_percents flare-rec flare.data
	same_listing flare-rec-hot flare.data hot
else
	fail "record the hot loop with flare" "$(head -c 300 flare.rec.err)"
fi

# a kernel symbol: from /proc/kcore, which this kernel may not have
if [ -r /proc/kcore ] && [ -s hot.data ]; then
	ksym=$(perf report -i hot.data --stdio --sort sym 2>/dev/null | awk '/\[k\]/ { print $3; exit }')
	if [ -n "$ksym" ]; then
		same_percents kernel hot.data "$ksym"
	else
		skip "kernel" "no kernel sample in hot.data"
	fi
else
	skip "kernel" "/proc/kcore is not readable on this kernel"
	$FLARE annotate --stdio -i hot.data >/dev/null 2>kernel.err
	if grep -q '\[k\]' <(perf report -i hot.data --stdio --sort sym 2>/dev/null); then
		check_eq "kernel symbols without kcore: said once, naming -k" 1 \
			"$(grep -c 'with -k VMLINUX' kernel.err)"
	fi
fi

# bad input
$FLARE annotate --stdio -i missing.data >out 2>err
check_eq "a missing file exits as perf (255)" 255 $?
check_grep "a missing file is named" "cannot open 'missing.data'" err
$FLARE annotate --stdio -i hot.data --percent-type half >out 2>err
check_eq "an unknown --percent-type is a usage error (129)" 129 $?
check_grep "the --percent-type error names the types" "local-period" err
$FLARE annotate --stdio -i hot.data no_such_symbol >out 2>err
check_eq "a symbol without samples: status 0, as perf" 0 $?
check_grep "a symbol without samples is said" "no samples in 'no_such_symbol'" err
printf 'PERFILE2garbage' >bad.data
check_fails "a corrupt file fails" $FLARE annotate --stdio -i bad.data
