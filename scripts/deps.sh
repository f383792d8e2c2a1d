#!/usr/bin/env bash
# scripts/deps.sh [--test]: installs what building flare needs (and, with --test, what the
# test suite compares against: Linux perf, Chromium, FlameGraph's Perl) when it is missing.
# Debian 12 packages only; nothing is downloaded from anywhere else.
set -eu
pkgs="gcc make pkg-config libelf-dev libdw-dev libtraceevent-dev libtracefs-dev libcapstone-dev libzstd-dev libiberty-dev libbpf-dev bpftool clang libncurses-dev"
if [ "${1:-}" = --test ]; then
	pkgs="$pkgs linux-perf chromium perl python3 clang locales libxml2-utils binutils g++ time clang-format tmux less"
fi
missing=""
for p in $pkgs; do
	dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"
done
if [ -z "$missing" ]; then
	echo "deps: all build dependencies are installed"
	exit 0
fi
echo "deps: installing:$missing"
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO=sudo
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
# shellcheck disable=SC2086
$SUDO apt-get install -y -qq --no-install-recommends $missing
