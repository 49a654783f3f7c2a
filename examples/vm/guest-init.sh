#!/bin/sh
# /init of the demo guest (busybox sh). Records the example workloads with
# vmprof, collects the guest's kallsyms and facts about the machine, packs
# everything with a sha256 manifest and sends it base64-encoded over the
# second serial port (ttyS1), then powers off. Lines starting with
# "vmprof-guest:" on the console are the host's progress and result markers.
# Settings come from the kernel command line (unknown key=value words
# become environment variables here): VP_MATMUL_N, VP_MEMWALK_MIB, ...
export PATH=/bin:/sbin:/usr/bin:/usr/sbin
export LD_LIBRARY_PATH=/lib/x86_64-linux-gnu:/usr/lib/x86_64-linux-gnu

say() { echo "vmprof-guest: $*"; }
finish() { sync; poweroff -f; sleep 60; }	# poweroff -f does not return
failed() { say "FAILED: $*"; finish; }

mount -t proc proc /proc || failed "mount /proc"
mount -t sysfs sysfs /sys || failed "mount /sys"
mount -t devtmpfs devtmpfs /dev 2>/dev/null || [ -c /dev/ttyS1 ] || failed "mount /dev"
mount -t tmpfs tmpfs /tmp || failed "mount /tmp"
mount -t tracefs tracefs /sys/kernel/tracing 2>/dev/null || true
mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null || true
hostname vmprof-guest
say "up: kernel $(uname -r), $(grep -c ^processor /proc/cpuinfo) cpu(s), uptime $(cut -d' ' -f1 /proc/uptime) s"

out=/out
mkdir -p $out
uname -r > $out/uname-r
cat /proc/cpuinfo > $out/cpuinfo
for f in sys_vendor product_name; do
	cat /sys/class/dmi/id/$f > $out/dmi-$f 2>/dev/null || true
done
cat /proc/stat > $out/stat-start

# The same recordings as on the host; its progress lines go to the console.
/opt/vmprof/record-all.sh /opt/vmprof/bin/vmprof /opt/vmprof/bin $out guest || failed "record-all.sh"
cat /proc/stat > $out/stat-end
# The guest kernel's symbols for the host's report (same boot, same KASLR).
cat /proc/kallsyms > $out/kallsyms
[ -s $out/kallsyms ] || failed "/proc/kallsyms is empty"
cat /proc/modules > $out/modules 2>/dev/null || true

say "packing $(ls $out | wc -l) files"
( cd $out && sha256sum $(ls) > /tmp/MANIFEST ) || failed "sha256sum"
mv /tmp/MANIFEST $out/MANIFEST
tar -C $out -czf /tmp/out.tgz . || failed "tar"
size=$(wc -c < /tmp/out.tgz)
sum=$(sha256sum /tmp/out.tgz | cut -d' ' -f1)
# Raw mode: no newline translation or echo on the data port.
stty -F /dev/ttyS1 raw -echo 115200 || failed "stty ttyS1"
say "sending $size bytes over ttyS1"
{
	echo "VMPROF-BEGIN $size $sum"
	base64 /tmp/out.tgz
	echo "VMPROF-END"
} > /dev/ttyS1 || failed "writing ttyS1"
# Closing the port waited for its transmit buffer to drain.
say "done $size $sum"
finish
