#!/usr/bin/env python3
"""Compare vmprof report's per-symbol sample counts with perf report's.

Usage: perf_agree.py PERF_OUT VMPROF_OUT [--dso-only-kernel] [--fold-dso=DSO...]

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


def parse_perf(path):
    rows, event = [], None
    for line in open(path, encoding="utf-8", errors="replace"):
        line = line.rstrip("\n")
        m = re.match(r"^# Samples: \S+\s+of event '(.*)'$", line)
        if m:
            event = m.group(1)
            continue
        if not line or line.startswith("#"):
            continue
        f = line.split("\x1f")
        if len(f) != 4:
            raise SystemExit(f"{path}: cannot parse perf line: {line!r}")
        samples, dso, sym = int(f[1].strip()), f[2].strip(), f[3].strip()
        m = re.match(r"^\[(.)\] (.*)$", sym)
        if not m:
            raise SystemExit(f"{path}: no domain in {sym!r}")
        rows.append((event, dso, m.group(1), m.group(2), samples))
    return rows


def parse_vmprof(path):
    rows, event = [], None
    row = re.compile(r"^\s+[\d.]+%\s+(\d+)\s+(\d+)\s+(.+?)\s+\[(.)\] (.*?)\s*$")
    for line in open(path, encoding="utf-8", errors="replace"):
        line = line.rstrip("\n")
        m = re.match(r"^# Event '(.*)'$", line)
        if m:
            event = m.group(1)
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
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    perf = fold(parse_perf(args[0]), kernel_dso_only, fold_dsos)
    ours = fold(parse_vmprof(args[1]), kernel_dso_only, fold_dsos)
    if not perf:
        raise SystemExit("perf printed no rows: nothing was compared")
    bad = 0
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
