#!/usr/bin/env python3
"""Fold `perf script -F comm,ip,sym,dso` callchains into folded stacks, the way
stackcollapse-perf.pl does: "comm;outermost;...;leaf COUNT", one line per
distinct stack, sorted. An unresolved frame is named by its object
("[libc.so.6]"), or "[unknown]" when perf knows no object either; ';' inside a
name becomes ':'. The oracle for `vmprof convert folded`.

Usage: fold_perf_script.py PERF_SCRIPT_OUTPUT [EVENT]

PERF_SCRIPT_OUTPUT: `perf script -F comm,period,event,ip,sym,dso`. With EVENT,
only that event's samples count; COUNT is samples, or summed periods when the
environment has FOLD_VALUE=period.
"""
import os
import re
import sys
from collections import Counter

FRAME = re.compile(r"^\s+([0-9a-f]+) (.*) \((.*)\)$")


def frame_name(sym, dso):
    if sym == "[unknown]" and dso != "[unknown]":
        base = dso if dso.startswith("[") else dso.rsplit("/", 1)[-1]
        sym = base if base.startswith("[") else "[" + base + "]"
    return sym.replace(";", ":")


def main():
    want_event = sys.argv[2] if len(sys.argv) > 2 else None
    by_period = os.environ.get("FOLD_VALUE") == "period"
    stacks = Counter()
    comm, frames, keep, weight = None, [], False, 0

    def flush():
        if comm is not None and keep:
            stacks[";".join([comm] + frames[::-1])] += weight

    for n, line in enumerate(open(sys.argv[1], encoding="utf-8", errors="replace"), 1):
        line = line.rstrip("\n")
        if not line.strip():
            continue
        if not line[0].isspace():
            flush()
            # "comm  PERIOD EVENT:" (comm padded, may hold spaces)
            f = line.split()
            if len(f) < 3 or not f[-1].endswith(":"):
                raise SystemExit(f"{sys.argv[1]}:{n}: not a sample header: {line!r}")
            event, period = f[-1][:-1], int(f[-2])
            comm, frames = " ".join(f[:-2]).replace(";", ":"), []
            keep = want_event is None or event == want_event
            weight = period if by_period else 1
            continue
        m = FRAME.match(line)
        if not m:
            raise SystemExit(f"{sys.argv[1]}:{n}: not a callchain frame: {line!r}")
        frames.append(frame_name(m.group(2), m.group(3)))
    flush()
    if not stacks:
        raise SystemExit(f"{sys.argv[1]}: no samples")
    for s in sorted(stacks):
        print(s, stacks[s])


if __name__ == "__main__":
    main()
