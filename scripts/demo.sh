#!/usr/bin/env bash
# The host-vs-guest demo behind `make demo`: record the example workloads on
# this machine and inside a QEMU guest (a Debian 6.1 kernel booted with an
# initramfs holding vmprof), bring the guest's files out checked, compare the
# two sides per workload and chart them. Outputs go to demo-out/.
# Usage: scripts/demo.sh [--kvm] [--smp N] [--timeout S] [--out DIR]   (`make demo`
# builds first; `make demo DEMO_FLAGS='--kvm --smp 2'` passes options).
# Workload sizes: VP_MATMUL_N, VP_MEMWALK_MIB, VP_MEMWALK_ROUNDS,
# VP_PINGPONG_ROUNDS, VP_APPIO_SCALE in the environment, the same on both sides;
# VP_RUNS: runs of each workload per side (default 3), whose differences the
# comparisons judge across runs.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD:-$top/build}
out=$top/demo-out
vmopts=()
while [ $# -gt 0 ]; do
	case $1 in
	--kvm) vmopts+=(--kvm); shift ;;
	--smp) vmopts+=(--smp "$2"); shift 2 ;;
	--timeout) vmopts+=(--timeout "$2"); shift 2 ;;
	--out) out=$2; shift 2 ;;
	*) echo "usage: scripts/demo.sh [--kvm] [--smp N] [--timeout S] [--out DIR]" >&2; exit 2 ;;
	esac
done
vmprof=$build/vmprof
say() { echo "demo: $*" >&2; }
die() { echo "demo: $*" >&2; exit 1; }
export NO_COLOR=${NO_COLOR:-1}
[ -x "$vmprof" ] || die "no $vmprof: run 'make demo' (it builds vmprof first)"
[ -x "$build/examples/appio" ] || die "no workloads in $build/examples: run 'make demo'"
workloads=(matmul memwalk pingpong appio)
# Sizes set here reach the guest's init through the kernel command line.
sizes=()
export VP_RUNS=${VP_RUNS:-3}
for v in VP_MATMUL_N VP_MEMWALK_MIB VP_MEMWALK_ROUNDS VP_PINGPONG_ROUNDS VP_APPIO_SCALE VP_RUNS; do
	[ -n "${!v:-}" ] && sizes+=("$v=${!v}")
