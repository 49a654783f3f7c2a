#!/usr/bin/env bash
# The real host-vs-guest run (make demo, smaller): the workloads recorded by
# vmprof inside a QEMU TCG guest and on this host, compared and charted. The
# guest's files are checked against sources independent of vmprof's output:
# - its metadata (report --header) names QEMU and TCG, as the guest's own DMI
#   vendor and CPU flags do, and its kernel release is the guest's `uname -r`
#   and not the host's (or, were they equal, the hypervisor differs);
# - bytes and calls per function in the I/O tables (report --weight ret)
#   equal what the workload printed, on the host and in the guest, and so
#   does every count of the appio-complete table (report --io: calls, bytes,
#   errors, short transfers, EOF reads);
# - where the time went: every comparison opens with the split, matmul's gap
#   is mostly user CPU and its parts add up to it (vmprof-compare(1) TIME),
#   pingpong's and appio's waiting is measured on both sides; the guest's
#   files name its clocksource and followed its threads' wakeups;
# - the steal time reported is within the guest's /proc/stat steal;
# - every workload has a comparison of its 3 runs per side, with intervals
#   from the variation between runs, charts and an HTML report, and
#   demo-out/index.html links each report; matmul (recorded with -g) a
#   differential flame graph drawn from both sides' stacks, in its own SVG
#   and inline in its HTML report.
source "$(dirname "$0")/../lib.sh"
for tool in qemu-system-x86_64 cpio base64; do
	command -v "$tool" >/dev/null || skip "$tool is not installed (make deps installs it)"
done
command -v busybox >/dev/null && ! ldd "$(command -v busybox)" >/dev/null 2>&1 ||
	skip "busybox-static is not installed (make deps installs it)"
[ -x "$BUILD/examples/appio" ] || skip "workloads not built (make workloads)"
[ -d /sys/kernel/tracing/events/syscalls ] || mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null || true
[ -d /sys/kernel/tracing/events/syscalls ] || skip "no syscall tracepoints on the host (tracefs)"
"$TOP/examples/vm/fetch-kernel.sh" "$BUILD/vm/kernel" >/dev/null 2>"$WORK/fetch.err" ||
	skip "no guest kernel: $(tail -n 1 "$WORK/fetch.err")"

# Small sizes (the guest is emulated), the same on both sides.
export VP_MATMUL_N=160 VP_MEMWALK_MIB=8 VP_MEMWALK_ROUNDS=1 VP_PINGPONG_ROUNDS=500 VP_APPIO_SCALE=77
out=$WORK/demo
BUILD=$BUILD "$TOP/scripts/demo.sh" --timeout 400 --out "$out" > "$WORK/demo.log" 2>&1 ||
	{ tail -n 30 "$WORK/demo.log"; fail "the demo failed"; }
g=$out/guest
# The transfer was checked on arrival; check again here, independently.
( cd "$g" && sha256sum -c --quiet MANIFEST ) || fail "guest files differ from the guest's manifest"
for w in matmul memwalk pingpong appio; do
	[ -s "$g/$w.data" ] || fail "no $w.data from the guest"
	[ -s "$out/host/$w.data" ] || fail "no $w.data from the host"
done
# The sizes reached the guest through the kernel command line.
grep -q "n=$VP_MATMUL_N " "$g/matmul.out" || fail "the guest's matmul did not get N=$VP_MATMUL_N: $(cat "$g/matmul.out")"

