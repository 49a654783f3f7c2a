#!/usr/bin/env bash
# Boot the guest under QEMU (TCG by default; --kvm when /dev/kvm really
# works), let its init record the workloads, and unpack the files it sends
# back, checked against its SHA256SUMS.
# Usage: run-guest.sh [--kvm] VMLINUZ INITRD OUTDIR WORKLOAD-DIR [WORKLOAD-ARGS]
set -euo pipefail
accel=tcg
[ "${1:-}" = --kvm ] && { accel=kvm; shift; }
kernel=$1 initrd=$2 out=$3 wdir=$4 wargs=${5:-120,32,2000,200}
limit=${VMPROF_GUEST_TIMEOUT:-300}
mkdir -p "$out"
b64=$(mktemp "${TMPDIR:-/tmp}/vmprof-guest.XXXXXX")
log=$out/console.log
trap 'rm -f "$b64"' EXIT
echo "vm: booting $(basename "$kernel") under QEMU ($accel), up to ${limit}s" >&2
# console on the first serial port (progress lines), data on the second
set +e
timeout --foreground -k 5 "$limit" qemu-system-x86_64 -accel "$accel" -m 1G -smp 2 \
	-nographic -no-reboot -kernel "$kernel" -initrd "$initrd" \
	-append "console=ttyS0 quiet panic=-1 vmprof.args=$wargs vmprof.wl=$wdir" \
	-serial mon:stdio -serial "file:$b64" < /dev/null 2>&1 |
	tee "$log" | grep --line-buffered -o "VMPROF-GUEST: .*" | sed -u 's/^VMPROF-GUEST: /vm: guest: /' >&2
rc=${PIPESTATUS[0]}
set -e
[ "$rc" = 124 ] && { echo "run-guest: the guest did not finish within ${limit}s (see $log)" >&2; exit 1; }
grep -q "VMPROF-GUEST: done" "$log" || { echo "run-guest: the guest did not finish its work (see $log)" >&2; exit 1; }
# a serial line may turn newlines into CR LF: base64 ignores neither, so drop CRs
tr -d '\r' < "$b64" | base64 -d | tar x -C "$out" || { echo "run-guest: the guest's files arrived damaged" >&2; exit 1; }
(cd "$out" && sha256sum --quiet -c SHA256SUMS) || { echo "run-guest: checksums do not match" >&2; exit 1; }
echo "vm: $(ls "$out" | wc -l) files from the guest in $out, checksums verified" >&2
