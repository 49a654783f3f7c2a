#!/usr/bin/env bash
# vmprof compare with K sides of several runs, on CSV runs written here:
# every side syntax (a directory in name order, LABEL=a,b, an existing path
# whose name holds '=' and ',' is one path), each side's numbers (sums,
# means, mean shares, ratios of means, deltas) against Python's own from the
# runs, the K > 2 CSV layout, the saved XML (schema-valid, read back by chart
# to the same bytes as charting the sides directly), a version 1 saved
# comparison still charted, the warnings about runs that differ, and the
# usage and input errors.
source "$(dirname "$0")/../lib.sh"
cd "$WORK"
python3 - <<'PY'
import csv, os, random
rng = random.Random(18)
os.makedirs("A", exist_ok=True)
os.makedirs("odd=name,dir", exist_ok=True)
def table(path, rows):
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow("event,symbol,dso,domain,samples,period,share".split(","))
        for r in rows:
            w.writerow(list(r) + [0])
def run(mult, drop=None, extra_event=False):
    rows = []
    for sym, base in (("hot", 900), ("warm", 400), ("cold", 90), ("rare", 5)):
        if sym == drop:
            continue
        s = max(1, int(rng.gauss(base * (mult if sym == "hot" else 1), base * 0.05)))
        rows.append(("cpu-clock", sym, "/bin/app", ".", s, s * 1000))
    if extra_event:
        rows.append(("page-faults", "touch", "/bin/app", ".", 3, 3))
    return rows
# A: a directory, names sorted as numbers (run-10 after run-9)
for k in (1, 2, 9, 10):
    table(f"A/run-{k}.csv", run(1.0, drop="rare" if k == 2 else None))
table("A/run-3.csv.old", run(50))          # left out
table("A/.hidden.csv", run(50))            # left out
# B: a list; one run lacks the row "rare", one records page-faults too
table("b1.csv", run(1.5)); table("b2.csv", run(1.5, drop="rare")); table("b3.csv", run(1.5, extra_event=True))
# C: a directory whose name holds '=' and ','
for k in (1, 2):
    table(f"odd=name,dir/c{k}.csv", run(2.0))
PY

"$VMPROF_SAN" compare --top 0 --format csv -o k3.xml A B=b1.csv,b2.csv,b3.csv "odd=name,dir" > k3.csv 2>err ||
	{ cat err; fail "compare of three sides"; }
grep -q "side 'B': 'b1.csv' and 'b3.csv' record different events" err ||
	fail "no warning about runs with different events: $(cat err)"
python3 - <<'PY' || fail "a side's numbers differ from those computed from its runs"
import csv, glob, sys
def load(p):
    t = {}
    for r in csv.DictReader(open(p, newline="")):
        t.setdefault(r["event"], {})[r["symbol"]] = (int(r["samples"]), int(r["period"]))
    return t
sides = {"A": ["A/run-1.csv", "A/run-2.csv", "A/run-9.csv", "A/run-10.csv"],
         "B": ["b1.csv", "b2.csv", "b3.csv"],
         "odd=name,dir": ["odd=name,dir/c1.csv", "odd=name,dir/c2.csv"]}
runs = {k: [load(p) for p in v] for k, v in sides.items()}
def side(label, ev, sym):
    rs = [r[ev] for r in runs[label] if ev in r]        # runs without the event: no data
    s = sum(r.get(sym, (0, 0))[0] for r in rs)
    p = sum(r.get(sym, (0, 0))[1] for r in rs)
    share = sum(r.get(sym, (0, 0))[1] / sum(v[1] for v in r.values()) for r in rs) / len(rs) if rs else 0
    return s, p, share, (p / len(rs) if rs else 0)
rows = list(csv.DictReader(open("k3.csv", newline="")))
assert open("k3.csv").readline().strip() == ("event,symbol,dso,domain,side,base_samples,base_period,"
    "base_share,side_samples,side_period,side_share,ratio,delta,ratio_low,ratio_high,delta_low,"
    "delta_high,p_value,q_value,significant"), "header"
