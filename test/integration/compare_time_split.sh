#!/usr/bin/env bash
# Where the time went, compared: two recordings of a program that runs one
# thread at a time (test/workloads/blocking.c, 3 and 6 rounds of known
# sleeps, a pipe wait and computing). The split of the wall-time gap
# (compare --time-split --format csv) must hold each part as the difference of
# the two recordings' own numbers (report --header), its parts must add up
# to the gap within the documented tolerance (2% of the longer wall time
# plus 21 ms: steal counts in 10 ms ticks; the split's steal is the part of
# it on the CPUs the threads ran on, while they ran), and the waterfall's steps must
# be those numbers: each bar of charts/time-waterfall.svg, read back from
# its geometry on the chart's own scale (the baseline's bar), is its part,
# starting where the one before ended; the headline's text table says the
# same. Inputs without a wall time are refused with the file's name.
source "$(dirname "$0")/../lib.sh"
need_perf
need_tracefs sched
cd "$WORK"
gcc -O1 -g -fno-omit-frame-pointer -pthread -o blocking "$TOP/test/workloads/blocking.c"
"$VMPROF_SAN" record -e cpu-clock --label fast -o fast.data -- ./blocking 3 > /dev/null 2>&1 || fail "record fast"
"$VMPROF_SAN" record -e cpu-clock --label slow -o slow.data -- ./blocking 6 > /dev/null 2>&1 || fail "record slow"
for f in fast slow; do "$VMPROF_SAN" report --header $f.data > $f.header || fail "header $f"; done
"$VMPROF_SAN" compare --time-split --format csv -o c.xml fast.data slow.data > split.csv 2> err ||
	{ cat err; fail "compare --time-split"; }
"$VMPROF_SAN" compare -o c.xml fast.data slow.data > table.txt 2> err || { cat err; fail "compare"; }
"$VMPROF_SAN" chart --kind waterfall --format svg,png,pdf,eps -o charts c.xml > /dev/null 2> err ||
	{ cat err; fail "chart"; }
for ext in svg png pdf eps; do [ -s charts/time-waterfall.$ext ] || fail "no time-waterfall.$ext"; done
python3 - <<'PY' || fail "the split"
import csv, re, xml.etree.ElementTree as ET
def header(path):
    out = {}
    for line in open(path):
        m = re.match(r"^# ([a-z ]+?)\s*: (-?[\d.]+) s", line)
        if m:
            out[m.group(1)] = float(m.group(2))
    return out
base, side = header("fast.header"), header("slow.header")
rows = {r["part"]: r for r in csv.DictReader(open("split.csv"))}
source = {"wall": "wall time", "user": "user time", "system": "system time", "steal": "steal running",
          "waiting": "wall waiting", "blocked": "wall blocked"}
for part, key in source.items():
    r = rows[part]
    assert r["measured"] == "1", f"{part} not measured"
    tol = 2e-6  # the header prints 6 decimals
    for col, hdr in (("baseline", base), ("value", side)):
        assert abs(float(r[col]) - hdr[key]) <= tol, f"{part} {col}: {r[col]} vs header {hdr[key]}"
    assert abs(float(r["delta"]) - (float(r["value"]) - float(r["baseline"]))) <= 2e-6, part
gap = float(rows["wall"]["delta"])
parts = sum(float(rows[p]["delta"]) for p in ("user", "system", "steal", "waiting", "blocked"))
tol = 0.02 * max(base["wall time"], side["wall time"]) + 0.021
print(f"gap {gap:.6f} s, parts {parts:.6f} s, remainder {float(rows['remainder']['delta']):+.6f} s (±{tol:.3f})")
assert gap > 0.3, f"the gap is {gap} s: the slow run should take 3 rounds (420 ms) more"
assert abs(parts - gap) <= tol, "the parts do not add up to the gap"
assert abs(parts + float(rows["remainder"]["delta"]) - gap) <= 2e-6, "the remainder is not what is left"
for p in ("user", "waiting", "blocked", "remainder"):
    share = float(rows[p]["gap_share"])
    assert abs(share - float(rows[p]["delta"]) / gap) <= 1e-5, f"{p}: share {share}"

# the waterfall: bars in order, their geometry on the baseline bar's scale
svg = ET.parse("charts/time-waterfall.svg").getroot()
bars = [(float(e.get("x")), float(e.get("width")), float(e.get("data-value")),
         "".join(c.text or "" for c in e if c.tag.endswith("title")))
        for e in svg.iter() if e.tag.endswith("rect") and e.get("class") == "bar"]
