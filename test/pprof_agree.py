#!/usr/bin/env python3
"""Compare `go tool pprof -top` with perf report or vmprof, function by function.

Usage:
  pprof_agree.py flat TOP --perf PERF_OUT [--event E] [--user-only]
  pprof_agree.py flat TOP --vmprof CSV [--event E] [--value period]
  pprof_agree.py cum TOP --perf-children PERF_OUT [--event E] [--user-only]
  pprof_agree.py diff TOP --compare CSV [--event E] [--normalized GUEST_RAW]

TOP: `go tool pprof -top -nodecount=1000000 -nodefraction=0 -edgefraction=0
-sample_index=samples FILE` (flat and cum in samples; --value period:
-sample_index=1 -unit=ns, the period in nanoseconds).
PERF_OUT: `perf report --stdio --no-children -g none --sort dso,sym -n -t $'\\x1f'`.
PERF_OUT for cum: `perf report --stdio --children -g none --sort sym -n -t $'\\x1f'`.
CSV: `vmprof report --format csv --top 0` or `vmprof compare --format csv --top 0`.

pprof names a function by its name alone (two objects' functions of one name
are one line) and an address no function covers by its object, "[libc.so.6]",
or "<unknown>" with no object; perf prints such addresses one per row
("0x00000000000072b2"), vmprof as one "[unknown]" row per object. Both are
folded to pprof's names before comparing. flat: every function's flat count
equals, and no function is missing on either side. cum: every symbol perf
lists (its children share, two decimals) has pprof's cum share, rounded the
same way. diff: `-diff_base HOST GUEST` flat = guest - host samples per
function; with --normalized (pprof's -normalize: each of the guest's sample
records scaled to the host's total and rounded), host_total * delta of vmprof
compare, within half a sample per record of the function in GUEST_RAW
(`go tool pprof -raw GUEST`).
--user-only: compare user-space ([.]) rows only, for kernels whose symbols
the two tools may read differently.
"""
import argparse
import csv
import os
import re
import sys
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from perf_agree import csv_symbol, parse_perf  # noqa: E402

HEX = re.compile(r"^0x[0-9a-f]+$")
# values are counts, or nanoseconds with -unit=ns
TOP_ROW = re.compile(r"^\s*(-?\d+)(?:ns)?\s+(-?[\d.]+)%\s+(-?[\d.]+)%\s+(-?\d+)(?:ns)?\s+(-?[\d.]+)%\s+(.*?)\s*$")


def parse_top(path):
    """name -> (flat, cum); the header says the total."""
    rows, total = {}, None
    for line in open(path, encoding="utf-8", errors="replace"):
        line = line.rstrip("\n")
        m = re.search(r"of (-?\d+)(?:ns)? total", line)
        if m and total is None:
            total = int(m.group(1))
        m = TOP_ROW.match(line)
        if not m:
            continue
        name = m.group(6)
        if name in rows:
            raise SystemExit(f"{path}: {name!r} twice in pprof -top")
        rows[name] = (int(m.group(1)), int(m.group(4)))
    if total is None:
        raise SystemExit(f"{path}: no total in pprof -top output")
    return rows, total


def pprof_name(sym, dso):
    """The name pprof gives a function or an unresolved address."""
    if sym != "[unknown]" and not HEX.match(sym):
        return sym
    if not dso or dso == "[unknown]":
        return "<unknown>"
    return "[" + os.path.basename(dso) + "]"


def perf_flat(path, event, user_only):
    out = defaultdict(int)
    for ev, dso, dom, sym, n in parse_perf(path):
        if event and ev != event:
            continue
        if user_only and dom != ".":
            continue
        out[pprof_name(sym, dso)] += n
    return out


def vmprof_flat(path, event, cols=("samples",)):
    out = defaultdict(int)
    with open(path, newline="", encoding="utf-8") as f:
        for r in csv.DictReader(f):
            if event and r["event"] != event:
                continue
            name = pprof_name(csv_symbol(r["symbol"]), r["dso"])
            for c in cols:
                out[name] += int(r[c])
    return out


def vmprof_deltas(path, event):
    """name -> (sum of its rows' deltas, how many rows)"""
    out = defaultdict(lambda: [0.0, 0])
    with open(path, newline="", encoding="utf-8") as f:
        for r in csv.DictReader(f):
            if not event or r["event"] == event:
                d = out[pprof_name(csv_symbol(r["symbol"]), r["dso"])]
                d[0] += float(r["delta"])
                d[1] += 1
    return out


def leaf_records(path):
    """go tool pprof -raw: sample records per leaf function name"""
    leaf_of, loc_name, loc_map, maps, section = [], {}, {}, {}, None
    named = re.compile(r"^\s*(\d+): 0x[0-9a-f]+(?: M=\d+)? (.*) \S*:\d+ s=\d+$")
    bare = re.compile(r"^\s*(\d+): 0x[0-9a-f]+(?: M=(\d+))?\s*$")
    for line in open(path, encoding="utf-8", errors="replace"):
        line = line.rstrip("\n")
        if line in ("Samples:", "Locations", "Mappings"):
            section = line
            continue
        if section == "Samples:":
            m = re.match(r"^\s*-?\d+\s+-?\d+: (\d+)", line)
            if m:
                leaf_of.append(int(m.group(1)))
        elif section == "Locations":
            m = named.match(line)
            if m:
                loc_name[int(m.group(1))] = m.group(2)
            elif (m := bare.match(line)):
                loc_map[int(m.group(1))] = int(m.group(2) or 0)
        elif section == "Mappings":
            m = re.match(r"^(\d+): 0x[0-9a-f]+/0x[0-9a-f]+/0x[0-9a-f]+ (.*?)(?: [0-9a-f]+)?\s*(?:\[.*\])?$", line)
            if m:
                maps[int(m.group(1))] = m.group(2).strip()
    out = defaultdict(int)
    for lid in leaf_of:
        name = loc_name.get(lid)
        if name is None:
            name = pprof_name("[unknown]", maps.get(loc_map.get(lid, 0), ""))
        out[name] += 1
    if not out:
        raise SystemExit(f"{path}: no samples in pprof -raw output")
    return out


