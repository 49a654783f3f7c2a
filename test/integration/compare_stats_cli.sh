#!/usr/bin/env bash
# The statistics vmprof compare prints, through the command line, equal an
# independent implementation with scipy (test/stats_oracle.py) to 1e-9
# relative: per-run CSV tables written here from a seeded generator (rows
# absent in some runs, a run without one event, one-run sides, periods not
# proportional to samples), compared as A=...,... B=...; checked are the
# two-side CSV's ratio, ratio_low, ratio_high, q_value and significant, the
# K = 3 layout's every statistic per side, the XML's noise floor, --value
# samples and --alpha. The join is the oracle's own (every row of any run).
# The ratio and delta columns are the comparison's own numbers (ratio of
# means, difference of mean shares) computed here from the runs, printed to
# 6 decimals; with a one-run side the delta's interval is the oracle's about
# the pooled shares (STATISTICS).
source "$(dirname "$0")/../lib.sh"
cd "$WORK"
py=
for p in python3 /usr/bin/python3; do
	if "$p" -c 'import numpy, scipy' 2>/dev/null; then py=$p; break; fi
done
[ -n "$py" ] || fail "no python3 with numpy and scipy (scripts/deps.sh installs them)"

"$py" - <<'PY'
import csv, json, random
rng = random.Random(1813)
syms = [f"fn_{i:02d}" for i in range(24)]
weights = {s: rng.choice([2, 5, 20, 80, 400, 2000]) for s in syms}
weights.update(fn_03=400, fn_07=400, fn_11=2000)     # the planted differences
def write_run(path, mult, drop_event=False):
    rows = []
    for ev in ("cpu-clock", "page-faults"):
        if drop_event and ev == "page-faults":
            continue
        for s in syms:
            lam = weights[s] * mult.get(s, 1.0) * rng.uniform(0.8, 1.2)
            if ev == "page-faults":
                lam /= 10
            if weights[s] <= 20 and rng.random() < 0.3:     # absent in this run
                continue
            n = max(0, int(rng.gauss(lam, lam ** 0.5)))
            if n == 0:
                continue
            period = sum(rng.choice([1000, 1000, 2000, 5000]) for _ in range(n))
            rows.append((ev, s, "/bin/app", ".", n, period))
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow("event,symbol,dso,domain,samples,period,share".split(","))
        for r in rows:
            w.writerow(list(r) + [0])
sides = {"A": (5, {}), "B": (4, {"fn_03": 1.6, "fn_07": 0.5, "fn_11": 3.0}),
         "C": (1, {"fn_03": 2.0}), "D": (1, {"fn_05": 1.4})}
files = {}
for lab, (n, mult) in sides.items():
    files[lab] = []
    for k in range(n):
        p = f"{lab}{k + 1}.csv"
        write_run(p, mult, drop_event=(lab == "B" and k == 2))
        files[lab].append(p)
json.dump(files, open("files.json", "w"))
PY
side() { "$py" -c "import json; f = json.load(open('files.json')); print('$1=' + ','.join(f['$1']))"; }
A=$(side A) B=$(side B) C=$(side C) D=$(side D)

"$VMPROF_SAN" compare --top 0 --format csv -o ab.xml "$A" "$B" > ab.csv 2>err || { cat err; fail "compare A B"; }
"$VMPROF" compare --top 0 --format csv -o abs.xml --value samples --alpha 0.1 "$A" "$B" > ab_samples.csv 2>/dev/null ||
	fail "compare --value samples --alpha 0.1"
"$VMPROF" compare --top 0 --format csv -o cd.xml "$C" "$D" > cd.csv 2>/dev/null || fail "compare C D (one run each)"
"$VMPROF" compare --top 0 --format csv -o ac.xml "$A" "$C" > ac.csv 2>/dev/null || fail "compare A C"
"$VMPROF_SAN" compare --top 0 --format csv -o abc.xml "$A" "$B" "$C" > abc.csv 2>err || { cat err; fail "compare A B C"; }

"$py" -W ignore - "$TOP/test" <<'PY' || fail "statistics differ from the scipy oracle"
import csv, json, math, sys
sys.path.insert(0, sys.argv[1])
from stats_oracle import Side, event, aa_floor, close, _scale
import xml.etree.ElementTree as ET

files = json.load(open("files.json"))
def load(p):
    t = {}
    for r in csv.DictReader(open(p, newline="")):
        t.setdefault(r["event"], {})[r["symbol"]] = (int(r["samples"]), int(r["period"]))
    return t
runs = {lab: [load(p) for p in ps] for lab, ps in files.items()}

def oracle(labels, ev, value, alpha):
    """Per row of the join (every row of any run of these sides), per side
    after the first: the oracle's result."""
    keys = sorted({s for lab in labels for r in runs[lab] for s in r.get(ev, {})})
    def side_rows(lab):
        rs = [r[ev] for r in runs[lab] if ev in r]     # runs without the event are no data
        out = []
        for k in keys:
            x = [r.get(k, (0, 0)) for r in rs]
            v = [c if value == "samples" else p for c, p in x]
            tot = [sum((c if value == "samples" else p) for c, p in r.values()) for r in rs]
            out.append(Side(v, [c for c, _ in x], tot, [sum(c for c, _ in r.values()) for r in rs]))
        return out
    base = side_rows(labels[0])
    res = {lab: dict(zip(keys, event(base, side_rows(lab), alpha))) for lab in labels[1:]}
    for lab in labels[1:]:      # the comparison's own delta: of the mean shares
        for k, b, s in zip(keys, base, side_rows(lab)):
            res[lab][k]["mean_delta"] = 100 * (s.shares().mean() - b.shares().mean())
    return keys, res, aa_floor(base, alpha)

