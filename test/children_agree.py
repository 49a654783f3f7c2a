#!/usr/bin/env python3
"""Compare vmprof report --children's inclusive shares with perf report's.

Usage: children_agree.py PERF_OUT VMPROF_CSV [EVENT] [--compare host|guest]

PERF_OUT: `perf report --stdio --children -g none --sort sym -t $'\\x1f'`
(columns Children, Self, "[d] symbol"; one event, or several with their
"# Samples: ... of event 'E'" headings). VMPROF_CSV: `vmprof report
--children --format csv` (all rows: --top 0), or with --compare SIDE `vmprof
compare --children --format csv --top 0` of two sides, that side's columns
(the other side's rows, 0 on this one, are not this side's).

perf prints percentages with two decimals, computed as 100.0 * period /
total (a C double); vmprof's exact integers give the same double, so each
of perf's rows must print the same, for the children and the self column.
Rows are matched by (event, domain, name); several rows of one name are
compared as sorted lists. Where names cannot match row for row:

- perf prints an unresolved address as its own row ("[.] 0x000...72b2")
  and vmprof one "[unknown]" row per object, counting a sample once however
  many unresolved frames of that object it has: per event, vmprof's
  [unknown] rows together lie between perf's largest address row and the
  sum of them. (perf's letter for an address in no map is that of the frame
  before it in the chain, vmprof's the chain's context: they are compared
  across domains.)
- two functions of one name in one object (kernel static functions) are two
  rows for perf and one for vmprof: vmprof's lies between the largest of
  perf's and their sum.
"""
import os
import re
import sys
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from perf_agree import csv_symbol  # noqa: E402

# perf prints an address with "%#llx": 0x..., and address 0 as sixteen zeros
HEX = re.compile(r"^(0x[0-9a-f]+|0{16})$")


def parse_perf(path):
    rows, event = defaultdict(list), None
    for line in open(path, encoding="utf-8", errors="replace"):
        line = line.rstrip("\n")
        m = re.match(r"^# Samples: \S+\s+of event '(.*)'$", line)
        if m:
            event = m.group(1)
            continue
        if not line or line.startswith("#"):
            continue
        f = line.split("\x1f")
        if len(f) != 3:
            raise SystemExit(f"{path}: cannot parse perf line: {line!r}")
        children, self_ = f[0].strip().rstrip("%"), f[1].strip().rstrip("%")
        m = re.match(r"^\[(.)\] (.*?)\s*$", f[2].strip())
        if not m:
            raise SystemExit(f"{path}: no domain in {f[2]!r}")
        rows[(event, m.group(1), m.group(2))].append((children, self_))
    return rows


def parse_vmprof(path, side=None):
    import csv
    rows, totals = defaultdict(list), defaultdict(int)
    with open(path, newline="", encoding="utf-8") as f:
        r = csv.DictReader(f)
        p = f"{side}_" if side else ""
        want = ["event", "symbol", "dso", "domain", p + "samples", p + "period", p + "share",
                p + "children_samples", p + "children_period", p + "children_share"]
        if any(c not in r.fieldnames for c in want):
            raise SystemExit(f"{path}: header {r.fieldnames} lacks some of {want}")
        raw = []
        for d in r:
            rec = [d[c] for c in want]
            ev, sym, dso, dom = rec[0], csv_symbol(rec[1]), rec[2], rec[3]
            period, cperiod = int(rec[5]), int(rec[8])
            if cperiod < period or int(rec[7]) < int(rec[4]):
                raise SystemExit(f"{path}: children below self in {rec}")
            if side and not cperiod:
                continue  # the other side's row
            totals[ev] += period
            raw.append((ev, sym, dso, dom, period, cperiod))
    for ev, sym, dso, dom, period, cperiod in raw:
        t = totals[ev]
        rows[(ev, dom, sym)].append(("%.2f" % (100.0 * cperiod / t), "%.2f" % (100.0 * period / t)))
    return rows


def main():
    side = None
    args = sys.argv[1:]
    if "--compare" in args:
        side = args[args.index("--compare") + 1]
        args = [a for a in args if a not in ("--compare", side)]
    perf = parse_perf(args[0])
    ours = parse_vmprof(args[1], side)
    only = args[2] if len(args) > 2 else None
    if only:
        perf = {k: v for k, v in perf.items() if k[0] == only or k[0] is None}
        ours = {k: v for k, v in ours.items() if k[0] == only}
    # perf names the event only when the file has several
    events = {k[0] for k in ours}
    if all(k[0] is None for k in perf) and len(events) == 1:
        ev = events.pop()
        perf = {(ev, k[1], k[2]): v for k, v in perf.items()}
    if not perf:
        raise SystemExit("perf printed no rows: nothing was compared")
    bad, exact, bounded = 0, 0, 0
    unknown_p, unknown_o = defaultdict(list), defaultdict(list)
    for key in sorted(set(perf) | set(ours), key=str):
        ev, dom, name = key
        p, o = perf.get(key, []), ours.get(key, [])
        if HEX.match(name) or name == "[unknown]":
            unknown_p[ev] += [float(c) for c, _ in p]
            unknown_o[ev] += [float(c) for c, _ in o]
            continue
        if sorted(p) == sorted(o):
            exact += len(p)
            continue
        if len(o) == 1 and len(p) > 1:
            c = [float(x) for x, _ in p]
            s = [float(x) for _, x in p]
            oc, os_ = float(o[0][0]), float(o[0][1])
            if max(c) - 0.01 <= oc <= sum(c) + 0.01 * len(c) and abs(os_ - sum(s)) <= 0.01 * len(s):
                bounded += 1
                continue
        bad += 1
        print(f"mismatch {key}: perf (children, self) {sorted(p)} vmprof {sorted(o)}")
    for k in sorted(set(unknown_p) | set(unknown_o), key=str):
        p, o = unknown_p.get(k, []), unknown_o.get(k, [])
        slack = 0.01 * (len(p) + len(o))
        if (not p) != (not o) or (p and not (max(p) - slack <= sum(o) <= sum(p) + slack)):
            bad += 1
            print(f"mismatch unresolved {k}: perf address rows {sorted(p)} vmprof [unknown] {sorted(o)}")
        else:
            bounded += 1
    print(f"compared {sum(len(v) for v in perf.values())} perf rows: {exact} exact, "
          f"{bounded} groups within bounds, {bad} mismatches")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
