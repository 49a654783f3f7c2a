#!/usr/bin/env python3
"""Compare vmprof report's per-symbol sample counts with perf report's.

Usage: perf_agree.py PERF_OUT VMPROF_OUT [--dso-only-kernel] [--fold-dso=DSO...]
                     [--extra-keys] [--totals]

PERF_OUT: `perf report --stdio --no-children -g none --sort dso,sym -n -t $'\\x1f'`.
VMPROF_OUT: `vmprof report` table output with its default dso,sym columns.

perf prints an unresolved address as its own row ("[.] 0x00000000000072b2");
vmprof aggregates those per object as "[unknown]", so perf's address rows are
summed per (dso, domain) before comparing. Every row perf prints must be
matched exactly (same samples); rows of one name (C++ overloads) are compared
as sorted lists, and several perf rows of one name that vmprof holds as one
row (distinct functions sharing a name in one object) by their sum, and one
perf row for objects that share a short name (perf's dso sort compares short
names) by the sum of vmprof's rows for them. With
--dso-only-kernel, kernel rows are compared per dso only (the fixture was
recorded on another kernel than the one running). With --fold-dso=DSO, the
rows of that object are compared by their sum (perf sometimes leaves a
process's [vdso] samples as addresses that vmprof names).
With --extra-keys, perf was run with more sort keys in front of dso,sym
(e.g. --sort pid,comm,dso,sym, so that its --pid/--tid/--comms filters, which
perf decides per row, hold for every sample; perf hides a column that a
filter leaves one value in): perf's rows are summed over those keys, and both
sides are compared per (dso, symbol) sum. With --totals,
each event's totals must agree too: perf's "Event count" (the kept period
under --percentage relative) with vmprof's Period, and perf's "Samples" with
vmprof's when perf prints it exactly (below 1000); an event perf leaves out
must have kept nothing in vmprof.
"""
import re
import sys
from collections import defaultdict

HEX = re.compile(r"^0x[0-9a-f]+$")


def fold(rows, kernel_dso_only, fold_dsos=()):
    """rows: list of (event, dso, dom, sym, samples) -> {key: sorted counts}"""
    agg = defaultdict(int)
    keyed = defaultdict(list)
    for ev, dso, dom, sym, n in rows:
        if dso in fold_dsos:
            agg[(ev, dso, dom, "[any]")] += n
        elif HEX.match(sym) or sym == "[unknown]":
            agg[(ev, dso, dom, "[unknown]")] += n
        elif kernel_dso_only and dom in "kg":
            agg[(ev, dso, dom, "[kernel]")] += n
        else:
            keyed[(ev, dso, dom, sym)].append(n)
    for k, n in agg.items():
        keyed[k].append(n)
    return {k: sorted(v) for k, v in keyed.items()}


def csv_symbol(sym):
    """A symbol as vmprof's CSV names it, without the guard against
    spreadsheet formulas (a quote before a leading = + - @ or quote)."""
    return sym[1:] if sym.startswith("'") and sym[1:2] in "=+-@'" else sym


def parse_perf(path, extra=0, totals=None):
    rows, event = [], None
    for line in open(path, encoding="utf-8", errors="replace"):
        line = line.rstrip("\n")
        # --time with percents: "... of event 'cpu-clock' (time slices: 10%/2)"
        m = re.match(r"^# Samples: (\S+)\s+of event '(.*?)'(?: \(time slices: .*\))?$", line)
        if m:
            event = m.group(2)
            if totals is not None:
                totals.setdefault(event, {})
                if m.group(1).isdigit():
                    totals[event]["samples"] = int(m.group(1))
            continue
        m = re.match(r"^# Event count \(approx\.\): (\d+)$", line)
        if m and totals is not None:
            totals[event]["period"] = int(m.group(1))
            continue
        if not line or line.startswith("#"):
            continue
        f = line.split("\x1f")
        if len(f) != 4 and not (extra and len(f) > 4):
            raise SystemExit(f"{path}: cannot parse perf line: {line!r}")
        f = f[:2] + f[-2:]
        samples, dso, sym = int(f[1].strip()), f[2].strip(), f[3].strip()
        m = re.match(r"^\[(.)\] (.*)$", sym)
        if not m:
            raise SystemExit(f"{path}: no domain in {sym!r}")
        rows.append((event, dso, m.group(1), m.group(2), samples))
    return rows