order = ["wall", "user", "system", "steal", "waiting", "blocked", "remainder", "wall"]
assert len(bars) == len(order), f"{len(bars)} bars: {[b[3] for b in bars]}"
x0, scale = bars[0][0], bars[0][1] / float(rows["wall"]["baseline"])  # px per second
at = float(rows["wall"]["baseline"])
for i, (x, w, value, title) in enumerate(bars):
    part = order[i]
    if i == 0 or i == len(bars) - 1:
        want = float(rows["wall"]["value" if i else "baseline"])
        assert abs(x - x0) < 0.002, f"{title}: a wall bar starts at {x}, not at zero ({x0})"
        assert abs(w / scale - want) <= 0.002 / scale, f"{title}: {w / scale} s drawn, {want} s"
        continue
    d = float(rows[part]["delta"])
    start, end = sorted((at, at + d))
    assert abs(x - (x0 + start * scale)) <= 0.002 + 1e-9 * scale, f"{title}: starts at {x}, not where the last ended"
    assert abs(w / scale - abs(d)) <= 0.002 / scale, f"{title}: {w / scale:.6f} s drawn, the split says {d}"
    assert abs(value / 1e9 - d) <= 1e-6, f"{title}: value {value} ns, the split says {d} s"
    assert rows[part]["name"] in title, f"bar '{title}' is not {rows[part]['name']}"
    at += d
assert abs(at - float(rows["wall"]["value"])) <= 1e-5, "the steps do not end at the slow run's wall time"

# the headline in compare's text output: the same parts, in the same order
text = open("table.txt").read()
assert text.startswith("# Where the time went: slow against fast"), text[:80]
names = re.findall(r"^#   (\S.*?)\s{2,}\S", text, re.M)
assert names[:len(order) - 1] == [rows[p]["name"] for p in order[:-1]], names
print(f"ok: {len(bars)} waterfall bars equal the split")
PY
# several runs a side: each part is the difference of the runs' means, with
# a 95% interval around it; a third side gets its own split
"$VMPROF_SAN" record -e cpu-clock -r 3 -o fast.runs -- ./blocking 3 > /dev/null 2>&1 || fail "record fast runs"
"$VMPROF_SAN" record -e cpu-clock -r 3 -o slow.runs -- ./blocking 6 > /dev/null 2>&1 || fail "record slow runs"
mkdir headers	# not in the runs' directories: every file there is a run
for f in fast.runs/run-*.data slow.runs/run-*.data; do
	"$VMPROF_SAN" report --header "$f" > "headers/${f%%.*}-$(basename "$f").header" || fail "header $f"
done
"$VMPROF_SAN" compare --time-split --format csv -o r.xml fast.runs slow.runs slow.data > runs.csv 2> err ||
	{ cat err; fail "compare --time-split of runs"; }
python3 - <<'PY' || fail "the split across runs"
import csv, glob, re
def header(path):
    return {m.group(1): float(m.group(2)) for m in
            (re.match(r"^# ([a-z ]+?)\s*: (-?[\d.]+) s", l) for l in open(path)) if m}
def mean(side, key):
    v = [header(f)[key] for f in sorted(glob.glob(f"headers/{side}-run-*.data.header"))]
    assert len(v) == 3, v
    return sum(v) / 3
rows = list(csv.DictReader(open("runs.csv")))
sides = [r["side"] for r in rows if r["part"] == "wall"]	# in the order given
assert len(sides) == 2 and len(set(sides)) == 2, sides
by = {(r["side"], r["part"]): r for r in rows}
runs_side = sides[0]
for part, key in (("wall", "wall time"), ("user", "user time"), ("blocked", "wall blocked")):
    r = by[(runs_side, part)]
    assert abs(float(r["baseline"]) - mean("fast", key)) <= 2e-6, (part, r["baseline"], mean("fast", key))
    assert abs(float(r["value"]) - mean("slow", key)) <= 2e-6, (part, r["value"], mean("slow", key))
    lo, hi, d = float(r["delta_lo"]), float(r["delta_hi"]), float(r["delta"])
    assert lo <= d <= hi, (part, lo, d, hi)
# the one-run side against three runs: no interval
one = [r for r in rows if r["side"] != runs_side]
assert one and all(r["delta_lo"] == "" for r in one), one[:1]
print(f"ok: sides {sides}, intervals on the runs' side, none on the one-run side")
PY
"$VMPROF_SAN" compare -o r.xml fast.runs slow.runs slow.data > runs.txt 2> /dev/null || fail "compare of runs"
[ "$(grep -c '^# Where the time went: ' runs.txt)" -eq 2 ] || fail "not one headline per side: $(head -30 runs.txt)"
grep -q "95% interval of the difference" runs.txt || fail "the headline of runs shows no interval"

# perf's own recordings know no wall time: a clear refusal
perf record -q -e cpu-clock -o perf.data -- ./blocking 1 > /dev/null 2>&1 || fail "perf record"
expect_status 1 "$VMPROF_SAN" compare --time-split -o c2.xml fast.data perf.data
grep -q "'perf.data': no wall time" "$WORK/err" || fail "refusal does not name the file: $(cat "$WORK/err")"
echo ok