done
t0=$(date +%s)
mkdir -p "$out"
out=$(cd "$out" && pwd)
# Outputs of an earlier run are replaced, not mixed with this one's.
rm -rf "$out/host" "$out/guest" "$out/tables" "$out/charts" "$out"/*.cmp.xml "$out"/*.txt "$out"/*.time.csv "$out/index.html"
# A workload's runs on one side: NAME.data, NAME.run-2.data, ... as one side.
runs() {	# runs LABEL DIR NAME [EXT]
	local list=$2/$3.${4:-data} k=2
	while [ -e "$out/$2/$3.run-$k.${4:-data}" ]; do list=$list,$2/$3.run-$k.${4:-data}; k=$((k + 1)); done
	echo "$1=$list"
}

say "1/5 guest kernel and initramfs"
kernel=$("$top/examples/vm/fetch-kernel.sh" "$build/vm/kernel")
"$top/examples/vm/build-initramfs.sh" "$build/vm" "$vmprof" "$build/examples"

say "2/5 recording the workloads on the host ($(uname -r))"
"$top/examples/workloads/record-all.sh" "$vmprof" "$build/examples" "$out/host" host

say "3/5 recording the same workloads inside the guest"
"$top/examples/vm/run-guest.sh" "${vmopts[@]}" "$kernel" "$build/vm/initramfs.cpio.gz" "$out/guest" "${sizes[@]}"

say "4/5 comparing"
# The guest's recordings are named with the guest's own symbols: its kernel's
# from the copy of its /proc/kallsyms made during the same boot, its binaries'
# from the initramfs tree (--guest-file-symfs).
guestsyms=(--guest-file-kallsyms "$out/guest/kallsyms" --guest-file-symfs "$build/vm/root")
compare() {	# compare NAME HOST GUEST [OPTIONS]
	local name=$1 host=$2 guest=$3; shift 3
	( cd "$out" && "$vmprof" compare --labels host,guest --top 10 -o "$name.cmp.xml" "$@" \
		"$host" "$guest" > "$name.txt.tmp" 2>"$name.err" ) ||
		{ cat "$out/$name.err" >&2; die "vmprof compare for $name failed"; }
	mv "$out/$name.txt.tmp" "$out/$name.txt"
	# where the time went, as numbers (the headline of $name.txt)
	( cd "$out" && "$vmprof" compare --labels host,guest --time-split --format csv -o "$name.cmp.xml" "$@" \
		"$host" "$guest" > "$name.time.csv" 2>"$name.err" ) ||
		{ cat "$out/$name.err" >&2; die "vmprof compare --time-split for $name failed"; }
	rm -f "$out/$name.err"
}
for name in matmul memwalk pingpong; do
	compare "$name" "$(runs host host "$name")" "$(runs guest guest "$name")" "${guestsyms[@]}"
done
# I/O: bytes per function, the 'ret' of every read and write, as tables
# (report --weight ret), one per run, then compared like any other.
mkdir -p "$out/tables"
for f in "$out"/host/appio.data "$out"/host/appio.run-*.data "$out"/guest/appio.data "$out"/guest/appio.run-*.data; do
	[ -e "$f" ] || continue
	side=$(basename "$(dirname "$f")") run=$(basename "$f" .data)
	opts=()
	[ "$side" = guest ] && opts=(--kallsyms "$out/guest/kallsyms" --symfs "$build/vm/root")
	"$vmprof" report --weight ret --format xml "${opts[@]}" "$f" > "$out/tables/$side.$run.xml.tmp" ||
		die "vmprof report --weight ret of $side/$run.data failed"
	mv "$out/tables/$side.$run.xml.tmp" "$out/tables/$side.$run.xml"
done
compare appio "$(runs host tables host.appio xml)" "$(runs guest tables guest.appio xml)"
# I/O per function as PAPI-V's appio counts it: calls, bytes, errors, short,
# EOF, mean block and time inside the calls (report --io), the first run's.
"$vmprof" report --io "$out/host/appio.data" > "$out/tables/host.appio.io.txt" ||
	die "vmprof report --io of host/appio.data failed"
"$vmprof" report --io --kallsyms "$out/guest/kallsyms" --symfs "$build/vm/root" \
	"$out/guest/appio.data" > "$out/tables/guest.appio.io.txt" ||
	die "vmprof report --io of guest/appio.data failed"

say "5/5 charts"
mkdir -p "$out/charts"
for name in "${workloads[@]}"; do
	( cd "$out" && "$vmprof" chart --top 10 --format svg,png,html -o "charts/$name" "$name.cmp.xml" \
		2>"$name.err" ) || { cat "$out/$name.err" >&2; die "vmprof chart for $name failed"; }
	rm -f "$out/$name.err"
done
# One page that links each workload's report (the names are this script's own).
{
	cat <<'HTML'
<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>vmprof demo: host vs guest</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:48rem;margin:0 auto;padding:0 1rem}</style>
</head><body>
<h1>vmprof demo: host vs guest</h1>
<p>The same workloads recorded on this host and inside a QEMU guest, compared per function.
Each report has the sides' facts, where the time went, every function in a table to sort and filter,
the charts and, for matmul (recorded with -g), the flame graph.</p>
<ul>
HTML
	for name in "${workloads[@]}"; do
		echo "<li><a href=\"charts/$name/index.html\">$name</a> (table: <a href=\"$name.txt\">$name.txt</a>)</li>"
	done
	echo "</ul></body></html>"
} > "$out/index.html.tmp"
mv "$out/index.html.tmp" "$out/index.html"

for name in "${workloads[@]}"; do
	echo
	echo "######## $name: $(head -n 1 "$out/host/$name.out")"
	cat "$out/$name.txt"
done
for side in host guest; do
	echo
	echo "######## appio on the $side, I/O per function"
	cat "$out/tables/$side.appio.io.txt"
done
# Where the time went, every workload at a glance (the headlines above):
# matmul computes (user CPU), pingpong and appio wait (blocked, waiting).
echo
printf '%-9s %10s %10s %7s   %s\n' workload host guest ratio "largest parts of the gap"
for name in "${workloads[@]}"; do
	python3 - "$name" "$out/$name.time.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[2])))
wall = rows[0]
parts = sorted((r for r in rows[1:] if r["measured"] == "1" and r["gap_share"]),
               key=lambda r: -abs(float(r["delta"])))[:3]
base, side = float(wall["baseline"]), float(wall["value"])
print("%-9s %9.3fs %9.3fs %6.2fx   %s" % (sys.argv[1], base, side, side / base if base else 0,
      ", ".join("%s %.0f%%" % (r["name"], 100 * float(r["gap_share"])) for r in parts)))
PY
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
echo "  host/*.data, guest/*.data   the recordings, $VP_RUNS runs of each workload per side: NAME.data,"
echo "                              NAME.run-2.data, ... (perf report -i reads them too); guest/ also has its kallsyms"
echo "  host/*.out, guest/*.out     what each workload printed, run after run (appio: its bytes and time per function)"
echo "  *.txt, *.cmp.xml            the comparisons (tables above; full comparison for vmprof chart)"
echo "  *.time.csv                  where the time went, host against guest (compare --time-split --format csv)"
echo "  tables/                     the I/O tables in bytes (report --weight ret), one per run, and per function (report --io)"
echo "  charts/<workload>/          bar and circle charts and the time waterfall, SVG and PNG, and index.html: the"
echo "                              workload's report; matmul (recorded with -g) also a differential flame graph"
echo "                              (cpu-clock-flame.svg, and in its report)"
echo "  index.html                  links each workload's report: open it in a browser"
say "finished in $(( $(date +%s) - t0 ))s"
