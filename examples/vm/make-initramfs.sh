#!/usr/bin/env bash
# Build the guest's initramfs: busybox (static), vmprof with the shared
# libraries it needs and their loader, the workloads, and the init script.
# Usage: make-initramfs.sh OUT.cpio.gz VMPROF WORKLOAD...
set -euo pipefail
out=$1 vmprof=$2; shift 2
here=$(cd "$(dirname "$0")" && pwd)
root=$(mktemp -d "${TMPDIR:-/tmp}/vmprof-initramfs.XXXXXX")
trap 'rm -rf "$root"' EXIT
mkdir -p "$root"/{bin,sbin,proc,sys,dev,tmp,out,w,etc}
busybox=$(command -v busybox || true)
file "$busybox" 2>/dev/null | grep -q "statically linked" || busybox=/bin/busybox
[ -x "$busybox" ] && file -L "$busybox" | grep -q "statically linked" ||
	{ echo "make-initramfs: need a static busybox (apt-get install busybox-static)" >&2; exit 1; }
cp "$busybox" "$root/bin/busybox"
cp "$vmprof" "$root/vmprof"
# workloads at the same path as on the host: the guest's recordings then name
# binaries the host can read, so both sides resolve the same symbols
for w in "$@"; do mkdir -p "$root$(dirname "$w")"; cp "$w" "$root$w"; done
# every shared object vmprof and the workloads load, at the same path, and the loader
for bin in "$vmprof" "$@"; do
	ldd "$bin" | awk '/=>/ { print $3 } /^\t\/.*ld-linux/ { print $1 }'
done | sort -u | while read -r lib; do
	[ -e "$lib" ] || continue
	mkdir -p "$root$(dirname "$lib")"
	cp -L "$lib" "$root$lib"
done
mkdir -p "$root/lib64"
cp -L /lib64/ld-linux-x86-64.so.2 "$root/lib64/" 2>/dev/null || true
cp "$here/init" "$root/init"
chmod +x "$root/init"
(cd "$root" && find . | cpio -o -H newc --quiet) | gzip -1 > "$out.tmp"
mv "$out.tmp" "$out"
