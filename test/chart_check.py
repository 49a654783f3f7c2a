#!/usr/bin/env python3
"""A vmprof bar and circle chart of K sides checked against the numbers behind
them, with Python's own XML parser, CSV reader and scipy.

Usage: chart_check.py [--value period|samples] [--alpha A] EVENT BAR.svg CIRCLE.svg
                      COMPARE.csv LABEL=RUN[,RUN...] LABEL=RUN[,RUN...] ...

COMPARE.csv: `vmprof compare --format csv` of the same sides with the chart's
--top (two sides: host_*/guest_* columns; more: one line per row and side).
A RUN is a table the test wrote (CSV: event,symbol,dso,domain,samples,period,
share) or perf report's text of a recording (`perf report --stdio
--no-children -g none --sort sym -n --show-total-period -t $'\\x1f'`, read by
cmp_oracle.perf_side), so each run's numbers come from outside vmprof.

What a reader of the chart is promised, each checked on the SVG as drawn
(cairo's paths and colours, not only vmprof's own data layer):
- the bar chart has a group of K bars per row of the CSV, in the CSV's order,
  the sides top to bottom in their order; each bar is the side's mean per run
  from the runs (the number behind it);
- every side has one colour: its legend swatch, its coloured bars; the K
  colours differ, also in lightness (greyscale print) for K <= 3; the legend
  names the sides left to right in their order;
- a side's bar is coloured when the CSV says the row is significant for it
  (the baseline's when any side is), else pale: lighter and greyer than the
  hue; the legend says "not significant at q < ALPHA";
- whiskers: the baseline's is the t interval of its runs' mean (scipy; one run:
  the exact Poisson interval of its samples times its value per sample), each
  other side's the baseline's mean times the CSV's ratio_low and ratio_high;
  their pixel ends are those values on the axis whose scale the tick labels
  give (an end past the axis: at the axis end, flagged as clipped), and a
  stroke is drawn there;
- tooltips name every side and give each ratio's q as the CSV has it; the
  <desc> carries every row; the subtitle says "top N of M functions (x% of
  A, ...)" with M the rows of the full join and x each side's share of the
  rows shown, and the runs per side;
- the circle chart has a donut per side with the same slice order, the CSV's
  first (at most six) rows and a grey "other".
Exit 0 when all hold; each failure is printed.
"""
import argparse
import csv
import math
import os
import re
import sys
import xml.etree.ElementTree as ET

from scipy import stats

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cmp_oracle import perf_side  # noqa: E402

NS = "{http://www.w3.org/2000/svg}"
bad = []


def expect(cond, what):
    if not cond:
        bad.append(what)
    return cond


def load_run(path):
    """{(event, symbol): (samples, period)} and {event: (samples, period)} of one run."""
    if path.endswith(".csv"):
        rows, totals = {}, {}
        for r in csv.DictReader(open(path, newline="", encoding="utf-8")):
            k = (r["event"], r["symbol"])
            s, p = int(r["samples"]), int(r["period"])
            old = rows.get(k, (0, 0))
            rows[k] = (old[0] + s, old[1] + p)
            t = totals.get(r["event"], (0, 0))
            totals[r["event"]] = (t[0] + s, t[1] + p)
        return rows, totals
    rows, totals = perf_side(path)
    return {k: tuple(v) for k, v in rows.items()}, {k: tuple(v) for k, v in totals.items()}


