#!/usr/bin/env bash
# make demo: the same workloads recorded on this host and inside a QEMU guest,
# compared and charted. Outputs in demo-out/ (or $1).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$top/demo-out}
vmprof=$top/build/vmprof
wl=$top/build/examples
vm=$top/build/vm
args=${DEMO_ARGS:-160,32,2000,200}	# matmul N, memwalk MB, pingpong rounds, iorw rounds
IFS=, read -r a_mm a_mw a_pp a_io <<< "$args"
say() { printf 'demo: %s\n' "$*" >&2; }
t0=$SECONDS

rm -rf "$out"
mkdir -p "$out/host" "$out/guest" "$vm"
say "getting a Debian kernel for the guest"
kernel=$("$top/examples/vm/get-kernel.sh" "$vm")
say "building the guest's initramfs (busybox, vmprof and its libraries, workloads)"
"$top/examples/vm/make-initramfs.sh" "$vm/initrd.gz" "$vmprof" "$wl/matmul" "$wl/memwalk" \
	"$wl/pingpong" "$wl/iorw"
"$top/examples/vm/run-guest.sh" ${DEMO_KVM:+--kvm} "$kernel" "$vm/initrd.gz" "$out/guest" "$wl" "$args"

say "recording the same workloads on the host"
cd "$out/host"
rec() { local name=$1; shift; "$vmprof" record --label host -o "$name.data" "$@" > "$name.out" 2> "$name.err" ||
	{ cat "$name.err" >&2; say "host recording of $name failed"; exit 1; }; }
rec matmul -e cpu-clock -- "$wl/matmul" "$a_mm"
rec memwalk -e cpu-clock,page-faults,minor-faults -- "$wl/memwalk" "$a_mw" 1
rec pingpong -e cpu-clock,context-switches -- "$wl/pingpong" "$a_pp"
mkdir -p "$out/host/io"
rec iorw -e cpu-clock,syscalls:sys_exit_read,syscalls:sys_exit_write -- "$wl/iorw" "$out/host/io" "$a_io"
rm -rf "$out/host/io"
cd "$out"

say "comparing and charting"
for w in matmul memwalk pingpong iorw; do
	"$vmprof" compare --labels host,guest -o "$out/$w.cmp.xml" \
		--guest-file-kallsyms "$out/guest/guest.kallsyms" \
		"host/$w.data" "guest/$w.data" > "$out/$w.txt" 2> "$out/$w.compare.err" ||
		{ cat "$out/$w.compare.err" >&2; exit 1; }
	"$vmprof" chart --top 10 -o "$out/charts/$w" "$out/$w.cmp.xml" 2> "$out/$w.chart.err" ||
		{ cat "$out/$w.chart.err" >&2; exit 1; }
done
"$vmprof" report --weight ret -e syscalls:sys_exit_write,syscalls:sys_exit_read --top 5 \
	host/iorw.data > "$out/host-io-bytes.txt" 2>/dev/null
"$vmprof" report --weight ret -e syscalls:sys_exit_write,syscalls:sys_exit_read --top 5 \
	--kallsyms guest/guest.kallsyms guest/iorw.data > "$out/guest-io-bytes.txt" 2>/dev/null

echo
echo "== host vs guest: matmul (cpu-clock), top rows"
sed -n '3,20p' "$out/matmul.txt"
echo
echo "== the guest's recording (vmprof report --header guest/matmul.data)"
"$vmprof" report --header "$out/guest/matmul.data" | grep -E "hostname|os release|hypervisor|steal|cpu time"
echo
say "done in $((SECONDS - t0)) s. Tables: $out/*.txt  charts: $out/charts/*/  data: $out/host, $out/guest"
