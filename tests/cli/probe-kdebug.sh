#!/usr/bin/env bash
# flare probe -k VMLINUX / -m MODULE / -s DIR: kernel debug info from an object built here
# with DWARF (a relocatable object, as a module before linking, and the same code linked at
# a kernel address with a _text symbol, as a vmlinux): -L, -F, -V and -D compared with perf
# probe on the same files; adding a kernel probe still ends with one line and changes nothing.
source "$ROOT/tests/lib.sh"

cat >kmod.c <<'C'
struct sock_like { int state; long bytes; };
int kglobal = 3;
static int kcount;

int kfunc(struct sock_like *sk, int size)
{
	int r = size * 2;

	sk->bytes += size;
	if (sk->state)
		r++;
	return r;
}

__attribute__((noinline)) static int kstatic(int v)
{
	kcount += v;
	return kcount;
}

int kentry(int x)
{
	return kstatic(x) + kfunc(0, x) + kglobal;
}
C
if ! gcc -g -O1 -c kmod.c -o kmod.o ||
	! gcc -g -O1 -nostdlib -static -fno-pie -no-pie -Wl,-Ttext=0xffffffff81000000 \
		-Wl,--defsym=_text=0xffffffff81000000 -Wl,-e,kentry -o vmlinux kmod.c; then
	fail "build the kernel-like objects" "gcc failed"
	exit 0
fi
K=$PWD/vmlinux M=$PWD/kmod.o
if have_perf; then
	same() {	# what, then the arguments for both
		local what=$1
		shift
		check_eq "$what equals perf's" "$(perf probe "$@" 2>/dev/null)" "$($FLARE probe "$@" 2>&1)"
	}
	for d in 'kfunc size' 'kfunc:4 sk->bytes' 'kfunc%return $retval' 'kstatic v' 'kmod.c:10 size' \
		'kfunc;sk->*' 'kfunc sk->state:u8' 'myev=kentry x'; do
		same "-k -D '$d'" -k "$K" -D "$d"
	done
	same "-k -F (functions only)" -k "$K" -F
	same "-k -F 'k*'" -k "$K" -F 'k*'
	same "-m -F (a module's functions and data)" -m "$M" -F
	for l in kfunc 'kfunc:1-4' 'kmod.c:8-12' kstatic; do
		same "-k -L '$l'" -k "$K" -L "$l"
		same "-m -L '$l'" -m "$M" -L "$l"
	done
	same "-k -V kfunc" -k "$K" -V kfunc
	same "-k -V 'kfunc:4'" -k "$K" -V 'kfunc:4'
	mkdir -p src/deep
	cp kmod.c src/deep/
	same "-s DIR -L" -k "$K" -s "$PWD/src/deep" -L kfunc
else
	skip "kernel debug info compared with perf probe" "Linux perf is not installed"
fi
check_grep "-k -D names the place by symbol and offset" '^p:probe/kfunc_L4 kfunc\+[0-9]+ bytes=\+8\(%di\):s64$' \
	<($FLARE probe -k "$K" -D 'kfunc:4 sk->bytes')
$FLARE probe -m kmod -L kfunc >/dev/null 2>merr.txt
check_eq "-m with a module name: a usage error (129)" 129 $?
check_grep "-m with a module name: says what to give" 'give the path of a module' merr.txt
check_refusal "-k: a function that is not there" "'nosuch'" $FLARE probe -k "$K" -D nosuch

T=/sys/kernel/tracing
state() { cat $T/uprobe_events $T/kprobe_events 2>/dev/null | sort; }
before=$(state)
if [ -e $T/kprobe_events ]; then
	skip "adding a kernel probe from -k is refused" "this kernel has kprobe_events"
else
	check_refusal "adding a kernel probe from -k: no kprobe_events, one line" \
		'no kprobe_events.*-x' $FLARE probe -k "$K" -a 'kfunc size'
fi
check_eq "tracefs probes unchanged" "$before" "$(state)"