seen, bad = set(), 0
for r in rows:
    ev, sym, lab = r["event"], r["symbol"], r["side"]
    seen.add((ev, sym, lab))
    bs, bp, bsh, bm = side("A", ev, sym)
    ss, sp, ssh, sm = side(lab, ev, sym)
    ok = (int(r["base_samples"]), int(r["base_period"]), int(r["side_samples"]), int(r["side_period"])) == (bs, bp, ss, sp)
    ok &= abs(float(r["base_share"]) - bsh) < 1e-8 and abs(float(r["side_share"]) - ssh) < 1e-8
    ok &= abs(float(r["delta"]) - 100 * (ssh - bsh)) < 1e-5
    if bp and sp:
        ok &= abs(float(r["ratio"]) - sm / bm) < 1e-6 * sm / bm
    else:   # one side lacks the row, or neither has it (a side without the event)
        ok &= r["ratio"] == ("only base" if bp else "only side" if sp else "")
    if not ok:
        bad += 1
        print("mismatch", r, (bs, bp, bsh), (ss, sp, ssh), file=sys.stderr)
want = {("cpu-clock", s, l) for s in ("hot", "warm", "cold", "rare") for l in ("B", "odd=name,dir")}
want |= {("page-faults", "touch", l) for l in ("B", "odd=name,dir")}
if seen != want:
    sys.exit(f"rows: {sorted(seen ^ want)}")
hot = {r["side"]: float(r["ratio"]) for r in rows if r["symbol"] == "hot"}
assert 1.4 < hot["B"] < 1.6 and 1.9 < hot["odd=name,dir"] < 2.1, hot
sys.exit(1 if bad else 0)
PY
xmllint --noout --schema "$TOP/schema/vmprof-comparison.xsd" k3.xml 2>err || { cat err; fail "saved K=3 comparison invalid"; }
expect_eq "runs in the saved comparison" "$(grep -c '<run index="[0-9]*">' k3.xml)" 9
grep -q '<side which="side" index="2" label="odd=name,dir" runs="2">' k3.xml || fail "the third side is not saved whole"

# runs that ran another command are named; another output file is the same command
for n in 1 2 3; do
	case $n in 1) cmd="vmprof record -o r1.data -- ./bench 10" ;; 2) cmd="vmprof record -o r2.data -- ./bench 10" ;;
	3) cmd="vmprof record -o r3.data -- ./bench 20" ;; esac
	cat > x$n.xml <<XML
<vmprof-profile version="1" value="period"><meta cmdline="$cmd" lost-samples="0"/>
<event name="cpu-clock" samples="2" period="20"><row symbol="f" dso="/a" domain="." samples="2" period="20" share="1"/></event>
</vmprof-profile>
XML
done
"$VMPROF" compare -o c.xml A S=x1.xml,x2.xml > /dev/null 2>err || { cat err; fail "compare of XML runs"; }
! grep -q "different commands" err || fail "a run's output file counted as another command: $(cat err)"
"$VMPROF" compare -o c.xml A S=x1.xml,x3.xml > /dev/null 2>err || { cat err; fail "compare of XML runs"; }
grep -q "side 'S': 'x1.xml' and 'x3.xml' ran different commands" err || fail "no warning: $(cat err)"

# the table: every side's label, its runs, K-1 ratio columns
"$VMPROF" compare -o t.xml A B=b1.csv,b2.csv,b3.csv "odd=name,dir" > k3.txt 2>/dev/null
grep -q "^# vmprof compare: A = 'A' (4 runs), B = 'B=b1.csv,b2.csv,b3.csv' (3 runs), odd=name,dir = 'odd=name,dir' (2 runs)$" k3.txt ||
	fail "heading: $(head -1 k3.txt)"
grep -q "^# side 3 odd=name,dir: 2 runs, per run" k3.txt || fail "no per-run totals of the third side"
expect_eq "ratio columns" "$(grep -m1 'Samples' k3.txt | grep -o Ratio | wc -l)" 2

