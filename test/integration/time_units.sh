#!/usr/bin/env bash
# Time events show their periods as time: every period of cpu-clock in
# report's and compare's tables and on the bar chart (labels, legend, axis)
# reads back, value times unit, as perf's own integer period for that
# function within the last digit shown, with one to three digits before the
# point; page-faults stays a count; CSV keeps perf's exact integers.
source "$(dirname "$0")/../lib.sh"
need_perf
cd "$WORK"
gcc -O1 -g -fno-omit-frame-pointer -o weights "$TOP/test/workloads/weights.c"
"$VMPROF" record -o w.data -e cpu-clock,page-faults -- ./weights 3000000 20 20 20 2>/dev/null ||
	fail "record"
perf report -i w.data --stdio --no-children --sort dso,sym -F period,dso,sym -t $'\x1f' 2>/dev/null > perf.txt ||
	fail "perf report"
"$VMPROF_SAN" report w.data > table.txt || fail "report"
"$VMPROF_SAN" report --format csv --top 0 w.data > table.csv || fail "report csv"
cp w.data w2.data
"$VMPROF_SAN" compare -o cmp.xml w.data w2.data > cmp.txt || fail "compare"
"$VMPROF_SAN" chart --scale linear --format svg -o charts cmp.xml > /dev/null || fail "chart"
python3 - "$TOP/test" <<'PY' || fail "periods shown as time do not read back as perf's"
import csv, re, sys, xml.etree.ElementTree as ET
sys.path.insert(0, sys.argv[1])
from perf_agree import csv_symbol
UNIT = {"ns": 1, "us": 1e3, "µs": 1e3, "ms": 1e6, "s": 1e9}
TIME = re.compile(r"^(-?\d+(?:\.(\d+))?) (ns|us|µs|ms|s)$")

def readback(text, want, what):
    """text reads as want nanoseconds: within half its last digit, 1-3 digits before the point"""
    m = TIME.match(text)
    assert m, f"{what}: {text!r} is not a time"
    whole = m.group(1).lstrip("-").split(".")[0]
    assert 1 <= len(whole) <= 3 or m.group(3) == "s", f"{what}: {text!r}: {len(whole)} digits before the point"
    step = 10 ** -len(m.group(2) or "") * UNIT[m.group(3)]
    assert abs(float(m.group(1)) * UNIT[m.group(3)] - want) <= step / 2 + 1e-6 * want, \
        f"{what}: {text!r} is not {want} ns"

perf, event = {}, None
for line in open("perf.txt"):
    m = re.match(r"^# Samples: .* of event '(.*)'", line)
    if m:
        event = m.group(1)
    elif line.strip() and not line.startswith("#"):
        period, dso, sym = line.rstrip("\n").split("\x1f")
        key = (event, dso.strip(), sym.strip()[4:])
        perf[key] = perf.get(key, 0) + int(period)
assert any(e == "cpu-clock" for e, _, _ in perf), "perf shows no cpu-clock rows"
# CSV: the exact integers (objects by their short name, as perf shows them)
rows = {}
for r in csv.DictReader(open("table.csv")):
    key = (r["event"], r["dso"] if r["dso"].startswith("[") else r["dso"].rsplit("/", 1)[-1],
           csv_symbol(r["symbol"]))
    rows[key] = rows.get(key, 0) + int(r["period"])
for key, p in perf.items():
    if not re.match(r"^0x[0-9a-f]+$", key[2]):  # perf's unresolved addresses: vmprof's [unknown]
        assert rows.get(key) == p, f"CSV {key}: {rows.get(key)} != perf {p}"
# rows by symbol alone where one object has it (the text tables' check)
by_sym = {}
for (e, d, sym), p in perf.items():
    by_sym.setdefault((e, sym), []).append(p)
perf = {k: v[0] for k, v in by_sym.items() if len(v) == 1}
# report's table
n = 0
event = None
for line in open("table.txt"):
    m = re.match(r"^# Event '(.*)'", line)
    if m:
        event = m.group(1)
        continue
    m = re.match(r"^\s+[\d.]+%\s+\d+\s+(\S+(?: (?:ns|us|ms|s))?)\s+\S+\s+\[.\] (\S+)\s*$", line)
    if not m or (event, m.group(2)) not in perf:
        continue
    if event == "cpu-clock":
        readback(m.group(1), perf[(event, m.group(2))], f"report {m.group(2)}")
    else:
        assert m.group(1) == str(perf[(event, m.group(2))]), f"page-faults {m.group(2)}: {m.group(1)}"
    n += 1
assert n >= 4, f"only {n} report rows checked"
# compare's table: both sides' period columns
event, n = None, 0
for line in open("cmp.txt"):
    m = re.match(r"^# Event '(.*)'", line)
    if m:
        event = m.group(1)
    m = re.match(r"^\s+\d+\s+([\d.]+ \w+)\s+[\d.]+%\s+\d+\s+([\d.]+ \w+)\s+[\d.]+%.*\[.\] (\S+)$", line)
    if m and event == "cpu-clock" and (event, m.group(3)) in perf:
        for g in (1, 2):
            readback(m.group(g), perf[(event, m.group(3))], f"compare {m.group(3)}")
        n += 1
assert n >= 3, f"only {n} compare rows checked"
# the bar chart: each bar's label, and the legend's totals
svg = ET.parse("charts/cpu-clock-bar.svg").getroot()
texts = [e.text or "" for e in svg.iter() if e.tag.endswith("}text")]
# the bars' tooltips (whiskers carry the same ones)
titles = [t.text or "" for e in svg.iter() if e.get("class") == "bar" for t in e if t.tag.endswith("}title")]
labels = [t.split(" (")[0] for t in texts if re.match(r"^[\d.]+ \S+ \(", t)]
values = [int(re.search(r"period (\d+)", t).group(1)) for t in titles if "period " in t]
assert labels and len(labels) == len(values), f"{len(labels)} labels for {len(values)} bars"
for text, v in zip(labels, values):
    readback(text, v, "bar label")
total = sum(p for (e, _), p in perf.items() if e == "cpu-clock")
legend = [t for t in texts if re.match(r"^w.data: [\d.]+ \S+$", t)]
assert legend, "no legend"
readback(legend[0][len("w.data: "):], total, "legend")
ticks = [t for t in texts if re.match(r"^\d+(\.\d+)? (ms|s|µs)$", t)]
assert len(ticks) >= 2, f"axis ticks without time units: {texts}"
print(f"ok: {len(labels)} bar labels, report and compare rows read back as perf's periods")
PY
echo ok
