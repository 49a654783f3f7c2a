#!/usr/bin/env bash
# The demo's guest side really comes from inside a QEMU guest: boot the demo
# kernel and initramfs under TCG, record the workloads there, bring the files
# out, and check them against sources independent of vmprof's own output:
# - the guest's metadata (report --header) names QEMU, as the guest's own DMI
#   vendor does, and its kernel release is the guest's `uname -r` and not the
#   host's (or, were they equal, the hypervisor field differs from the host's);
# - bytes and calls per function in the I/O tables (report --weight ret)
#   equal what the workload printed, on the host and in the guest;
# - the steal time reported is within the guest's /proc/stat steal over the run.
source "$(dirname "$0")/../lib.sh"
for tool in qemu-system-x86_64 cpio gcc; do
	command -v "$tool" >/dev/null || skip "$tool is not installed (make deps installs it)"
done
command -v busybox >/dev/null && ! ldd "$(command -v busybox)" >/dev/null 2>&1 ||
	skip "busybox-static is not installed (make deps installs it)"
[ -d /sys/kernel/tracing/events/syscalls ] || mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null || true
[ -d /sys/kernel/tracing/events/syscalls ] || skip "no syscall tracepoints on the host (tracefs)"
kernel=$("$TOP/examples/vm/fetch-kernel.sh" "$BUILD/vm/kernel" 2>"$WORK/fetch.err") ||
	skip "no guest kernel: $(tail -n 1 "$WORK/fetch.err")"

mkdir -p "$WORK/bin"
for w in matmul memwalk pingpong iorw; do
	gcc -std=gnu11 -O1 -g -fno-omit-frame-pointer -pthread -o "$WORK/bin/$w" "$TOP/examples/workloads/$w.c"
done
"$TOP/examples/vm/build-initramfs.sh" "$WORK/vm" "$VMPROF" "$WORK/bin" 2>"$WORK/initramfs.err" ||
	{ cat "$WORK/initramfs.err"; fail "building the initramfs"; }

# Small sizes: the guest is emulated. The same sizes on the host.
export VP_MATMUL_N=160 VP_MEMWALK_MIB=8 VP_MEMWALK_ROUNDS=1 VP_PINGPONG_ROUNDS=500 VP_IORW_SCALE=77
sizes="VP_MATMUL_N=$VP_MATMUL_N VP_MEMWALK_MIB=$VP_MEMWALK_MIB VP_MEMWALK_ROUNDS=$VP_MEMWALK_ROUNDS VP_PINGPONG_ROUNDS=$VP_PINGPONG_ROUNDS VP_IORW_SCALE=$VP_IORW_SCALE"
"$TOP/examples/workloads/record-all.sh" "$VMPROF" "$WORK/bin" "$WORK/host" host 2>"$WORK/host.err" ||
	{ cat "$WORK/host.err"; fail "recording on the host"; }
# shellcheck disable=SC2086
"$TOP/examples/vm/run-guest.sh" --timeout 240 "$kernel" "$WORK/vm/initramfs.cpio.gz" "$WORK/guest" $sizes \
	2>"$WORK/guest.err" || { tail -n 30 "$WORK/guest.err"; fail "the guest run"; }
g=$WORK/guest
# run-guest.sh checked the transfer; check again here, independently.
( cd "$g" && sha256sum -c --quiet MANIFEST ) || fail "guest files differ from the guest's manifest"
for f in matmul memwalk pingpong iorw; do [ -s "$g/$f.data" ] || fail "no $f.data from the guest"; done
# The sizes reached the guest through the kernel command line.
grep -q "n=$VP_MATMUL_N " "$g/matmul.out" || fail "the guest's matmul did not get N=$VP_MATMUL_N: $(cat "$g/matmul.out")"