# the chart of the saved comparison is the chart of the sides
"$VMPROF" chart --format svg,png -o saved k3.xml 2>/dev/null || fail "chart of the saved K=3 comparison"
"$VMPROF_SAN" chart --format svg,png -o direct A B=b1.csv,b2.csv,b3.csv "odd=name,dir" 2>/dev/null ||
	fail "chart of three sides"
for f in saved/*; do cmp -s "$f" "direct/${f##*/}" || fail "${f##*/}: saved and direct charts differ"; done
grep -q "showing the first 2 of 3 sides" saved/cpu-clock-bar.svg || fail "the chart does not say it draws 2 of 3 sides"
"$VMPROF" chart --labels x,y,z -o relabelled k3.xml 2>/dev/null || fail "--labels x,y,z on a saved comparison"
expect_status 1 "$VMPROF" chart --labels x,y -o none k3.xml
grep -q "2 names for the comparison's 3 sides" "$WORK/err" || fail "label count: $(cat "$WORK/err")"

# two sides of several runs, saved and read back: the same CSV as the direct one
"$VMPROF" compare --top 0 --format csv -o ab.xml A B=b1.csv,b2.csv,b3.csv > ab.csv 2>/dev/null
"$VMPROF" compare --top 0 --format csv --labels A,B -o ab2.xml A b1.csv,b2.csv,b3.csv > ab2.csv 2>/dev/null
cmp -s ab.csv ab2.csv || fail "a list without a label compares differently"
head -1 ab.csv | grep -q "^event,symbol,dso,domain,host_samples,host_period,host_share,guest_samples,guest_period,guest_share,ratio,delta,ratio_low,ratio_high,q_value,significant" ||
	fail "two sides of runs: not the two-side CSV"

# a version 1 saved comparison (before runs) still charts
cat > v1.xml <<'XML'
<?xml version="1.0" encoding="UTF-8"?>
<vmprof-comparison version="1" key="sym" value="period" rank="max">
  <side which="host" label="bare"><meta hostname="h" lost-samples="0"/></side>
  <side which="guest" label="vm"><meta hypervisor="KVM" lost-samples="0"/></side>
  <event name="cpu-clock" host-name="cpu-clock" host-samples="30" host-period="300" guest-name="cpu-clock" guest-samples="40" guest-period="400" rows="2">
    <row symbol="f" dso="/a" domain="." host-samples="20" host-period="200" guest-samples="10" guest-period="100" ratio="0.5" delta="-41.666667"/>
    <row symbol="g" dso="/a" domain="." host-samples="10" host-period="100" guest-samples="30" guest-period="300" ratio="3.0" delta="41.666667"/>
  </event>
</vmprof-comparison>
XML
"$VMPROF_SAN" chart --format svg -o v1 v1.xml 2>err || { cat err; fail "a version 1 saved comparison"; }
grep -q "3.0×" v1/cpu-clock-bar.svg || fail "version 1 ratio not drawn"

# syntax and input errors
expect_status 2 "$VMPROF" compare --labels a,b A B=b1.csv "odd=name,dir"
grep -q "2 names for 3 sides" "$WORK/err" || fail "--labels count: $(cat "$WORK/err")"
expect_status 2 "$VMPROF" compare A
expect_status 1 "$VMPROF_SAN" compare -o x.xml A B=b1.csv,,b2.csv
grep -q "an empty name in the list" "$WORK/err" || fail "empty list item: $(cat "$WORK/err")"
expect_status 1 "$VMPROF_SAN" compare -o x.xml A B=
grep -q "no inputs after '='" "$WORK/err" || fail "empty side: $(cat "$WORK/err")"
mkdir empty
expect_status 1 "$VMPROF_SAN" compare -o x.xml A empty
grep -q "'empty': no recordings in the directory" "$WORK/err" || fail "empty directory: $(cat "$WORK/err")"
expect_status 1 "$VMPROF_SAN" compare -o x.xml A B=b1.csv,missing.csv
grep -q "'missing.csv': cannot open" "$WORK/err" || fail "missing run not named: $(cat "$WORK/err")"
[ ! -e x.xml ] || fail "a failed compare saved a comparison"
echo ok
