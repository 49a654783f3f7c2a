#!/usr/bin/env bash
# vmprof compare on hand-made tables whose join is obvious: a symbol on one
# side only, an event on one side only, disjoint events, an empty table, dso
# joined by base name, ranking and --top, labels in the heads; values checked
# by Python's csv module against the inputs. Malformed inputs fail naming the
# file and leave no saved comparison.
source "$(dirname "$0")/../lib.sh"
cd "$WORK"
python3 - <<'PY'
import csv
H = [("cpu-clock", "both", "/usr/lib/x86_64-linux-gnu/libc.so.6", ".", 10, 100),
     ("cpu-clock", "host_only", "/usr/bin/app", ".", 5, 50),
     ("cpu-clock", "std::map<int, int>::find(int const&)", "/usr/bin/app", ".", 4, 40),
     ("cpu-clock", "kfunc", "[kernel.kallsyms]", "k", 1, 10),
     ("task-clock", "t", "/usr/bin/app", ".", 3, 30)]
G = [("cpu-clock", "both", "/lib64/libc.so.6", ".", 20, 400),
     ("cpu-clock", "guest_only", "/opt/app", ".", 2, 20),
     ("cpu-clock", "std::map<int, int>::find(int const&)", "/opt/other", ".", 8, 15),
     ("cpu-clock", "=cmd|' /C calc'!A0", "/opt/app", ".", 1, 1),
     ("page-faults", "pf", "/opt/app", ".", 7, 7)]