class Shown:
    """A period as vmprof shows it: an integer, or a time event's time
    ("384.0 ms"), equal to perf's integer within half its last digit."""
    UNIT = {"ns": 1, "us": 1e3, "ms": 1e6, "s": 1e9}

    def __init__(self, text):
        self.text = text

    def __eq__(self, other):
        if isinstance(other, Shown):
            return self.text == other.text
        if " " not in self.text:
            return int(self.text) == other
        value, unit = self.text.split()
        decimals = len(value.split(".")[1]) if "." in value else 0
        step = 10 ** -decimals * self.UNIT[unit]
        return abs(float(value) * self.UNIT[unit] - other) <= step / 2 + 1e-9 * other

    def __ne__(self, other):
        return not self == other

    def __repr__(self):
        return repr(self.text)


def parse_vmprof(path, totals=None):
    rows, event = [], None
    # the period is a count, or a time event's time ("16.50 ms")
    row = re.compile(r"^\s+[\d.]+%\s+(\d+)\s+(\d+|[\d.]+ (?:ns|us|ms|s))\s+(.+?)\s+\[(.)\] (.*?)\s*$")
    for line in open(path, encoding="utf-8", errors="replace"):
        line = line.rstrip("\n")
        m = re.match(r"^# Event '(.*)'$", line)
        if m:
            event = m.group(1)
            continue
        m = re.match(r"^# Samples: (\d+)  Period: (\d+|[\d.]+ (?:ns|us|ms|s)) ", line)
        if m and totals is not None:
            totals[event] = {"samples": int(m.group(1)), "period": Shown(m.group(2))}
            continue
        if not line or line.startswith("#"):
            continue
        m = row.match(line)
        if not m:
            raise SystemExit(f"{path}: cannot parse vmprof line: {line!r}")
        rows.append((event, m.group(3), m.group(4), m.group(5), int(m.group(1))))
    return rows


def main():
    kernel_dso_only = "--dso-only-kernel" in sys.argv
    fold_dsos = [a[len("--fold-dso="):] for a in sys.argv[1:] if a.startswith("--fold-dso=")]
    extra = "--extra-keys" in sys.argv
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    ptot, otot = ({}, {}) if "--totals" in sys.argv else (None, None)
    perf = fold(parse_perf(args[0], extra, ptot), kernel_dso_only, fold_dsos)
    ours = fold(parse_vmprof(args[1], otot), kernel_dso_only, fold_dsos)
    if extra:
        # one row per thread or comm in perf: compare the sums per symbol
        perf = {k: [sum(v)] for k, v in perf.items()}
        ours = {k: [sum(v)] for k, v in ours.items()}
    if not perf:
        raise SystemExit("perf printed no rows: nothing was compared")
    bad = 0
    for ev in sorted(set(ptot or {}) | set(otot or {})):
        p, o = ptot.get(ev), otot.get(ev)
        if p is None and o is not None and o["samples"] == 0 and o["period"] == 0:
            continue	# perf prints no event that kept no sample
        p = p or {}
        if o is None or any(o[k] != p[k] for k in p) or "period" not in p:
            bad += 1
            print(f"totals of {ev!r}: perf {p} vmprof {o}")
    for key in sorted(set(perf) | set(ours)):
        p, o = perf.get(key), ours.get(key)
        # Two functions of one name in one object (static copies, kernel
        # .constprop clones) are two rows for perf and one for vmprof, whose
        # row key is the name: the one row must hold their sum.
        if p and o and len(o) == 1 and len(p) > 1 and sum(p) == o[0]:
            continue
        # The other way round: objects of one short name at different paths
        # (two builds of a program running at once) are one row for perf,
        # whose dso sort compares short names unless -v, and one per object
        # for vmprof: perf's row must hold their sum.
        if p and o and len(p) == 1 and len(o) > 1 and sum(o) == p[0]:
            continue
        if p != o:
            bad += 1
            print(f"mismatch {key}: perf {perf.get(key)} vmprof {ours.get(key)}")
    total = sum(sum(v) for v in perf.values())
    print(f"compared {len(perf)} perf rows ({total} samples): {bad} mismatches")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
