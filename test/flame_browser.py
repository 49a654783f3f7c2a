#!/usr/bin/env python3
"""A vmprof flame graph SVG in a real browser (test/browser.py): it loads with
no console errors and runs no script but its own, a click on a frame zooms
(the frame takes the full width, unrelated frames hide; Escape resets), and
a search highlights exactly the frames whose names match and reports their
total, each stack once. Also a flame graph inside vmprof's HTML report
(--graph N: the page's N-th, from 0): while it is zoomed and searched, every
other graph on the page stays as it was (the graphs share one script and
must not share ids or state).

Usage: flame_browser.py SVG|HTML WORKDIR [--click NAME] [--search TERM TOTAL]
                        [--screenshot PNG] [--hostile] [--graph N]

--click NAME: zoom into the lowest frame named NAME. --search TERM TOTAL: the
status must report TOTAL (the oracle's: the summed counts of the folded
stacks with a frame matching TERM). --hostile: names in the file try to
inject markup and script; none may run. Exit 77 when no browser can run.
"""
import argparse
import re
import sys

sys.path.insert(0, __import__("os").path.dirname(__file__))
from browser import Browser, NoBrowser  # noqa: E402

# the graph under test (arguments[0]: its index on the page) and its <svg>
ROOT = "var root = document.querySelectorAll('g.vp-flame')[arguments[0]], svg = root.ownerSVGElement;"
FRAMES = ROOT + """
return Array.from(root.querySelectorAll('g.vp-frame')).map(function (g) {
    var r = g.querySelector('rect.vp-box');
    return {name: g.getAttribute('data-name'), depth: +g.getAttribute('data-depth'),
            x: +r.getAttribute('x'), w: +r.getAttribute('width'),
            shown: getComputedStyle(g).display !== 'none',
            match: g.classList.contains('vp-match')};
});
"""
# every other graph: its frames' geometry, shown and highlighted
OTHERS = """
var all = document.querySelectorAll('g.vp-flame'), out = [];
for (var i = 0; i < all.length; i++) {
    if (i === arguments[0]) continue;
    out.push(Array.from(all[i].querySelectorAll('g.vp-frame')).map(function (g) {
        var r = g.querySelector('rect.vp-box');
        return [r.getAttribute('x'), r.getAttribute('width'), getComputedStyle(g).display,
                g.classList.contains('vp-match')];
    }));
}
return out;
"""


