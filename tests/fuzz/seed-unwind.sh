#!/usr/bin/env bash
# tests/fuzz/seed-unwind.sh DIR [BUILD_DIR (default build)]: writes seed inputs for the unwind
# fuzzer (tests/fuzz/unwind.c) into DIR: the workloads cpu_burn and getppid_n as the object,
# the ip in one of their functions, and a stack copy holding return addresses into their
# callers, so that the fuzzer starts from inputs libdwfl unwinds a few frames through.
#   tests/fuzz/seed-unwind.sh /tmp/useeds && build-fuzz/unwind -max_len=131072 CORPUS /tmp/useeds
set -eu
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
OUT=$(mkdir -p "$1" && cd "$1" && pwd)
WL=$ROOT/${2:-build}/workloads
for w in cpu_burn getppid_n; do
	[ -x "$WL/$w" ] || { echo "seed-unwind: no $WL/$w (make first)" >&2; exit 1; }
	python3 - "$WL/$w" "$OUT/$w.seed" <<'PY'
import struct, subprocess, sys
elf, out = sys.argv[1], sys.argv[2]
base = 0x400000
syms = {}
for line in subprocess.run(['nm', elf], capture_output=True, text=True).stdout.splitlines():
    f = line.split()
    if len(f) == 3 and f[1] in 'tT':
        syms[f[2]] = int(f[0], 16)
names = [n for n in ('b', 'a', 'main', 'syscall') if n in syms] or list(syms)[:3]
sp = 0x7ffff000
regs = [0] * 20
regs[6] = sp + 0x40          # bp
regs[7] = sp                 # sp
regs[8] = base + syms[names[0]] + 8   # ip
stack = b''.join(struct.pack('<Q', base + syms[n] + 0x10) for n in names[1:] * 16)
stack = stack[:512]
with open(out, 'wb') as f:
    f.write(struct.pack('<20Q', *regs))
    f.write(struct.pack('<H', len(stack)))
    f.write(stack)
    f.write(open(elf, 'rb').read())
PY
done
ls -la "$OUT"