# --- the file came from inside the guest
header() { "$VMPROF_SAN" report --header "$1" | sed -n "s/^# $2 *: //p"; }
ghyp=$(header "$g/matmul.data" hypervisor)
hhyp=$(header "$WORK/host/matmul.data" hypervisor)
grel=$(header "$g/matmul.data" 'os release')
vendor=$(cat "$g/dmi-sys_vendor" 2>/dev/null || true)
note "guest: release '$grel', hypervisor '$ghyp', DMI vendor '$vendor'; host: '$(uname -r)', '$hhyp'"
expect_eq "guest label" "$(header "$g/matmul.data" label)" guest
expect_eq "guest hostname" "$(header "$g/matmul.data" hostname)" vmprof-guest
expect_eq "guest kernel release (the guest's uname -r)" "$grel" "$(cat "$g/uname-r")"
[ -n "$ghyp" ] && [ "$ghyp" != none ] || fail "the guest's file names no hypervisor"
# The guest's CPU says it is virtual and DMI says QEMU, independently of vmprof.
grep -q '^flags.* hypervisor' "$g/cpuinfo" || fail "the guest's cpuinfo lacks the hypervisor flag"
expect_eq "DMI vendor in the guest" "$vendor" QEMU
[[ "$ghyp" == *QEMU* ]] || fail "hypervisor '$ghyp' does not name QEMU"
# TCG's CPUID signature is TCGTCGTCGTCG; with KVM it would be KVMKVMKVM.
[[ "$ghyp" == *TCG* ]] || fail "hypervisor '$ghyp' does not name TCG (the guest ran under TCG)"
if [ "$grel" = "$(uname -r)" ]; then
	[ "$ghyp" != "$hhyp" ] || fail "same kernel release and same hypervisor on both sides: not proven to be a guest"
fi

# --- I/O tables: bytes and calls per function, as the workload counted them
io_check() {	# io_check SIDE DIR [REPORT-OPTIONS]
	local side=$1 dir=$2; shift 2
	local n=0 fn how bytes calls ev got
	while read -r _ fn how bytes _ calls _; do
		ev=syscalls:sys_exit_$how
		"$VMPROF_SAN" report "$@" --weight ret -e "$ev" --format csv "$dir/iorw.data" > "$WORK/io.csv" ||
			fail "$side: report --weight ret -e $ev"
		got=$(python3 -c 'import csv, sys
for r in csv.DictReader(open(sys.argv[1])):
    if r["symbol"] == sys.argv[2]:
        print(r["samples"], r["period"])' "$WORK/io.csv" "$fn")
		expect_eq "$side: $fn $how calls and bytes" "$got" "$calls $bytes"
		n=$((n + 1))
	done < <(grep '^iorw: ' "$dir/iorw.out")
	[ "$n" -eq 5 ] || fail "$side: iorw printed $n counts, want 5: $(cat "$dir/iorw.out")"
}
io_check host "$WORK/host"
io_check guest "$g" --symfs "$WORK/vm/root" --kallsyms "$g/kallsyms"

# --- steal time: reported, and no more than /proc/stat's over the whole run
gsteal=$(header "$g/matmul.data" 'steal time' | awk '{ print $1 }')
[[ "$gsteal" =~ ^[0-9]+(\.[0-9]+)?$ ]] || fail "no steal time in the guest's header"
hz=100	# USER_HZ of the guest's /proc/stat
stat_steal() { awk '$1 == "cpu" { print $9 }' "$1"; }
delta=$(( $(stat_steal "$g/stat-end") - $(stat_steal "$g/stat-start") ))
awk -v s="$gsteal" -v d="$delta" -v hz=$hz 'BEGIN { exit !(s <= d / hz + 0.02) }' ||
	fail "steal time $gsteal s is more than /proc/stat's $delta ticks over the whole run"
note "guest steal: $gsteal s reported, $delta ticks in /proc/stat over the run"

# --- and the comparison works on the two: the I/O table compares 1.00x
"$VMPROF_SAN" report --weight ret --format csv "$WORK/host/iorw.data" > "$WORK/h.csv"
"$VMPROF_SAN" report --weight ret --format csv --symfs "$WORK/vm/root" --kallsyms "$g/kallsyms" "$g/iorw.data" > "$WORK/g.csv"
( cd "$WORK" && "$VMPROF_SAN" compare --format csv -e syscalls:sys_exit_write -o "$WORK/io.cmp.xml" h.csv g.csv > "$WORK/cmp.csv" ) ||
	fail "compare of the I/O tables"
python3 - "$WORK/cmp.csv" <<'PY' || fail "the I/O comparison does not pair write_blocks 1:1"
import csv, sys
rows = {r["symbol"]: r for r in csv.DictReader(open(sys.argv[1]))}
r = rows["write_blocks"]
sys.exit(0 if r["host_period"] == r["guest_period"] and float(r["host_period"]) > 0 else 1)
PY
echo "ok: guest '$grel' under '$ghyp'; I/O bytes per function agree with the workload on both sides"
