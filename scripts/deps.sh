#!/usr/bin/env bash
# Install the Debian packages vmprof needs to build and test, when missing.
# Usage: scripts/deps.sh [extra-package...]   (extra packages: e.g. the demo's)
set -euo pipefail

pkgs=(gcc libtsan2 make pkg-config binutils
      libtraceevent-dev libcsv-dev libxml2-dev libcairo2-dev libpng-dev libelf-dev libiberty-dev
      libcmocka-dev libgsl-dev fonts-dejavu-core
      libprotobuf-c-dev protobuf-c-compiler zlib1g-dev golang-go
      linux-perf python3 python3-numpy python3-scipy libxml2-utils poppler-utils ghostscript clang libclang-rt-14-dev
      qemu-system-x86 busybox-static cpio file strace
      chromium chromium-driver python3-selenium
      "$@")

missing=()
for p in "${pkgs[@]}"; do
	st=$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null || true)
	[ "$st" = installed ] || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
	echo "deps: missing packages: ${missing[*]}" >&2
	echo "deps: run as root, or: sudo apt-get install ${missing[*]}" >&2
	exit 1
fi
echo "deps: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get -o DPkg::Lock::Timeout=600 update -qq >/dev/null || apt-get -o DPkg::Lock::Timeout=600 update
apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