def check_flat(top, want, what, user_only_names=None):
    bad = []
    for name, n in want.items():
        got = top.get(name, (0, 0))[0]
        if got != n:
            bad.append(f"{name}: pprof flat {got}, {what} {n}")
    for name, (flat, _) in top.items():
        if flat and name not in want and (user_only_names is None or name in user_only_names):
            bad.append(f"{name}: pprof flat {flat}, not in {what}")
    return bad


def perf_children(path, event, user_only):
    """symbol -> children percentage (perf's two decimals); hex rows skipped"""
    out, ev = {}, None
    for line in open(path, encoding="utf-8", errors="replace"):
        m = re.match(r"^# Samples: \S+\s+of event '(.*)'$", line.rstrip("\n"))
        if m:
            ev = m.group(1)
            continue
        if not line.strip() or line.startswith("#") or (event and ev != event):
            continue
        f = line.rstrip("\n").split("\x1f")
        if len(f) != 4:
            raise SystemExit(f"{path}: cannot parse perf line: {line!r}")
        m = re.match(r"^\[(.)\] (.*?)\s*$", f[3].strip())
        if not m:
            raise SystemExit(f"{path}: no domain in {f[3]!r}")
        dom, sym = m.group(1), m.group(2)
        # unresolved addresses: "0x72b2", or the zero that ends a chain
        if HEX.match(sym) or re.match(r"^[0-9a-f]{16}$", sym) or (user_only and dom != "."):
            continue
        pct = float(f[0].strip().rstrip("%"))
        if sym in out:
            out[sym] = None  # two functions of one name: not comparable by share
        else:
            out[sym] = pct
    return {k: v for k, v in out.items() if v is not None}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("mode", choices=["flat", "cum", "diff"])
    ap.add_argument("top")
    ap.add_argument("--perf")
    ap.add_argument("--perf-children")
    ap.add_argument("--vmprof")
    ap.add_argument("--compare")
    ap.add_argument("--event")
    ap.add_argument("--value", default="samples", choices=["samples", "period"])
    ap.add_argument("--user-only", action="store_true")
    ap.add_argument("--normalized", metavar="GUEST_RAW")
    a = ap.parse_args()
    top, total = parse_top(a.top)
    bad = []
    if a.mode == "flat" and a.perf:
        want = perf_flat(a.perf, a.event, a.user_only)
        if a.user_only:
            # kernel rows left out on both sides: pprof's other names are not judged
            bad = check_flat(top, want, "perf", user_only_names=set(want))
        else:
            bad = check_flat(top, want, "perf")
        n = len(want)
    elif a.mode == "flat":
        want = vmprof_flat(a.vmprof, a.event, (a.value,))
        bad = check_flat(top, want, "vmprof")
        n = len(want)
    elif a.mode == "cum":
        want = perf_children(a.perf_children, a.event, a.user_only)
        for sym, pct in want.items():
            cum = top.get(sym, (0, 0))[1]
            got = round(100.0 * cum / total, 2) if total else 0.0
            if abs(got - pct) > 0.011:
                bad.append(f"{sym}: pprof cum {cum}/{total} = {got:.2f}%, perf children {pct:.2f}%")
        n = len(want)
    else:
        host = vmprof_flat(a.compare, a.event, ("host_samples",))
        guest = vmprof_flat(a.compare, a.event, ("guest_samples",))
        names = set(host) | set(guest)
        if a.normalized:
            # delta: guest share - host share in percentage points, per row
            delta = vmprof_deltas(a.compare, a.event)
            ht = sum(host.values())
            records = leaf_records(a.normalized)
            for name in names:
                d, rows = delta[name]
                want = d / 100.0 * ht
                got = top.get(name, (0, 0))[0]
                # the CSV prints each row's delta with six decimals: half a
                # unit of the last is 5e-7 pp, 5e-9 * ht samples, per row
                csv_rounding = rows * 5e-9 * ht
                if abs(got - want) > 0.5 * records[name] + csv_rounding + 1e-9:
                    bad.append(f"{name}: pprof normalized diff {got}, vmprof delta "
                               f"{d:.4f} pp of {ht} = {want:.2f} ({records[name]} "
                               f"records rounded)")
        else:
            for name in names:
                want = guest[name] - host[name]
                got = top.get(name, (0, 0))[0]
                if got != want:
                    bad.append(f"{name}: pprof diff {got}, vmprof guest-host {want}")
        n = len(names)
    if not n:
        raise SystemExit("nothing to compare (empty input: the test is vacuous)")
    if bad:
        print("\n".join(bad[:40]))
        raise SystemExit(f"{len(bad)} of {n} functions disagree")
    print(f"{n} functions agree")


if __name__ == "__main__":
    main()