# --- the file came from inside the guest
header() { "$VMPROF_SAN" report --header "$1" | sed -n "s/^# $2 *: //p"; }
ghyp=$(header "$g/matmul.data" hypervisor)
hhyp=$(header "$out/host/matmul.data" hypervisor)
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
		"$VMPROF_SAN" report "$@" --weight ret -e "$ev" --format csv "$dir/appio.data" > "$WORK/io.csv" ||
			fail "$side: report --weight ret -e $ev"
		got=$(python3 -c 'import csv, sys
for r in csv.DictReader(open(sys.argv[1])):
    if r["symbol"] == sys.argv[2]:
        print(r["samples"], r["period"])' "$WORK/io.csv" "$fn")
		expect_eq "$side: $fn $how calls and bytes" "$got" "$calls $bytes"
		n=$((n + 1))
	done < <(grep '^appio: ' "$dir/appio.out" | head -n 11)	# the first run's (appio.data)
	[ "$n" -eq 11 ] || fail "$side: appio printed $n counts, want 11: $(cat "$dir/appio.out")"
	# every run (appio.data, appio.run-K.data) printed the same counts for the
	# functions whose I/O does not depend on timing (the slow pipes' reads
	# come back short or not as the feeder's chunks arrive)
	local runs
	runs=$(ls "$dir"/appio.data "$dir"/appio.run-*.data 2>/dev/null | wc -l)
	expect_eq "$side: runs of appio" "$runs" 3
	[ -z "$(grep -E '^appio: (write_blocks|write_records|read_blocks|copy_file|bad_calls) ' "$dir/appio.out" |
		sort | uniq -c | awk -v r="$runs" '$1 != r')" ] ||
		fail "$side: the runs of appio printed different counts: $(cat "$dir/appio.out")"
	# appio-complete: every count of report --io is the workload's own (first run)
	"$VMPROF_SAN" report "$@" --io --format csv "$dir/appio.data" > "$WORK/io-$side.csv" ||
		fail "$side: report --io"
	grep '^appio: ' "$dir/appio.out" | head -n 11 > "$WORK/io-$side.said"
	python3 - "$WORK/io-$side.csv" "$WORK/io-$side.said" "$side" <<'PY' || fail "$side: report --io differs from appio's counts"
import csv, sys
rows = {(r["symbol"], r["direction"]): r for r in csv.DictReader(open(sys.argv[1]))}
n = 0
for line in open(sys.argv[2]):
    w = line.split()
    want = {"bytes": w[3], "calls": w[5], "errors": w[7], "short": w[9], "eof": w[11]}
    r = rows.get((w[1], w[2]))
    assert r, f"{sys.argv[3]}: no row for {w[1]} {w[2]}"
    got = {k: r[k] for k in want}
    assert got == want, f"{sys.argv[3]}: {w[1]} {w[2]}: vmprof {got}, appio {want}"
    n += 1
assert n == 11, n
PY
}
io_check host "$out/host"
io_check guest "$g" --symfs "$BUILD/vm/root" --kallsyms "$g/kallsyms"

# --- where the time went
expect_eq "guest sched method" "$(header "$g/matmul.data" 'sched method')" "switch records and wakeups"
[ -n "$(header "$g/matmul.data" clocksource)" ] || fail "the guest's file names no clocksource"
note "guest clocksource: $(header "$g/matmul.data" clocksource)"
for w in matmul memwalk pingpong appio; do
	head -n 1 "$out/$w.txt" | grep -q "^# Where the time went: guest against host" ||
		fail "the $w comparison does not open with where the time went"
	[ -s "$out/charts/$w/time-waterfall.svg" ] || fail "no time waterfall for $w"
done
python3 - "$out" <<'PY' || fail "the time split"
import csv, sys
def split(w):
    return {r["part"]: r for r in csv.DictReader(open(f"{sys.argv[1]}/{w}.time.csv"))}
m = split("matmul")
gap = float(m["wall"]["delta"])
parts = sum(float(m[p]["delta"]) for p in ("user", "system", "steal", "waiting", "blocked"))
tol = 0.02 * max(float(m["wall"]["baseline"]), float(m["wall"]["value"])) + 0.021
print(f"matmul: gap {gap:.3f} s, parts {parts:.3f} s, user CPU {float(m['user']['delta']):.3f} s")
assert abs(parts - gap) <= tol, f"matmul's parts {parts} do not add up to its gap {gap} (±{tol:.3f})"
assert float(m["user"]["delta"]) > 0.5 * gap, "matmul's gap is not mostly user CPU"
for w in ("pingpong", "appio"):
    s = split(w)
    assert s["blocked"]["measured"] == "1" and s["waiting"]["measured"] == "1", f"{w}: blocking not measured"
    for side in ("baseline", "value"):
        off = float(s["blocked"][side]) + float(s["waiting"][side])
        assert off > 0, f"{w} never waited on the {side} side"
PY

# --- steal time: reported, and no more than /proc/stat's over the whole run
gsteal=$(header "$g/matmul.data" 'steal time' | awk '{ print $1 }')
[[ "$gsteal" =~ ^[0-9]+(\.[0-9]+)?$ ]] || fail "no steal time in the guest's header"
stat_steal() { awk '$1 == "cpu" { print $9 }' "$1"; }
delta=$(( $(stat_steal "$g/stat-end") - $(stat_steal "$g/stat-start") ))
# /proc/stat counts in USER_HZ, 100 on x86.
awk -v s="$gsteal" -v d="$delta" 'BEGIN { exit !(s <= d / 100 + 0.02) }' ||
	fail "steal time $gsteal s is more than /proc/stat's $delta ticks over the whole run"
note "guest steal: $gsteal s reported, $delta ticks in /proc/stat over the run"

# --- comparisons and charts for every workload
for w in matmul memwalk pingpong appio; do
	[ -s "$out/$w.cmp.xml" ] || fail "no comparison for $w"
	ls "$out/charts/$w/"*-bar.svg "$out/charts/$w/"*-circle.png > /dev/null || fail "no charts for $w"
	[ -s "$out/charts/$w/index.html" ] || fail "no HTML report for $w"
