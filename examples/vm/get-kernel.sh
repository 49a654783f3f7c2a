#!/usr/bin/env bash
# Fetch a Debian 6.1 kernel image with apt (no other network) and unpack it.
# Usage: get-kernel.sh DIR   -> prints the path of the vmlinuz under DIR
set -euo pipefail
dir=$1
mkdir -p "$dir"
if k=$(ls "$dir"/root/boot/vmlinuz-* 2>/dev/null | head -1) && [ -n "$k" ]; then
	echo "$k"
	exit 0
fi
pkg=$(apt-cache search --names-only '^linux-image-6\.1\.0-[0-9]+-amd64$' | awk '{ print $1 }' | sort -V | tail -1)
if [ -z "$pkg" ]; then
	# the index may be empty on a fresh machine
	apt-get update -qq >/dev/null 2>&1 || true
	pkg=$(apt-cache search --names-only '^linux-image-6\.1\.0-[0-9]+-amd64$' | awk '{ print $1 }' | sort -V | tail -1)
fi
[ -n "$pkg" ] || { echo "get-kernel: apt knows no linux-image-6.1.0-*-amd64 package" >&2; exit 1; }
echo "vm: downloading $pkg with apt-get download" >&2
# apt's sandbox user cannot write to most build dirs; the warning says so, harmlessly
(cd "$dir" && rm -f linux-image-*.deb && apt-get download -q "$pkg" > apt.log 2>&1) ||
	{ cat "$dir/apt.log" >&2; echo "get-kernel: apt-get download $pkg failed" >&2; exit 1; }
dpkg -x "$dir"/linux-image-*.deb "$dir/root"
k=$(ls "$dir"/root/boot/vmlinuz-* | head -1)
[ -s "$k" ] || { echo "get-kernel: no vmlinuz in $pkg" >&2; exit 1; }
echo "$k"
