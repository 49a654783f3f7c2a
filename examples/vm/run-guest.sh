#!/usr/bin/env bash
# Boot the demo guest under QEMU, follow its console, and bring its files out.
# Usage: run-guest.sh [--kvm] [--timeout SECONDS] [--smp N] KERNEL INITRD OUTDIR [KEY=VALUE...]
# KEY=VALUE words go on the kernel command line (the guest's init sees them
# as environment variables, e.g. VP_MATMUL_N=200). The guest sends a gzip'ed
# tar over its second serial port in base64 between VMPROF-BEGIN SIZE SHA256
# and VMPROF-END; receive.sh checks the size and checksum, unpacks the tar
# and checks every file against the guest's sha256 MANIFEST into OUTDIR.
# TCG is the default: it needs nothing from the host. --kvm uses KVM when
# /dev/kvm is usable, else says so and stays on TCG.
set -euo pipefail
accel=tcg timeout=300 smp=1
# Seconds for the kernel to boot to init: TCG took 9-16 s on 2 busy cores.
tcg_boot_timeout=120 kvm_boot_timeout=30
while [ $# -gt 0 ]; do
	case $1 in
	--kvm) accel=kvm; shift ;;
	--timeout) timeout=$2; shift 2 ;;
	--smp) smp=$2; shift 2 ;;
	--) shift; break ;;
	-*) echo "usage: run-guest.sh [--kvm] [--timeout S] [--smp N] KERNEL INITRD OUTDIR [KEY=VALUE...]" >&2; exit 2 ;;
	*) break ;;
	esac
done
[ $# -ge 3 ] || { echo "usage: run-guest.sh [--kvm] [--timeout S] [--smp N] KERNEL INITRD OUTDIR [KEY=VALUE...]" >&2; exit 2; }
kernel=$1 initrd=$2 out=$3
shift 3
here=$(cd "$(dirname "$0")" && pwd)
say() { echo "vm: $*" >&2; }
die() { echo "vm: $*" >&2; exit 1; }

command -v qemu-system-x86_64 >/dev/null || die "qemu-system-x86_64 is not installed (apt-get install qemu-system-x86)"
[ -s "$kernel" ] || die "no kernel at $kernel"
[ -s "$initrd" ] || die "no initramfs at $initrd"

if [ "$accel" = kvm ]; then
	# /dev/kvm can exist and open yet not run a guest (nested setups): ask
	# QEMU to bring the accelerator up before trusting it.
	if [ ! -r /dev/kvm ] || [ ! -w /dev/kvm ]; then
		say "--kvm: /dev/kvm is not usable here; using TCG"
		accel=tcg
	elif ! echo quit | timeout 20 qemu-system-x86_64 -accel kvm -machine q35 -display none \
		-nodefaults -monitor stdio >/dev/null 2>&1; then
		say "--kvm: QEMU cannot start KVM here; using TCG"
		accel=tcg
	fi
fi

boot_timeout=$tcg_boot_timeout
[ "$accel" = kvm ] && boot_timeout=$kvm_boot_timeout
mkdir -p "$out"
out=$(cd "$out" && pwd)
run=$(mktemp -d "$out/.run.XXXXXX")
trap 'rm -rf "$run"' EXIT
console=$out/console.log
: > "$console"

# Unknown key=value words on the command line reach init's environment.
append="console=ttyS0 quiet loglevel=3 panic=-1 $*"

# boot ACCEL: run the guest once. Returns QEMU's status (124/137: the hard
# timeout), or 200 when the guest never said it was up within boot_timeout
# (QEMU is then stopped): a /dev/kvm that opens but cannot run a guest.
boot() {
	local accel=$1 up=0 line now qpid st
	: > "$console"
	rm -f "$run/ttyS1" "$run/fifo"
	mkfifo "$run/fifo"
	start=$(date +%s)
	say "booting $(basename "$kernel") with $accel ($smp cpu, timeout ${timeout}s); console log: $console"
	# -no-reboot turns a guest panic or reboot into QEMU exiting; timeout
	# bounds a guest that hangs; the console is read line by line as it comes.
	timeout -k 10 "$timeout" qemu-system-x86_64 -accel "$accel" -m 1G -smp "$smp" \
		-display none -nodefaults -no-reboot -no-user-config \
		-chardev stdio,id=con,signal=off -serial chardev:con \
		-serial "file:$run/ttyS1" \
		-kernel "$kernel" -initrd "$initrd" -append "$append" \
		</dev/null >"$run/fifo" 2>"$run/qemu.err" &
	qpid=$!
	exec 3<"$run/fifo"
	while :; do
		if [ "$up" = 0 ]; then
			now=$(date +%s)
			if [ $((now - start)) -ge "$boot_timeout" ]; then
				kill "$qpid" 2>/dev/null || true
				wait "$qpid" 2>/dev/null || true
				exec 3<&-
				return 200
			fi
			IFS= read -r -t $((boot_timeout - (now - start))) line <&3; st=$?
			[ "$st" -gt 128 ] && continue	# read timed out: check the deadline
		else
			IFS= read -r line <&3; st=$?
		fi
		[ "$st" -eq 0 ] || break	# end of output: QEMU exited
		line=${line%$'\r'}
		printf '%s\n' "$line" >> "$console"
		case $line in
		"vmprof-guest: up"*) up=1 ;;
		esac
		case $line in
		"vmprof-guest: "*) printf 'vm: [%3ss] guest: %s\n' "$(( $(date +%s) - start ))" "${line#*: }" >&2 ;;
		"record-all: "*) printf 'vm: [%3ss] %s\n' "$(( $(date +%s) - start ))" "${line#*: }" >&2 ;;
		esac
	done
	exec 3<&-
	wait "$qpid"
}

set +e
boot "$accel"
status=$?
if [ "$status" -eq 200 ] && [ "$accel" = kvm ]; then
	say "--kvm: the guest did not come up within ${boot_timeout}s under KVM (this /dev/kvm cannot run it); retrying with TCG"
	accel=tcg boot_timeout=$tcg_boot_timeout
	boot "$accel"
	status=$?
fi
set -e
[ "$status" -ne 200 ] || { tail -n 20 "$console" >&2; die "the guest did not come up within ${boot_timeout}s; console log: $console"; }
secs=$(( $(date +%s) - start ))
if [ "$status" -eq 124 ] || [ "$status" -eq 137 ]; then
	tail -n 20 "$console" >&2
	die "the guest did not power off within ${timeout}s (killed); console log: $console"
fi
[ "$status" -eq 0 ] || { cat "$run/qemu.err" >&2; die "qemu exited with status $status"; }
if ! "$here/receive.sh" "$console" "$run/ttyS1" "$out"; then
	echo "vm: the console's last lines:" >&2
	tail -n 15 "$console" | sed 's/^/vm: | /' >&2
	exit 1
fi
say "guest finished in ${secs}s"
