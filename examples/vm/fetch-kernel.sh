#!/usr/bin/env bash
# Fetch a Debian 6.1 kernel for the demo guest with apt only (no other
# network): apt-get download the newest linux-image-6.1.0-N-amd64 apt knows,
# unpack it with dpkg -x, and keep it under DIR (a build directory, not git).
# Usage: fetch-kernel.sh DIR      Prints the path of the vmlinuz on stdout.
set -euo pipefail
dir=${1:?usage: fetch-kernel.sh DIR}
say() { echo "vm: $*" >&2; }
die() { echo "vm: fetch-kernel: $*" >&2; exit 1; }
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)

# A kernel unpacked before is reused as is.
if [ -s "$dir/vmlinuz" ] && [ -s "$dir/release" ]; then
	echo "$dir/vmlinuz"
	exit 0
fi

command -v apt-get >/dev/null || die "apt-get is not available: put a bzImage at $dir/vmlinuz and its release in $dir/release"
# Newest ABI that apt has a candidate version for (the search lists names a
# stale index no longer carries).
newest() {
	local name policy
	for name in $(apt-cache search --names-only '^linux-image-6\.1\.0-[0-9]+-amd64$' | awk '{ print $1 }' | sort -V -r); do
		policy=$(apt-cache policy "$name")
		case $policy in *"Candidate: "[0-9]*) echo "$name"; return ;; esac
	done
}
pkg=$(newest)
if [ -z "$pkg" ]; then
	say "no linux-image-6.1.0-*-amd64 known to apt; running apt-get update"
	apt-get update -qq >/dev/null 2>&1 || die "apt-get update failed"
	pkg=$(newest)
fi
[ -n "$pkg" ] || die "apt knows no linux-image-6.1.0-*-amd64 package (is a Debian 12 source configured?)"

tmp=$(mktemp -d "$dir/.fetch.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
say "downloading $pkg with apt-get download"
( cd "$tmp" && apt-get download -q "$pkg" >/dev/null 2>"$tmp/apt.err" ) ||
	die "apt-get download $pkg failed: $(tail -n 3 "$tmp/apt.err")"
deb=$(ls "$tmp"/*.deb 2>/dev/null | head -n 1)
[ -n "$deb" ] || die "apt-get download left no .deb"
dpkg-deb --info "$deb" >/dev/null || die "$deb is not a valid package"
dpkg -x "$deb" "$tmp/root" || die "dpkg -x $deb failed"
vmlinuz=$(ls "$tmp"/root/boot/vmlinuz-* 2>/dev/null | head -n 1)
[ -n "$vmlinuz" ] || die "$pkg holds no /boot/vmlinuz-*"
release=${vmlinuz##*/vmlinuz-}
# The kernel image itself, its config (to know what is built in) and the
# System.map; modules are not needed: the guest uses built-in drivers only.
cp "$vmlinuz" "$dir/vmlinuz.tmp"
cp "$tmp/root/boot/config-$release" "$dir/config" 2>/dev/null || true
echo "$release" > "$dir/release.tmp"
echo "$pkg" > "$dir/package"
mv "$dir/vmlinuz.tmp" "$dir/vmlinuz"
mv "$dir/release.tmp" "$dir/release"
say "kernel $release ready in $dir"
echo "$dir/vmlinuz"