done
# demo-out/index.html links every workload's report (read by Python's own HTML parser)
python3 - "$out" <<'PY' || fail "demo-out/index.html does not link each workload's report"
import os, sys
from html.parser import HTMLParser
class Links(HTMLParser):
    hrefs = []
    def handle_starttag(self, tag, attrs):
        if tag == "a":
            self.hrefs.append(dict(attrs)["href"])
p = Links()
p.feed(open(os.path.join(sys.argv[1], "index.html")).read())
want = [f"charts/{w}/index.html" for w in ("matmul", "memwalk", "pingpong", "appio")]
assert all(w in p.hrefs for w in want), p.hrefs
assert all(os.path.isfile(os.path.join(sys.argv[1], h)) for h in p.hrefs), p.hrefs
PY
grep -q '\[\.\] multiply$' "$out/matmul.txt" || fail "the matmul comparison does not show multiply"
# matmul is recorded with -g on both sides: the demo drew its differential
# flame graph, with multiply drawn from both sides' stacks
f=$out/charts/matmul/cpu-clock-flame.svg
[ -s "$f" ] || fail "no flame graph of matmul"
python3 - "$f" <<'PY' || fail "the matmul flame graph lacks multiply on both sides"
import sys, xml.etree.ElementTree as ET
g = [e for e in ET.parse(sys.argv[1]).iter("{http://www.w3.org/2000/svg}g")
     if e.get("class") == "vp-frame" and e.get("data-name") == "multiply"]
# a rare path (a sample unwound through another caller) may hold multiply
# on one side only: the main one must be drawn from both
if not any(int(e.get("data-v0")) > 0 and int(e.get("data-v1")) > 0 for e in g):
    sys.exit(f"multiply frames: {[(e.get('data-v0'), e.get('data-v1')) for e in g]}")
PY
# matmul's HTML report holds the same flame graph inline (multiply among its
# frames) and, like every workload's, where the time went
python3 - "$out" <<'PY' || fail "a workload's HTML report lacks its headline or matmul's flame graph"
import os, sys
from html.parser import HTMLParser
class Page(HTMLParser):
    def __init__(self):
        super().__init__()
        self.split = self.flames = 0
        self.names = set()
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.split += tag == "table" and a.get("class") == "split"
        self.flames += tag == "g" and a.get("class") == "vp-flame"
        if tag == "g" and a.get("class") == "vp-frame":
            self.names.add(a.get("data-name"))
for w in ("matmul", "memwalk", "pingpong", "appio"):
    p = Page()
    p.feed(open(os.path.join(sys.argv[1], "charts", w, "index.html"), encoding="utf-8").read())
    assert p.split == 1, f"{w}: {p.split} time split tables"
    if w == "matmul":
        assert p.flames >= 1 and "multiply" in p.names, f"matmul: {p.flames} flame graphs"
PY
grep -q '^# guest vs host: intervals at 95% from the variation between runs (3 and 3 runs)$' "$out/matmul.txt" ||
	fail "the matmul comparison is not judged across 3 runs a side: $(sed -n 1,12p "$out/matmul.txt")"
grep -qE '[0-9.]+x \[[0-9.]+, [0-9.inf]+\] .*\[\.\] multiply$' "$out/matmul.txt" || fail "multiply has no interval"
# The guest's kernel samples were named with its own kallsyms: every [k]
# symbol of the guest's matmul table is in the guest's kallsyms.
python3 - "$out/matmul.cmp.xml" "$g/kallsyms" <<'PY' || fail "guest kernel rows named with symbols the guest kernel does not have"
import sys, xml.etree.ElementTree as ET
names = {l.split()[2] for l in open(sys.argv[2]) if len(l.split()) >= 3}
rows = [r for r in ET.parse(sys.argv[1]).iter("row")
        if r.get("domain") == "k" and int(r.get("guest-samples")) > 0]
bad = [r.get("symbol") for r in rows if r.get("symbol") not in names and r.get("symbol") != "[unknown]"]
sys.exit(1 if bad or not rows else 0)
PY
# The I/O comparison pairs each function 1:1 (same bytes on both sides).
python3 - "$out/appio.cmp.xml" <<'PY' || fail "the I/O comparison does not pair the workload's functions 1:1"
import sys, xml.etree.ElementTree as ET
rows = [r for e in ET.parse(sys.argv[1]).iter("event")
        if e.get("name") in ("syscalls:sys_exit_read", "syscalls:sys_exit_write") for r in e.iter("row")
        if r.get("symbol") in ("write_blocks", "write_records", "read_blocks", "copy_file")]
ok = len(rows) == 5 and all(r.get("host-period") == r.get("guest-period") != "0" for r in rows)
sys.exit(0 if ok else 1)
PY
echo "ok: guest '$grel' under '$ghyp'; I/O bytes per function agree with the workload on both sides"
