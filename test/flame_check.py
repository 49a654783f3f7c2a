#!/usr/bin/env python3
"""Check a vmprof flame graph SVG against folded stacks (test/fold_perf_script.py
folds them from perf script: an oracle independent of vmprof).

Usage: flame_check.py SVG FOLDED [FOLDED_SIDE1] [--width-side N] [--absolute]

The SVG is parsed as XML. Each frame's path (its name and those of the frames
below it, found by position) must hold exactly the folded counts of the stacks
that start with that path, per side (data-v0, data-v1); its width must be that
value's share of the width side's total (of the larger total with
--absolute) times the plot width; every stack prefix at least 0.1 units wide
must be drawn and none narrower. With two sides: a frame's colour has the sign
of its change (orange: side 1's share larger, blue: side 0's, grey: within
noise, and a change far beyond noise by an exact binomial test is never grey);
frames on one side only, and only they, are hatched and outlined; the legend
says what width and colour mean.
"""
import sys
import xml.etree.ElementTree as ET
from collections import defaultdict

SVG = "{http://www.w3.org/2000/svg}"
MIN_WIDTH = 0.1


def fail(msg):
    print(f"FAIL: {msg}", file=sys.stderr)
    sys.exit(1)


def read_folded(path):
    prefix, total = defaultdict(int), 0
    for line in open(path, encoding="utf-8", errors="replace"):
        stack, n = line.rstrip("\n").rsplit(" ", 1)
        n = int(n)
        total += n
        parts = tuple(stack.split(";"))
        for k in range(1, len(parts) + 1):
            prefix[parts[:k]] += n
    return prefix, total


def parse_svg(path):
    root = ET.parse(path).getroot()
    flame = root.find(f".//{SVG}g[@id='vp-flame']")
    if flame is None:
        fail("no vp-flame group")
    frames = []
    for g in flame.iter(f"{SVG}g"):
        if g.get("class") != "vp-frame":
            continue
        box = [r for r in g.findall(f"{SVG}rect") if r.get("class") == "vp-box"]
        hatch = [r for r in g.findall(f"{SVG}rect") if r.get("class") == "vp-hatch"]
        title = g.find(f"{SVG}title")
        frames.append({
            "name": g.get("data-name"), "depth": int(g.get("data-depth")),
            "v": [int(g.get("data-v0", 0)), int(g.get("data-v1", 0))],
            "n": [int(g.get("data-n0", 0)), int(g.get("data-n1", 0))],
            "change": g.get("data-change"), "x": float(box[0].get("x")),
            "w": float(box[0].get("width")), "fill": box[0].get("fill"), "hatch": bool(hatch),
            "title": title.text if title is not None else "",
        })
    words = " ".join((t.text or "") for t in root.iter(f"{SVG}text"))
    desc = root.find(f"{SVG}desc")
    return flame, frames, words + " " + (desc.text if desc is not None else "")


def paths(frames):
    """Each frame's path of names from the command up, found by position."""
    by_depth = defaultdict(list)
    for f in frames:
        by_depth[f["depth"]].append(f)
    for f in frames:
        if f["depth"] == 0:
            f["path"] = ()
            continue
        up = [p for p in by_depth[f["depth"] - 1]
              if p["x"] - 1e-3 <= f["x"] and f["x"] + f["w"] <= p["x"] + p["w"] + 2e-3]
        if len(up) != 1:
            fail(f"frame {f['name']!r} at depth {f['depth']} x {f['x']} has {len(up)} frames below it")
        f["parent"] = up[0]
    for f in sorted(frames, key=lambda f: f["depth"]):
        if f["depth"]:
            # folded stacks write ';' in a name as ':' (stackcollapse-perf.pl)
            f["path"] = f["parent"]["path"] + (f["name"].replace(";", ":"),)


def hue(fill):
    r, g, b = (int(fill[i:i + 2], 16) for i in (1, 3, 5))
    if r == g == b:
        return 0
    return 1 if r > b else -1


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    wside = None
    if "--width-side" in sys.argv:
        wside = int(sys.argv[sys.argv.index("--width-side") + 1])
        args.remove(str(wside))
    absolute = "--absolute" in sys.argv
    flame, frames, words = parse_svg(args[0])
    sides = [read_folded(p) for p in args[1:]]
    nsides = len(sides)
    if wside is None:
        wside = nsides - 1
    if int(float(flame.get("data-sides"))) != nsides or int(float(flame.get("data-wside"))) != wside:
        fail(f"the SVG has sides {flame.get('data-sides')} width side {flame.get('data-wside')}")
    plot_x, plot_w = float(flame.get("data-plot-x")), float(flame.get("data-plot-w"))
    totals = [t for _, t in sides]
    denom = max(totals) if absolute else totals[wside]
    paths(frames)
    drawn = set()
    for f in frames:
        for s in range(nsides):
            want = totals[s] if not f["path"] else sides[s][0].get(f["path"], 0)
            if f["v"][s] != want:
                fail(f"{';'.join(f['path']) or 'all'}: side {s} value {f['v'][s]}, folded stacks {want}")
        ww = f["v"][wside] / denom * plot_w
        if abs(ww - f["w"]) > 0.0015:
            fail(f"{';'.join(f['path'])}: width {f['w']}, want {ww:.4f}")
        drawn.add(f["path"])
    want_drawn = {p for p, v in sides[wside][0].items() if v / denom * plot_w >= MIN_WIDTH + 1e-3}
    missing = want_drawn - drawn
    if missing:
        fail(f"{len(missing)} stack prefixes wide enough are not drawn, e.g. {sorted(missing)[:3]}")
    narrow = [f for f in frames if f["path"] and f["w"] < MIN_WIDTH - 1e-3]
    if narrow:
        fail(f"{len(narrow)} frames narrower than {MIN_WIDTH} drawn")
    print(f"# {len(frames)} frames: values equal the folded stacks', widths their share")
    if nsides < 2:
        if "width:" not in words:
            fail("no legend saying what width means")
        return
    from scipy.stats import binomtest
    root = [f for f in frames if f["depth"] == 0][0]
    coloured = grey = only = 0
    for f in frames:
        v0, v1 = f["v"]
        one = (v0 == 0) != (v1 == 0)
        if one != f["hatch"] or (one and f["change"] not in ("only0", "only1")):
            fail(f"{';'.join(f['path'])}: values {f['v']}, hatched {f['hatch']} ({f['change']})")
        if one:
            only += 1
            continue
        s0, s1 = v0 / totals[0], v1 / totals[1]
        if absolute:
            s0, s1 = v0, v1
        h = hue(f["fill"])
        if h and (s1 > s0) != (h > 0):
            fail(f"{';'.join(f['path'])}: colour {f['fill']} but shares {s0:.4f} -> {s1:.4f}")
        # the sample counts, exact binomial: far beyond noise is never grey
        n0, n1 = f["n"]
        N0, N1 = root["n"] if not absolute else (1, 1)
        p = binomtest(n1, n0 + n1, N1 / (N0 + N1)).pvalue
        if not h and p < 1e-9:
            fail(f"{';'.join(f['path'])}: grey, but its counts {n0} of {N0} and {n1} of {N1} differ, p = {p:.2g}")
        coloured += bool(h)
        grey += not h
    for w in ("width:", "colour:", "within noise", "only in"):
        if w not in words:
            fail(f"the legend does not say {w!r}")
    print(f"# colours: {coloured} frames coloured by the sign of their change, {grey} grey, "
          f"{only} on one side only (hatched)")


if __name__ == "__main__":
    main()