class Side:
    def __init__(self, label, runs, event, col):
        self.label = label
        self.runs = [r for r in (load_run(p) for p in runs) if event in r[1]]
        self.event, self.col = event, col

    def values(self, sym):
        return [r[0].get((self.event, sym), (0, 0))[self.col] for r in self.runs]

    def samples(self, sym):
        return [r[0].get((self.event, sym), (0, 0))[0] for r in self.runs]

    def mean(self, sym):
        v = self.values(sym)
        return sum(v) / len(v) if v else 0.0

    def share(self, sym):
        sh = [r[0].get((self.event, sym), (0, 0))[self.col] / r[1][self.event][self.col]
              for r in self.runs if r[1][self.event][self.col]]
        return sum(sh) / len(self.runs) if self.runs else 0.0

    def symbols(self):
        return {k[1] for r in self.runs for k in r[0] if k[0] == self.event}

    def mean_interval(self, sym, alpha):
        """The side's own interval of its mean, as vmprof-chart(1) states it."""
        v, n = self.values(sym), len(self.runs)
        m = sum(v) / n
        if n >= 2:
            sd = math.sqrt(sum((x - m) ** 2 for x in v) / (n - 1))
            if sd == 0 or len(set(v)) == 1:
                return m, m
            half = stats.t.ppf(1 - alpha / 2, n - 1) * sd / math.sqrt(n)
            return max(0.0, m - half), m + half
        c = self.samples(sym)[0]
        if c == 0:
            return 0.0, 0.0
        per = v[0] / c
        return per * stats.chi2.ppf(alpha / 2, 2 * c) / 2, per * stats.chi2.ppf(1 - alpha / 2, 2 * c + 2) / 2


def read_compare(path, labels, event):
    """Rows in order: [symbol, {side index: csv line}] for sides 1..K-1."""
    out, at = [], {}
    for r in csv.DictReader(open(path, newline="", encoding="utf-8")):
        if r["event"] != event:
            continue
        if "side" in r:
            s = labels.index(r["side"])
        else:
            s = 1
        if r["symbol"] not in at:
            at[r["symbol"]] = len(out)
            out.append([r["symbol"], {}])
        out[at[r["symbol"]]][1][s] = r
    return out


def rgb(style, what):
    m = re.search(what + r":rgb\(([\d.]+)%,([\d.]+)%,([\d.]+)%\)", style or "")
    return tuple(float(x) / 100 for x in m.groups()) if m else None


def lightness(c):
    def lin(v):
        return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4
    y = 0.2126 * lin(c[0]) + 0.7152 * lin(c[1]) + 0.0722 * lin(c[2])
    return 116 * y ** (1 / 3) - 16 if y > 0.008856 else 903.3 * y


def chroma(c):
    return max(c) - min(c)


def numbers(d):
    return [float(x) for x in re.findall(r"-?[\d.]+(?:e-?\d+)?", d)]


class Svg:
    def __init__(self, path):
        self.root = ET.parse(path).getroot()
        self.desc = self.root.find(NS + "desc").text or ""
        self.layer = {}
        for g in self.root.iter(NS + "g"):
            if g.get("id") in ("vmprof-data", "vmprof-text"):
                self.layer[g.get("id")] = list(g)
        ours = {id(e) for lay in self.layer.values() for e in lay}
        glyphs = {id(p) for s in self.root.iter(NS + "symbol") for p in s.iter(NS + "path")}
        self.fills, self.strokes = [], []
        for p in self.root.iter(NS + "path"):
            if id(p) in ours or id(p) in glyphs:
                continue
            f, s = rgb(p.get("style"), "fill"), rgb(p.get("style"), "stroke")
            n = numbers(p.get("d", ""))
            if f and "stroke:none" in (p.get("style") or "").replace(" ", ""):
                self.fills.append((n, f))
            elif s:
                self.strokes.append((n, s))

    def marks(self, cls):
        lay = self.layer["vmprof-text" if cls == "text-box" else "vmprof-data"]
        out = []
        for e in lay:
            if e.get("class") != cls:
                continue
            m = {k: e.get(k) for k in e.keys()}
            for k in ("x", "y", "width", "height", "data-value", "data-low", "data-high"):
                if m.get(k) is not None:
                    m[k] = float(m[k])
            t = e.find(NS + "title")
            m["title"] = t.text if t is not None else m.get("data-text", "")
            out.append(m)
        return out

    def fill_of_rect(self, x, y, w, h):
        """The colour cairo filled the rectangle (x, y, w, h) with."""
        for n, c in self.fills:
            if len(n) >= 8:
                xs, ys = n[0:8:2], n[1:8:2]
                if (abs(min(xs) - x) < 0.01 and abs(max(xs) - x - w) < 0.01 and
                        abs(min(ys) - y) < 0.01 and abs(max(ys) - y - h) < 0.01):
                    return c
        return None

    def stroke_from(self, x0, x1, y):
        """A stroke drawn from (x0, y) to (x1, y) as its first segment."""
        return any(len(n) >= 4 and abs(n[0] - x0) < 0.05 and abs(n[2] - x1) < 0.05 and
                   abs(n[1] - y) < 0.05 and abs(n[3] - y) < 0.05 for n, _ in self.strokes)