for name, rows in (("host.csv", H), ("guest.csv", G)):
    with open(name, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow("event,symbol,dso,domain,samples,period,share".split(","))
        for r in rows:
            w.writerow(list(r) + [0])
PY

"$VMPROF_SAN" compare --top 0 --full-names --format csv -o saved.xml host.csv guest.csv > cmp.csv 2>err ||
	{ cat err; fail "compare of two CSV tables"; }
[ -s saved.xml ] || fail "no saved comparison"
xmllint --noout --schema "$TOP/schema/vmprof-comparison.xsd" saved.xml 2>err || { cat err; fail "saved comparison invalid"; }
python3 - "$TOP/test" <<'PY' || fail "the join differs from the one computed from the inputs"
import csv, sys
from collections import defaultdict
sys.path.insert(0, sys.argv[1])
from perf_agree import csv_symbol
def load(p):
    t = defaultdict(dict)
    for r in csv.DictReader(open(p, newline="")):
        t[r["event"]][r["symbol"]] = (int(r["samples"]), int(r["period"]))
    return t
h, g = load("host.csv"), load("guest.csv")
got = {}
for r in csv.DictReader(open("cmp.csv", newline="")):
    s = csv_symbol(r["symbol"])
    for v in ("ratio", "delta", "host_share", "guest_share"):
        if r[v].lower() in ("inf", "-inf", "nan"):
            sys.exit(f"{v} is {r[v]} for {s}")
    got[(r["event"], s)] = r
want = {(e, s) for e in set(h) | set(g) for s in set(h.get(e, {})) | set(g.get(e, {}))}
if set(got) != want:
    sys.exit(f"rows: {sorted(set(got) ^ want)}")
bad = 0
for (e, s), r in got.items():
    hs, hp = h.get(e, {}).get(s, (0, 0))
    gs, gp = g.get(e, {}).get(s, (0, 0))
    ht = sum(p for _, p in h.get(e, {}).values())
    gt = sum(p for _, p in g.get(e, {}).values())
    hsh, gsh = (hp / ht if ht else 0), (gp / gt if gt else 0)
    ok = (int(r["host_samples"]), int(r["host_period"]), int(r["guest_samples"]), int(r["guest_period"])) == (hs, hp, gs, gp)
    ok &= abs(float(r["host_share"]) - hsh) < 1e-6 and abs(float(r["guest_share"]) - gsh) < 1e-6
    ok &= abs(float(r["delta"]) - 100 * (gsh - hsh)) < 1e-4
    if hp and gp:
        ok &= abs(float(r["ratio"]) - gp / hp) < 1e-4 * gp / hp
    else:
        ok &= r["ratio"] == ("only host" if hp else "only guest")
    if not ok:
        bad += 1
        print("mismatch", e, s, dict(r))
sys.exit(1 if bad else 0)
PY

# The table: labels in the heads, one-sided rows and events said plainly.
"$VMPROF" compare --labels bare,vm -o t.xml host.csv guest.csv > table.txt 2>/dev/null || fail "table"
grep -q "^# bare  *vm  *$" table.txt || fail "labels not in the column heads: $(sed -n 7,8p table.txt)"
grep -q "only host \[.*\[.\] host_only$" table.txt || fail "no 'only host' row"
grep -q "only guest \[.*\[.\] guest_only$" table.txt || fail "no 'only guest' row"
grep -q "^# Event 'task-clock': only in bare$" table.txt || fail "host-only event not said"
grep -q "^# Event 'page-faults': only in vm$" table.txt || fail "guest-only event not said"
grep -q " 0.38x .*std::map<int, int>::find$" table.txt || fail "C++ name with a comma did not join"
# no ratio or delta from a division by zero (an interval may be unbounded: [x, inf])
! sed 's/\[[-+0-9.inf]*, [-+0-9.inf]*\]//g' table.txt | grep -qiE "inf|nan" || fail "inf or nan in the table"
# default labels: the inputs' base names
"$VMPROF" compare -o t.xml host.csv guest.csv 2>/dev/null | grep -q "^# host.csv  *guest.csv  *$" ||
	fail "file names are not the default labels"

# Ranking and --top: guest period order, cut to 2, says so.
"$VMPROF" compare --top 2 --sort guest -e cpu-clock -o t.xml host.csv guest.csv > top.txt 2>/dev/null
expect_eq "rows shown" "$(grep -c '\[[.k]\] ' top.txt)" 2
grep -q "Rows: 2 of 6, ranked by guest period" top.txt || fail "no 'Rows: 2 of 6': $(grep Rows top.txt)"
expect_eq "first by guest period" "$(grep -m1 '\[.\] ' top.txt | sed 's/.*\[.\] //')" "both"
# by guest period: both 400, guest_only 20, find 15; by guest samples: both 20, find 8
"$VMPROF" compare --top 2 --sort guest -e cpu-clock -o t.xml host.csv guest.csv 2>/dev/null |
	tail -n 2 | grep -q "\[.\] guest_only$" || fail "--sort guest does not rank by guest period"
"$VMPROF" compare --top 2 --sort guest --value samples -e cpu-clock -o t.xml host.csv guest.csv 2>/dev/null |
	tail -n 2 | grep -q "\[.\] std::map<int, int>::find$" || fail "--value samples does not rank by samples"
grep -c '<row ' t.xml | grep -qx 6 || fail "the saved comparison was cut by --top"

# --key sym,dso: libc meets libc by base name; find in app and in other stay apart.
"$VMPROF" compare --top 0 --key sym,dso --format csv -o t.xml host.csv guest.csv > k.csv 2>/dev/null
python3 - <<'PY' || fail "--key sym,dso joined wrongly"
import csv, sys
rows = [r for r in csv.DictReader(open("k.csv", newline="")) if r["event"] == "cpu-clock"]
both = [r for r in rows if r["symbol"] == "both"]
m = [r for r in rows if r["symbol"].startswith("std::map")]
sys.exit(0 if len(both) == 1 and both[0]["ratio"] != "only host" and len(m) == 2 else 1)
PY

# An empty table compares (everything is the other side's), with a warning.
printf 'event,symbol,dso,domain,samples,period,share\n' > empty.csv
"$VMPROF" compare -o e.xml host.csv empty.csv > e.txt 2>err || fail "compare with an empty table"
grep -q "'empty.csv' holds no samples" err || fail "no warning about the empty table"
! grep -q "only guest" e.txt || fail "rows from nowhere"

# Malformed inputs: exit 1, the file and problem named, no saved comparison.
printf '<vmprof-profile version="1"><event name="e" samples="1" period="1"><row symbol="f"' > cut.xml
printf 'event,symbol,dso,domain,samples,period,share\ncpu-clock,f,/x,.,1,2\n' > short.csv
printf '# Samples: 10  of event '"'"'cpu-clock'"'"'\n# Event count (approx.): 10\n#\n# Overhead  Symbol\n# ........  ......\n#\n    50.00%%  [.] f\n   garbage here\n' > bad.txt
for f in cut.xml short.csv bad.txt; do
	rm -f out.xml
	expect_status 1 "$VMPROF_SAN" compare -o out.xml host.csv $f
	grep -q "^vmprof compare: '$f'" "$WORK/err" || fail "$f: not named: $(cat "$WORK/err")"
	[ ! -e out.xml ] || fail "$f: a failed compare left a saved comparison"
done
grep -q "line 8" "$WORK/err" || fail "perf text error has no line number: $(cat "$WORK/err")"
echo "ok"
