#!/usr/bin/env bash
# The real host-vs-guest run (make demo, smaller): the workloads recorded by
# vmprof inside a QEMU guest and on this host, compared and charted. The
# guest's files must really come from the guest (its metadata names the
# emulator and another kernel), and the I/O tables' bytes per function must
# equal what the workload itself says it wrote and read, on both sides.
source "$(dirname "$0")/../lib.sh"
for t in qemu-system-x86_64 cpio base64; do command -v $t >/dev/null || skip "$t is not installed"; done
[ -x "$BUILD/examples/iorw" ] || skip "workloads not built (make workloads)"
out=$WORK/demo
DEMO_ARGS=100,16,1000,100 VMPROF_GUEST_TIMEOUT=400 "$TOP/scripts/demo.sh" "$out" > "$WORK/demo.log" 2>&1 || {
	if grep -q "apt-get download .* failed\|apt knows no linux-image" "$WORK/demo.log"; then
		tail -3 "$WORK/demo.log"; skip "no Debian kernel package reachable"
	fi
	tail -30 "$WORK/demo.log"; fail "the demo failed"
}
hdr=$("$VMPROF" report --header "$out/guest/matmul.data")
hv=$(sed -n 's/^# hypervisor *: //p' <<< "$hdr")
rel=$(sed -n 's/^# os release *: //p' <<< "$hdr")
[ -n "$hv" ] && [ "$hv" != none ] || fail "the guest file names no hypervisor: '$hv'"
grep -qiE "qemu|tcg|kvm" <<< "$hv" || fail "the guest file's hypervisor is not QEMU/KVM: '$hv'"
[ -n "$rel" ] && [ "$rel" != "$(uname -r)" ] || fail "the guest file's kernel '$rel' is this host's"
grep -q "^# steal time" <<< "$hdr" || fail "no steal time in the guest's metadata"
note "guest: $hv, kernel $rel"

# bytes per function: the workload's own counts against the tracepoint tables
for side in host guest; do
	ks=(); [ $side = guest ] && ks=(--kallsyms "$out/guest/guest.kallsyms")
	said=$(cat "$out/$side/iorw.out")
	for f in write_blocks:sys_exit_write:wrote read_blocks:sys_exit_read:read; do
		IFS=: read -r fn ev verb <<< "$f"
		want=$(sed -n "s/.*$fn $verb \([0-9]*\) bytes.*/\1/p" <<< "$said")
		got=$("$VMPROF" report "${ks[@]}" --weight ret -e syscalls:$ev "$out/$side/iorw.data" 2>/dev/null |
			awk -v f="$fn" '$NF == f { print $3 }')
		[ -n "$want" ] || fail "$side: iorw printed no count for $fn"
		expect_eq "$side $fn bytes" "$got" "$want"
	done
done

# comparisons and charts for every workload, the table names both sides
for w in matmul memwalk pingpong iorw; do
	[ -s "$out/$w.cmp.xml" ] || fail "no comparison for $w"
	ls "$out/charts/$w/"*-bar.svg "$out/charts/$w/"*-circle.png > /dev/null || fail "no charts for $w"
done
grep -q "multiply" "$out/matmul.txt" || fail "the matmul comparison does not show multiply"
grep -q "only guest\|x " "$out/matmul.txt" || fail "the matmul table shows no comparison"
echo "ok: guest $hv, kernel $rel"
