#!/usr/bin/env python3
"""The join vmprof compare must compute, computed independently from perf.

Usage: cmp_oracle.py HOST_PERF GUEST_PERF VMPROF_CSV

HOST_PERF, GUEST_PERF: `perf report --stdio --no-children -g none --sort sym
-n --show-total-period -t $'\\x1f'` of the two recordings.
More sort keys in front of sym (--sort comm,sym, so that perf's per-row
--comms filter holds for every sample) are summed over.
VMPROF_CSV: `vmprof compare --top 0 --format csv HOST GUEST` of the same files.

The join key is the symbol as perf prints it; rows perf prints for an
unresolved address ("0x7f...") are one "[unknown]" row, as vmprof aggregates
them. For each event and symbol the two sides' samples and periods must be
equal, shares and delta (percentage points) equal to 1e-6, the ratio
guest/host to 1e-6 relative, and one-sided rows say "only host"/"only guest".
"""
import csv
import os
import re
import sys
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from perf_agree import csv_symbol  # noqa: E402

HEX = re.compile(r"^0x[0-9a-f]+$")


def perf_side(path):
    rows = defaultdict(lambda: [0, 0])      # (event, sym) -> [samples, period]
    totals = defaultdict(lambda: [0, 0])
    event = None
    for line in open(path, encoding="utf-8", errors="replace"):
        line = line.rstrip("\n")
        m = re.match(r"^# Samples: \S+\s+of event '(.*?)'(?: \(time slices: .*\))?$", line)
        if m:
            event = m.group(1)
            continue
        if not line or line.startswith("#"):
            continue
        f = line.split("\x1f")
        if len(f) < 4:
            sys.exit(f"{path}: cannot parse perf line: {line!r}")
        samples, period, sym = int(f[1]), int(f[2]), f[-1].strip()
        m = re.match(r"^\[(.)\] (.*)$", sym)
        if not m:
            sys.exit(f"{path}: no domain in {sym!r}")
        name = m.group(2)
        if HEX.match(name):
            name = "[unknown]"
        r = rows[(event, name)]
        r[0] += samples
        r[1] += period
        totals[event][0] += samples
        totals[event][1] += period
    return rows, totals


def main():
    host, htot = perf_side(sys.argv[1])
    guest, gtot = perf_side(sys.argv[2])
    want = {}
    for key in set(host) | set(guest):
        event = key[0]
        h = host.get(key, [0, 0])
        g = guest.get(key, [0, 0])
        hs = h[1] / htot[event][1] if htot.get(event) and htot[event][1] else 0.0
        gs = g[1] / gtot[event][1] if gtot.get(event) and gtot[event][1] else 0.0
        if h[1] and g[1]:
            ratio = g[1] / h[1]
        elif h[1]:
            ratio = "only host"
        else:
            ratio = "only guest"
        want[key] = (h[0], h[1], hs, g[0], g[1], gs, ratio, 100 * (gs - hs))

    got = defaultdict(lambda: [0, 0, 0.0, 0, 0, 0.0])
    with open(sys.argv[3], newline="", encoding="utf-8") as f:
        rd = csv.DictReader(f)
        for r in rd:
            sym = csv_symbol(r["symbol"])
            g = got[(r["event"], sym)]
            g[0] += int(r["host_samples"])
            g[1] += int(r["host_period"])
            g[2] += float(r["host_share"])
            g[3] += int(r["guest_samples"])
            g[4] += int(r["guest_period"])
            g[5] += float(r["guest_share"])
    bad = 0
    for key in sorted(set(want) | set(got)):
        if key not in got:
            print(f"missing in vmprof: {key} {want[key]}")
            bad += 1
            continue
        if key not in want:
            print(f"not in perf: {key} {got[key]}")
            bad += 1
            continue
        w, g = want[key], got[key]
        if (w[0], w[1], w[3], w[4]) != (g[0], g[1], g[3], g[4]):
            print(f"{key}: perf join {w[:2]}/{w[3:5]} vmprof {g[:2]}/{g[3:5]}")
            bad += 1
        if abs(w[2] - g[2]) > 1e-6 or abs(w[5] - g[5]) > 1e-6:
            print(f"{key}: shares perf {w[2]:.9f}/{w[5]:.9f} vmprof {g[2]:.9f}/{g[5]:.9f}")
            bad += 1
    # ratio and delta: checked per vmprof row (its rows are never split in these tests)
    with open(sys.argv[3], newline="", encoding="utf-8") as f:
        for r in csv.DictReader(f):
            key = (r["event"], r["symbol"])
            if key not in want:
                continue
            w = want[key]
            if isinstance(w[6], str):
                ok = r["ratio"] == w[6]
            else:
                ok = r["ratio"] not in ("only host", "only guest", "") and \
                    abs(float(r["ratio"]) - w[6]) <= 1e-6 * max(1.0, w[6])
            if not ok:
                print(f"{key}: ratio perf {w[6]} vmprof {r['ratio']}")
                bad += 1
            if abs(float(r["delta"]) - w[7]) > 1e-4:
                print(f"{key}: delta perf {w[7]:.6f} vmprof {r['delta']}")
                bad += 1
    print(f"{len(want)} joined rows, {bad} disagreements")
    sys.exit(1 if bad or not want else 0)


if __name__ == "__main__":
    main()
