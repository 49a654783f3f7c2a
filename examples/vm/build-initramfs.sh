#!/usr/bin/env bash
# Build the demo guest's initramfs: busybox (static), vmprof with every shared
# library it needs (as ldd lists them, the dynamic loader included), the
# example workloads, record-all.sh and the init script.
# Usage: build-initramfs.sh OUT VMPROF EXAMPLES_BINDIR
# Leaves OUT/root (the guest's file tree, later used as --symfs to resolve
# the guest's binaries on the host) and OUT/initramfs.cpio.gz.
set -euo pipefail
out=${1:?usage: build-initramfs.sh OUT VMPROF EXAMPLES_BINDIR}
vmprof=${2:?vmprof binary}
bindir=${3:?examples bin dir}
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
die() { echo "vm: build-initramfs: $*" >&2; exit 1; }

busybox=$(command -v busybox || true)
[ -n "$busybox" ] || die "busybox is not installed (apt-get install busybox-static)"
# The guest has no libc of its own for busybox: it must be the static one.
if ldd "$busybox" >/dev/null 2>&1; then
	die "$busybox is dynamically linked; install busybox-static"
fi
command -v cpio >/dev/null || die "cpio is not installed"
[ -x "$vmprof" ] || die "no vmprof binary at $vmprof (run make first)"
workloads=(matmul memwalk pingpong appio)
for w in "${workloads[@]}"; do
	[ -x "$bindir/$w" ] || die "no workload $bindir/$w (run make workloads)"
done

mkdir -p "$out"
out=$(cd "$out" && pwd)
root=$out/root
rm -rf "$root" "$out/initramfs.cpio.gz.tmp"
mkdir -p "$root"/{bin,sbin,usr/bin,usr/sbin,proc,sys,dev,tmp,out,etc,opt/vmprof/bin}

cp "$busybox" "$root/bin/busybox"
# Every applet as a symlink at its usual place (busybox knows where).
"$busybox" --list-full | while read -r applet; do
	[ -e "$root/$applet" ] || ln -s /bin/busybox "$root/$applet"
done

cp "$vmprof" "$root/opt/vmprof/bin/vmprof"
for w in "${workloads[@]}"; do cp "$bindir/$w" "$root/opt/vmprof/bin/$w"; done
cp "$top/examples/workloads/record-all.sh" "$root/opt/vmprof/record-all.sh"
cp "$here/guest-init.sh" "$root/init"
chmod 755 "$root/init" "$root/opt/vmprof/record-all.sh"

# Shared libraries at the paths the host's loader found them, and the loader.
libs=$(for b in "$root"/opt/vmprof/bin/*; do ldd "$b"; done |
	awk '/=> \// { print $3 } /^\t\/[^ ]+ \(/ { print $1 }' | sort -u)
[ -n "$libs" ] || die "ldd listed no libraries for vmprof"
for l in $libs; do
	[ -e "$l" ] || die "library $l (from ldd) does not exist"
	mkdir -p "$root$(dirname "$l")"
	cp -L "$l" "$root$l"
done
grep -q 'ld-linux' <<<"$libs" || die "ldd did not name the dynamic loader"
# Merged /usr: the loader also looks in /usr/lib/<triplet>.
[ -d "$root/lib/x86_64-linux-gnu" ] && [ ! -e "$root/usr/lib/x86_64-linux-gnu" ] &&
	mkdir -p "$root/usr/lib" && ln -s /lib/x86_64-linux-gnu "$root/usr/lib/x86_64-linux-gnu"
echo "root:x:0:0:root:/:/bin/sh" > "$root/etc/passwd"
echo "vmprof-guest" > "$root/etc/hostname"

# Check the tree is usable before packing it: vmprof runs with only these
# libraries (ldd inside the tree would need the guest; resolving with the
# copied loader and library path is the same check).
loader=$(grep ld-linux <<<"$libs" | head -n 1)
"$root$loader" --library-path "$root/lib/x86_64-linux-gnu:$root/usr/lib/x86_64-linux-gnu" \
	"$root/opt/vmprof/bin/vmprof" --version >/dev/null ||
	die "vmprof does not start with the copied libraries"

( cd "$root" && find . -print0 | LC_ALL=C sort -z | cpio --null -o -H newc --quiet ) |
	gzip -6 > "$out/initramfs.cpio.gz.tmp" || die "packing the initramfs failed"
gzip -t "$out/initramfs.cpio.gz.tmp" || die "the packed initramfs does not verify"
mv "$out/initramfs.cpio.gz.tmp" "$out/initramfs.cpio.gz"
# Not in the guest, only for the host's reports with --symfs root: the
# copied libraries are the host's files, so the host's separate debug
# symbols (by build-id) name their functions as on the host side.
[ -d /usr/lib/debug ] && mkdir -p "$root/usr/lib" && ln -sfn /usr/lib/debug "$root/usr/lib/debug"
echo "vm: initramfs $(du -h "$out/initramfs.cpio.gz" | cut -f1) with vmprof, ${#workloads[@]} workloads, $(wc -w <<<"$libs") libraries" >&2