UNITS = {"": 1, "k": 1e3, "M": 1e6, "G": 1e9, "T": 1e12, "P": 1e15, "E": 1e18}
TIME = {"ns": 1, "µs": 1e3, "us": 1e3, "ms": 1e6, "s": 1e9}


def axis_scale(svg):
    """Value -> x from the tick labels (a reader's scale): slope, intercept, last tick."""
    pts = []
    for t in svg.marks("text-box"):
        s = t["data-text"]
        m = re.fullmatch(r"(\d+(?:\.\d+)?)([kMGTPE]?)", s) or re.fullmatch(r"(\d+(?:\.\d+)?) (ns|µs|us|ms|s)", s)
        if m:
            unit = UNITS.get(m.group(2), TIME.get(m.group(2)))
            pts.append((float(m.group(1)) * unit, t["x"] + t["width"] / 2, t["y"]))
    ybase = max(set(p[2] for p in pts), key=lambda y: sum(1 for p in pts if p[2] == y))
    pts = [p for p in pts if p[2] == ybase]
    expect(len(pts) >= 3, f"only {len(pts)} tick labels")
    n = len(pts)
    mx, my = sum(p[0] for p in pts) / n, sum(p[1] for p in pts) / n
    k = sum((p[0] - mx) * (p[1] - my) for p in pts) / sum((p[0] - mx) ** 2 for p in pts)
    x0 = my - k * mx
    worst = max(abs(x0 + k * p[0] - p[1]) for p in pts)
    expect(worst < 0.5, f"tick labels are not on a linear axis (off by {worst:.2f} px)")
    return k, x0, max(p[0] for p in pts)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--value", default="period")
    ap.add_argument("--alpha", type=float, default=0.05)
    ap.add_argument("event")
    ap.add_argument("bar")
    ap.add_argument("circle")
    ap.add_argument("compare")
    ap.add_argument("sides", nargs="+")
    a = ap.parse_args()
    col = 0 if a.value == "samples" else 1
    labels = [s.split("=", 1)[0] for s in a.sides]
    sides = [Side(s.split("=", 1)[0], s.split("=", 1)[1].split(","), a.event, col) for s in a.sides]
    K = len(sides)
    rows = read_compare(a.compare, labels, a.event)
    expect(rows, "no rows in the CSV")
    bar, circle = Svg(a.bar), Svg(a.circle)

    # groups of K bars, the CSV's rows in order, sides top to bottom
    bars = bar.marks("bar")
    expect(len(bars) == K * len(rows), f"{len(bars)} bars for {len(rows)} rows of {K} sides")
    for i, (sym, per) in enumerate(rows):
        group = bars[K * i:K * i + K]
        for s, b in enumerate(group):
            expect(int(b["data-side"]) == s, f"{sym}: bar {s} is of side {b['data-side']}")
            expect(b["title"].split("\n")[0] == sym, f"row {i}: bar of {b['title'].splitlines()[0]!r}, CSV {sym!r}")
            want = sides[s].mean(sym)
            expect(abs(b["data-value"] - want) <= 5e-4 + 1e-9 * want,
                   f"{sym}: {labels[s]}'s bar {b['data-value']}, its runs' mean {want}")
            if s:
                csvp = int(per[s]["guest_period" if K == 2 else "side_period"] if col else
                           per[s]["guest_samples" if K == 2 else "side_samples"])
                expect(abs(csvp / len(sides[s].runs) - b["data-value"]) <= 5e-4 + 1e-9 * want,
                       f"{sym}: {labels[s]}'s bar is not the CSV's sum over its runs")
        expect(all(group[s]["y"] < group[s + 1]["y"] for s in range(K - 1)), f"{sym}: bars not in side order")

    # the legend: sides left to right (line by line), each with its swatch
    texts = bar.marks("text-box")
    legend, hue = [], {}
    def swatch(t):
        """A 12-unit square filled 18 units before the text, beside it."""
        return next((c for n, c in bar.fills if len(n) >= 8 and abs(min(n[0:8:2]) - (t["x"] - 18)) < 0.01 and
                     abs(max(n[0:8:2]) - min(n[0:8:2]) - 12) < 0.01 and
                     abs(max(n[1:8:2]) - min(n[1:8:2]) - 12) < 0.01 and
                     t["y"] - 2 <= min(n[1:8:2]) <= t["y"] + t["height"]), None)
    for s, lab in enumerate(labels):
        t = [(t, swatch(t)) for t in texts if t["data-text"].startswith(lab + ": ")]
        t = [x for x in t if x[1]]
        if not expect(len(t) == 1, f"legend of {lab}: {len(t)} entries with a swatch"):
            continue
        legend.append((t[0][0]["y"], t[0][0]["x"], s))
        hue[s] = t[0][1]
    expect([s for _, _, s in sorted(legend)] == list(range(K)), f"legend order {sorted(legend)}")
    expect(len(set(hue.values())) == K, f"the sides' colours are not distinct: {hue}")
    if K <= 3 and len(hue) == K:
        L = sorted(lightness(c) for c in hue.values())
        expect(min(b - a for a, b in zip(L, L[1:])) >= 8, f"side colours alike in greyscale: L* {L}")
    expect(any(f"not significant at q < {a.alpha:g}" in t["data-text"] for t in texts),
           "the legend does not say what pale means")

    # coloured when significant, pale when not
    for i, (sym, per) in enumerate(rows):
        sig = {s: per[s]["significant"] == "1" for s in per}
        sig[0] = any(sig.values())
        for s in range(K):
            b = bars[K * i + s]
            if b["width"] < 2:
                continue
            c = bar.fill_of_rect(b["x"], b["y"], b["width"], b["height"])
            if not expect(c is not None, f"{sym}: {labels[s]}'s bar not drawn where the data says"):
                continue
            h = hue.get(s)
            if sig[s]:
                expect(c == h, f"{sym}: {labels[s]} significant but drawn {c}, not its colour {h}")
            elif h:
                expect(c != h and lightness(c) >= lightness(h) + 8 and chroma(c) < 0.2,
                       f"{sym}: {labels[s]} not significant but drawn {c} (its colour {h})")

    # whiskers: the intervals, on the axis the tick labels give
    k, x0, last = axis_scale(bar)
    whiskers = bar.marks("whisker")

    def interval(sym, s):
        per = next((p for r, p in rows if r == sym), None)
        base = sides[0].mean(sym)
        if s and base > 0 and per and per[s]["ratio_low"] not in ("", "nan"):
            return base * float(per[s]["ratio_low"]), base * float(per[s]["ratio_high"])
        return sides[s].mean_interval(sym, a.alpha)
    # a bar of nothing with an interval of nothing ([0, 0]: a side without
    # the function) has no whisker to draw
    want_w = sum(1 for r, _ in rows for s in range(K) if sides[s].mean(r) > 0 or interval(r, s)[1] > 0)
    expect(len(whiskers) == want_w, f"{len(whiskers)} whiskers for {len(bars)} bars, want {want_w}")
    for w in whiskers:
        sym = w["title"].split("\n")[0]
        s = int(w["data-side"])
        lo, hi = interval(sym, s)
        tol = 2e-3 + 1e-9 * max(abs(lo), abs(hi) if math.isfinite(hi) else 0)
        expect(abs(w["data-low"] - lo) <= tol and (w["data-high"] == hi or abs(w["data-high"] - hi) <= tol),
               f"{sym}: {labels[s]}'s whisker [{w['data-low']}, {w['data-high']}], want [{lo}, {hi}]")
        clipped = hi > last
        expect((int(w["data-clipped"]) & 2 != 0) == clipped, f"{sym}: {labels[s]}'s whisker clipped flag")
        xl, xh = x0 + k * lo, x0 + k * min(hi, last)
        expect(abs(w["x"] - xl) <= 0.6 and abs(w["x"] + w["width"] - xh) <= 0.6,
               f"{sym}: {labels[s]}'s whisker at x {w['x']:.2f}..{w['x'] + w['width']:.2f}, "
               f"the axis puts [{lo:.1f}, {hi:.1f}] at {xl:.2f}..{xh:.2f}")
        expect(bar.stroke_from(w["x"], w["x"] + w["width"], w["y"] + w["height"] / 2),
               f"{sym}: {labels[s]}'s whisker is not drawn")

    # tooltips, desc, subtitle
    for b in bars:
        sym, t = b["title"].split("\n")[0], b["title"]
        per = next((p for r, p in rows if r == sym), {})
        for s, lab in enumerate(labels):
            expect(f"\n{lab}: " in t, f"{sym}: tooltip lacks {lab}'s values")
            if s and s in per:
                q = float(per[s]["q_value"])
                verdict = "significant" if per[s]["significant"] == "1" else "not significant"
                expect(f"\n{lab}/{labels[0]}: " in t and f"q {q:.3g}: {verdict} at q < {a.alpha:g}" in t,
                       f"{sym}: tooltip lacks {lab}/{labels[0]} with q {q:.3g} ({verdict}): {t!r}")
        expect(f"\n{sym} [" in bar.desc, f"{sym} not in the <desc>")
    every = set().union(*(s.symbols() for s in sides))
    cover = ", ".join(f"{100 * sum(sd.share(r) for r, _ in rows):.0f}% of {sd.label}" for sd in sides)
    want = f"top {len(rows)} of {len(every)} functions ({cover})"
    expect(any(t["data-text"].startswith(want) for t in texts), f"no subtitle '{want}'")
    n = [len(sd.runs) for sd in sides]
    runs = ("one run per side" if n[0] == 1 else f"{n[0]} runs per side") if len(set(n)) == 1 else \
        "runs per side: " + ", ".join(f"{sd.label} {len(sd.runs)}" for sd in sides)
    expect(any(t["data-text"].startswith(runs + "; ") for t in texts), f"no '{runs}' line")
    if min(n) == 1:
        expect(any("from sampling noise alone" in t["data-text"] for t in texts),
               "a side of one run, and the chart does not say its intervals are sampling noise")

    # the donuts: one per side, the same order, the CSV's first rows and other
    order = {}
    for sl in circle.marks("slice"):
        order.setdefault(int(sl["data-side"]), []).append(sl["title"].split("\n")[0])
    expect(sorted(order) == list(range(K)), f"donuts of sides {sorted(order)}")
    for s, names in order.items():
        # the first rows, each where the side has some of it (no slice of nothing)
        named = [r for r, _ in rows][:6]
        named = [r for r in named if sides[s].mean(r) > 0]
        got = [x for x in names if not x.startswith("other: ")]
        expect(got == named, f"{labels[s]}'s donut: slices {got}, want {named}")
        expect(len(names) - len(got) <= 1 and (len(names) == len(got) or names[-1].startswith("other: ")),
               f"{labels[s]}'s donut: other is not one last slice")

    for b in bad:
        print("chart_check:", b, file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