def num(s):
    return float(s.replace("INF", "inf"))

bad = checked = 0
def check(what, got, want, scale=0.0):
    global bad, checked
    checked += 1
    ok = close(num(got), want, scale) if isinstance(want, float) else got == want
    if not ok:
        bad += 1
        if bad <= 20:
            print(f"{what}: got {got!r} want {want!r}")

def two_sides(path, labels, value="period", alpha=0.05):
    rows = list(csv.DictReader(open(path, newline="")))
    for ev in ("cpu-clock", "page-faults"):
        keys, res, _ = oracle(labels, ev, value, alpha)
        got = {r["symbol"]: r for r in rows if r["event"] == ev}
        assert set(got) == set(keys), (path, ev, sorted(set(got) ^ set(keys)))
        for k in keys:
            w, g = res[labels[1]][k], got[k]
            rs = _scale(w["ratio"], w["lo"], w["hi"])
            tag = f"{path} {ev} {k}"
            if math.isfinite(w["ratio"]) and w["ratio"] > 0:
                check(tag + " ratio", abs(float(g["ratio"]) - w["ratio"]) <= 1e-6 * max(1, w["ratio"]), True)
            check(tag + " delta", abs(float(g["delta"]) - w["mean_delta"]) <= 1e-6, True)
            check(tag + " ratio_low", g["ratio_low"], float(w["lo"]), rs)
            check(tag + " ratio_high", g["ratio_high"], float(w["hi"]), rs)
            check(tag + " q_value", g["q_value"], float(w["q"]))
            check(tag + " significant", int(g["significant"]), w["significant"])

two_sides("ab.csv", ["A", "B"])
two_sides("ab_samples.csv", ["A", "B"], "samples", 0.1)
two_sides("cd.csv", ["C", "D"])
two_sides("ac.csv", ["A", "C"])

# K = 3: one line per row and side, every statistic
rows = list(csv.DictReader(open("abc.csv", newline="")))
for ev in ("cpu-clock", "page-faults"):
    keys, res, floor = oracle(["A", "B", "C"], ev, "period", 0.05)
    for lab in ("B", "C"):
        got = {r["symbol"]: r for r in rows if r["event"] == ev and r["side"] == lab}
        assert set(got) == set(keys), ("abc", ev, lab, sorted(set(got) ^ set(keys)))
        for k in keys:
            w, g = res[lab][k], got[k]
            rs, ds = _scale(w["ratio"], w["lo"], w["hi"]), _scale(w["delta"], w["dlo"], w["dhi"])
            tag = f"abc {ev} {lab} {k}"
            check(tag + " ratio_low", g["ratio_low"], float(w["lo"]), rs)
            check(tag + " ratio_high", g["ratio_high"], float(w["hi"]), rs)
            check(tag + " delta", abs(float(g["delta"]) - w["mean_delta"]) <= 1e-6 * max(1, abs(w["delta"])), True)
            check(tag + " delta_low", g["delta_low"], float(w["dlo"]), ds)
            check(tag + " delta_high", g["delta_high"], float(w["dhi"]), ds)
            check(tag + " p_value", g["p_value"], float(w["p"]))
            check(tag + " q_value", g["q_value"], float(w["q"]))
            check(tag + " significant", int(g["significant"]), w["significant"])
    # the noise floor of A's 5 runs, as the saved comparison says it
    for x in ("ab.xml", "abc.xml"):
        e = [e for e in ET.parse(x).getroot().findall("event") if e.get("name") == ev][0]
        check(f"{x} {ev} noise-floor", int(e.get("noise-floor")), floor)
# the planted differences are found on runs: fn_11 (3x) and fn_07 (0.5x) for B
b = {r["symbol"]: r for r in csv.DictReader(open("ab.csv", newline="")) if r["event"] == "cpu-clock"}
assert b["fn_11"]["significant"] == "1" and b["fn_07"]["significant"] == "1", (b["fn_11"], b["fn_07"])
print(f"{checked} numbers checked, {bad} disagree")
sys.exit(1 if bad else 0)
PY

# the table says how the intervals were made
"$VMPROF" compare -o t.xml "$A" "$B" > ab.txt 2>/dev/null
grep -q "^# B vs A: intervals at 95% from the variation between runs (4 and 5 runs)$" ab.txt ||
	fail "no basis line: $(sed -n 1,12p ab.txt)"
grep -q "^# Noise floor: A's runs split 2 against 3 flag [0-9]* of [0-9]* rows" ab.txt || fail "no noise floor line"
"$VMPROF" compare -o t.xml "$C" "$D" > cd.txt 2>/dev/null
grep -q "^# D vs C: intervals at 95% from sampling noise alone (1 and 1 run): run-to-run variation unmeasured$" cd.txt ||
	fail "one-run sides do not say run-to-run variation is unmeasured"
expect_status 2 "$VMPROF" compare --alpha 0 "$A" "$B"
expect_status 2 "$VMPROF" compare --alpha x "$A" "$B"
echo ok
