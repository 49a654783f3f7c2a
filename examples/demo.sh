#!/usr/bin/env bash
# The host-vs-guest demo behind `make demo`: record the example workloads on
# this machine and inside a QEMU guest (a Debian 6.1 kernel booted with an
# initramfs holding vmprof), bring the guest's files out checked, compare the
# two sides per workload and chart them. Outputs go to demo-out/.
# Usage: examples/demo.sh [--kvm] [--smp N] [--out DIR]   (`make demo` builds first;
# `make demo DEMO_FLAGS='--kvm --smp 2'` passes options)
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD:-$top/build}
out=$top/demo-out
vmopts=()
while [ $# -gt 0 ]; do
	case $1 in
	--kvm) vmopts+=(--kvm); shift ;;
	--smp) vmopts+=(--smp "$2"); shift 2 ;;
	--out) out=$2; shift 2 ;;
	*) echo "usage: examples/demo.sh [--kvm] [--smp N] [--out DIR]" >&2; exit 2 ;;
	esac
done
vmprof=$build/vmprof
say() { echo "demo: $*" >&2; }
die() { echo "demo: $*" >&2; exit 1; }
export NO_COLOR=${NO_COLOR:-1}
[ -x "$vmprof" ] || die "no $vmprof: run 'make demo' (it builds vmprof first)"
[ -d "$build/examples" ] || die "no workloads in $build/examples: run 'make demo'"
t0=$(date +%s)
mkdir -p "$out"
out=$(cd "$out" && pwd)
# Outputs of an earlier run are replaced, not mixed with this one's.
rm -rf "$out/host" "$out/guest" "$out/tables" "$out/charts" "$out"/*.cmp.xml "$out"/*.txt

say "1/5 guest kernel and initramfs"
kernel=$("$top/examples/vm/fetch-kernel.sh" "$build/vm/kernel")
"$top/examples/vm/build-initramfs.sh" "$build/vm" "$vmprof" "$build/examples"

say "2/5 recording the workloads on the host ($(uname -r))"
"$top/examples/workloads/record-all.sh" "$vmprof" "$build/examples" "$out/host" host

say "3/5 recording the same workloads inside the guest"
"$top/examples/vm/run-guest.sh" "${vmopts[@]}" "$kernel" "$build/vm/initramfs.cpio.gz" "$out/guest"

say "4/5 comparing"
# Each side is turned into a table with its own machine's symbols: the guest's
# binaries are under the initramfs tree (--symfs) and its kernel symbols are
# the copy of its /proc/kallsyms made during the same boot.
mkdir -p "$out/tables"
table() {	# table SIDE NAME [REPORT-OPTIONS...]
	local side=$1 name=$2; shift 2
	local opts=()
	[ "$side" = guest ] && opts=(--symfs "$build/vm/root" --kallsyms "$out/guest/kallsyms")
	"$vmprof" report --format xml "${opts[@]}" "$@" "$out/$side/$name.data" > "$out/tables/.$name.$side.xml" ||
		die "vmprof report of $out/$side/$name.data failed"
	mv "$out/tables/.$name.$side.xml" "$out/tables/$name.$side.xml"
}
for name in matmul memwalk pingpong iorw; do
	weight=()
	# I/O: bytes per function, the 'ret' of every read and write.
	[ "$name" = iorw ] && weight=(--weight ret)
	table host "$name" "${weight[@]}"
	table guest "$name" "${weight[@]}"
	( cd "$out" && "$vmprof" compare --labels host,guest --top 10 -o "$name.cmp.xml" \
		"tables/$name.host.xml" "tables/$name.guest.xml" > "$name.txt" 2>"$name.err" ) ||
		{ cat "$out/$name.err" >&2; die "vmprof compare for $name failed"; }
	rm -f "$out/$name.err"
done

say "5/5 charts"
mkdir -p "$out/charts"
for name in matmul memwalk pingpong iorw; do
	( cd "$out" && "$vmprof" chart --top 10 -o "charts/$name" "$name.cmp.xml" 2>"$name.err" ) ||
		{ cat "$out/$name.err" >&2; die "vmprof chart for $name failed"; }
	rm -f "$out/$name.err"
done

for name in matmul memwalk pingpong iorw; do
	echo
	echo "######## $name: $(head -n 1 "$out/host/$name.out")"
	cat "$out/$name.txt"
done
echo
hdr() { "$vmprof" report --header "$1" | sed -n "s/^# $2 *: //p"; }
printf '%-6s %-18s %-50s %s\n' side kernel hypervisor "steal time (matmul)"
for side in host guest; do
	printf '%-6s %-18s %-50s %s\n' "$side" "$(hdr "$out/$side/matmul.data" 'os release')" \
		"$(hdr "$out/$side/matmul.data" hypervisor)" "$(hdr "$out/$side/matmul.data" 'steal time')"
done
echo
echo "outputs in $out:"
echo "  host/*.data, guest/*.data   the recordings (perf report -i reads them too); guest/ also has its kallsyms"
echo "  *.txt, *.cmp.xml            the comparisons (tables above; full comparison for vmprof chart)"
echo "  charts/<workload>/          bar and circle charts, SVG and PNG"
say "finished in $(( $(date +%s) - t0 ))s"