def fail(msg):
    print(f"FAIL: {msg}", file=sys.stderr)
    sys.exit(1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("svg")
    ap.add_argument("workdir")
    ap.add_argument("--click")
    ap.add_argument("--search", nargs=2, metavar=("TERM", "TOTAL"))
    ap.add_argument("--screenshot")
    ap.add_argument("--hostile", action="store_true")
    ap.add_argument("--graph", type=int)
    a = ap.parse_args()
    page = a.graph is not None
    n = a.graph or 0

    def js(script, *args):
        return b.js(script, n, *args)

    def others_same(when):
        if page and js(OTHERS) != others0:
            fail(f"{when} changed another flame graph on the page")

    try:
        b = Browser(a.workdir)
    except NoBrowser as e:
        print(f"no browser: {e}")
        sys.exit(77)
    with b:
        b.open(a.svg)
        errors = b.console_errors()
        if errors:
            fail(f"console errors on load: {errors}")
        if js("return document.querySelectorAll('g.vp-flame').length") <= n:
            fail(f"no flame graph {n} on the page")
        plot = js(ROOT + "return [+root.getAttribute('data-plot-x'), +root.getAttribute('data-plot-w')];")
        frames = js(FRAMES)
        if not frames:
            fail("no frames in the page")
        others0 = js(OTHERS)
        if page and not others0:
            fail("one flame graph on the page: nothing to clash with (test is vacuous)")
        scripts = b.js("return document.querySelectorAll('script').length")
        if scripts != 1 and not page:
            fail(f"{scripts} script elements, want vmprof's one")
        if a.hostile:
            injected = b.js("return [window.vpPwned, document.querySelectorAll("
                            "'img,iframe,object,embed').length]")
            if injected[0] is not None or injected[1]:
                fail(f"a name from the file ran or made markup: {injected}")
            if not any("<" in (f["name"] or "") for f in frames):
                fail("no hostile name reached the page (test is vacuous)")
        print(f"# loaded: {len(frames)} frames, no console errors")

        if a.click:
            cands = [f for f in frames if f["name"] == a.click]
            if not cands:
                fail(f"no frame named {a.click!r}")
            t = min(cands, key=lambda f: (f["depth"], f["x"]))
            if abs(t["w"] - plot[1]) < 1:
                fail(f"{a.click!r} is already full width: the zoom would prove nothing")
            el = js(ROOT + "var gs = root.querySelectorAll('g.vp-frame');"
                    "for (var i = 0; i < gs.length; i++) { var g = gs[i], r = g.querySelector('rect.vp-box');"
                    " if (g.getAttribute('data-name') === arguments[1] && +g.getAttribute('data-depth') === arguments[2]"
                    " && Math.abs(+r.getAttribute('x') - arguments[3]) < 0.001) return r; } return null;",
                    t["name"], t["depth"], t["x"])
            b.click(el)
            after = js(FRAMES)
            z = [f for f in after if f["name"] == t["name"] and f["depth"] == t["depth"] and f["shown"]]
            if len(z) != 1 or abs(z[0]["w"] - plot[1]) > 0.01 or abs(z[0]["x"] - plot[0]) > 0.01:
                fail(f"after the click {a.click!r} is {z}, want x {plot[0]} width {plot[1]}")
            # frames beside it (neither above nor below) are hidden
            beside = [f for f0, f in zip(frames, after)
                      if f0["x"] + f0["w"] <= t["x"] - 0.01 or f0["x"] >= t["x"] + t["w"] + 0.01]
            if not beside or any(f["shown"] for f in beside):
                fail(f"frames beside the zoomed one: {len(beside)}, shown "
                     f"{sum(f['shown'] for f in beside)} (want some, none shown)")
            if not js(ROOT + "return svg.querySelector('.vp-reset').getAttribute('visibility') === 'visible'"):
                fail("no reset button after zooming")
            others_same("zooming")
            b.key("\ue00c")  # Escape
            back = js(FRAMES)
            if [(f["x"], f["w"]) for f in back] != [(f["x"], f["w"]) for f in frames] or \
                    not all(f["shown"] for f in back):
                fail("Escape did not restore the full view")
            print(f"# zoom: {a.click!r} (width {t['w']:.1f}) took the full width {plot[1]:.1f}; "
                  f"{len(beside)} frames beside it hid; Escape restored")

        if a.search:
            term, total = a.search
            box = js(ROOT + "return svg.querySelector('.vp-search');")
            if not box:
                fail("no search box")
            b.type(box, term)
            after = js(FRAMES)
            want = [bool(re.search(term, f["name"] or "")) for f in after]
            got = [f["match"] for f in after]
            if got != want or not any(want):
                fail(f"highlighted {sum(got)} frames, {sum(want)} match {term!r}")
            others_same("searching")
            st = js(ROOT + "var s = svg.querySelector('.vp-status');"
                      "return [s.textContent, s.getAttribute('data-total'), s.getAttribute('data-matches')];")
            if st[1] != total or int(st[2]) != sum(want):
                fail(f"search status {st}, want total {total} and {sum(want)} matches")
            print(f"# search {term!r}: {sum(want)} frames highlighted, total {total}: {st[0]}")
            if a.screenshot:  # the search's highlight, for a person to look at
                b.screenshot(a.screenshot)
                a.screenshot = None
            b.key("\ue00c")
            if any(f["match"] for f in js(FRAMES)):
                fail("Escape left frames highlighted")

        if a.screenshot:
            b.screenshot(a.screenshot)
        errors = b.console_errors()
        if errors:
            fail(f"console errors while interacting: {errors}")
        if a.hostile and b.js("return window.vpPwned") is not None:
            fail("a name from the file ran script")


if __name__ == "__main__":
    main()
