#!/usr/bin/env python3
"""Hold vmprof's HTML report (vmprof chart --format html) against a real
browser and against vmprof compare --format csv for the same inputs.

In headless Chromium (test/browser.py): the page loads with no console error,
makes no request (no resource entries, a CSP that forbids everything outside
the page), opens no alert and has no element or event handler but its own;
every table row holds the CSV's numbers (parsed from the rendered DOM, in
the CSV's order); a click on a column heading sorts the rows by that column
(the order computed here from the CSV, not read from the page), a second
click reverses it, and Enter or Space on a heading reached with Tab does the
same; typing in the filter hides the rows whose name does not contain it;
the SVG charts are there, drawn, and their glyph references resolve inside
their own chart; at 1280 and 375 px wide nothing overflows the page; dark
mode and print styles apply. Screenshots at both widths go to SHOTDIR.

Usage: html_report_check.py PAGE COMPARE.csv SHOTDIR NAME [--names FILE] [--nosort]
                            [--split TIME.csv] [--flames N]
  --names FILE: names (one a line) that must show as text, exactly, somewhere
  in the page (hostile inputs).
  --split TIME.csv: the headline has a table of where the time went per side
  with the numbers of compare --time-split --format csv (every measured part,
  in its order), and its waterfall chart drawn inline beside it.
  --flames N: N flame graphs inline (one per event with call stacks), each
  with its frames drawn, run by the page's one copy of the flame script.
Exit 0 when all holds, 1 with the reasons, 77 when there is no browser."""
import csv
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from browser import Browser, NoBrowser  # noqa: E402
from perf_agree import csv_symbol  # noqa: E402

problems = []


def bad(msg):
    problems.append(msg)
    print("FAIL:", msg, file=sys.stderr)


def sort_key(v):
    """The order a heading's first click must give, from the CSV text."""
    if v == "only guest":
        return float("inf")
    if v == "only host":
        return 0.0
    if v == "":
        return None
    return float(v)


def expected_order(rows, col, numeric, desc):
    """Row ranks (1-based CSV order) sorted as the page must sort them: by the
    column, ties by rank; numbers without a value last either way."""
    keyed = [(sort_key(r[col]) if numeric else r[col], i + 1) for i, r in enumerate(rows)]
    have = [k for k in keyed if k[0] is not None]
    none = [k for k in keyed if k[0] is None]
    have.sort(key=lambda k: k[1])
    have.sort(key=lambda k: k[0], reverse=desc)
    return [k[1] for k in have] + [k[1] for k in sorted(none, key=lambda k: k[1])]


READ_TABLE = """
const t = arguments[0];
const heads = Array.from(t.tHead.rows[0].cells).map(th => ({col: th.getAttribute('data-col'),
  side: th.getAttribute('data-side'), label: th.getAttribute('data-label')}));
return Array.from(t.tBodies[0].rows).map(tr => ({
  rank: Number(tr.getAttribute('data-rank')), hidden: tr.hidden,
  cells: Array.from(tr.cells).map((c, i) => ({col: heads[i].col, side: heads[i].side,
    label: heads[i].label, v: c.getAttribute('data-v'), low: c.getAttribute('data-low'),
    high: c.getAttribute('data-high'), p: c.getAttribute('data-p'), text: c.textContent}))}));
"""


def page_rows(b, table):
    return b.js(READ_TABLE, table)


def fields(row, side):
    """The CSV line(s) a page row stands for, as the CSV names its columns: with
    two sides every cell; with K > 2, the baseline's and side's cells (the
    heading's data-side) and the side's label."""
    out = {}
    for c in row["cells"]:
        if not c["col"] or (c["side"] is not None and int(c["side"]) not in (0, side)):
            continue
        v = c["v"] if c["v"] is not None else c["text"]
        out[c["col"]] = v
        if c["label"] is not None:
            out["side"] = c["label"]
        if c["low"] is not None:
            out[c["col"] + "_low"] = c["low"]
        if c["high"] is not None:
            out[c["col"] + "_high"] = c["high"]
        if c["p"] is not None:
            out["p_value"] = c["p"]
    return out


UNITS = {"ns": 1, "us": 1e3, "\u00b5s": 1e3, "ms": 1e6, "s": 1e9}


def shows(text, exact):
    """A count is its digits (grouped by narrow spaces); a time ("16.50 ms")
    is the exact nanoseconds rounded to the decimals shown in its unit."""
    t = text.replace("\u202f", "")
    if t == exact:
        return True
    parts = t.split()
    if len(parts) != 2 or parts[1] not in UNITS:
        return False
    decimals = len(parts[0].split(".")[1]) if "." in parts[0] else 0
    unit = UNITS[parts[1]]
    return abs(float(parts[0]) * unit - float(exact)) <= 0.5 * 10 ** -decimals * unit * 1.000001


def check_numbers(event, got, want):
    nsides = 1 + max([int(c["side"]) for c in got[0]["cells"] if c["side"] is not None] or [1]) \
        if got else 2
    lines = [(g, fields(g, s)) for g in got for s in range(1, nsides)]
    if len(lines) != len(want):
        bad(f"{event}: {len(lines)} lines in the page, {len(want)} in the CSV")
        return
    for i, ((g, f), w) in enumerate(zip(lines, want)):
        for col in w:
            if col == "event":
                continue
            if col not in f:
                bad(f"{event}: no column {col} in the page")
                return
            # the CSV's symbol carries its guard against formulas ('@plt)
            want_v = csv_symbol(w[col]) if col == "symbol" else w[col]
            if f[col] != want_v:
                bad(f"{event} line {i + 1} {col}: page '{f[col]}', CSV '{w[col]}'")
        # what a person reads says the same number
        cells = {(c["col"], c["side"]): c for c in g["cells"] if c["col"]}
        for (col, side), c in cells.items():
            if col.endswith(("_samples", "_period")) and not shows(c["text"], c["v"]):
                bad(f"{event} row {i + 1} {col}: shows '{c['text']}' for {c['v']}")
            if col.endswith("_share") and c["text"] != "%.2f%%" % (100 * float(c["v"])):
                bad(f"{event} row {i + 1} {col}: shows '{c['text']}' for {c['v']}")


def ranks(b, table):
    return [r["rank"] for r in page_rows(b, table)]


def aria(b, th):
    return b.js("return arguments[0].getAttribute('aria-sort')", th)


def check_sorting(b, table, event, want):
    heads = b.js("return Array.from(arguments[0].tHead.rows[0].cells)", table)
    by_col = {b.js("return arguments[0].getAttribute('data-col')", th): th for th in heads}
    # pointer clicks: numbers largest first, then reversed
    for col in ("host_samples", "guest_share", "ratio", "delta"):
        th = by_col[col]
        b.click(th.find_element("css selector", "button"))
        if ranks(b, table) != expected_order(want, col, True, True):
            bad(f"{event}: a click on {col} did not sort largest first: {ranks(b, table)[:12]}")
        if aria(b, th) != "descending":
            bad(f"{event}: {col} sorted but aria-sort is {aria(b, th)}")
        b.click(th.find_element("css selector", "button"))
        if ranks(b, table) != expected_order(want, col, True, False):
            bad(f"{event}: a second click on {col} did not reverse the order")
        if aria(b, th) != "ascending":
            bad(f"{event}: {col} reversed but aria-sort is {aria(b, th)}")
        others = [h for h in heads if h != th and aria(b, h)]
        if others:
            bad(f"{event}: aria-sort left on another column")
    # the keyboard: Tab from the filter to the headings, Enter on Function, Space on dso
    from selenium.webdriver.common.keys import Keys
    box = b.js("return arguments[0].closest('section').querySelector('input.filter')", table)
    b.js("arguments[0].focus()", box)
    target = by_col["symbol"].find_element("css selector", "button")
    for _ in range(6):
        b.key(Keys.TAB)
        if b.js("return document.activeElement === arguments[0]", target):
            break
    else:
        bad(f"{event}: Tab from the filter never reaches the Function heading")
        b.js("arguments[0].focus()", target)
    b.key(Keys.ENTER)
    if ranks(b, table) != expected_order(want, "symbol", False, False):
        bad(f"{event}: Enter on Function did not sort by name")
    b.key(Keys.TAB)
    b.key(Keys.SPACE)
    if ranks(b, table) != expected_order(want, "dso", False, False):
        bad(f"{event}: Space on Object did not sort by object")
    # # gives the ranked order back
    b.click(heads[0].find_element("css selector", "button"))
    if ranks(b, table) != list(range(1, len(want) + 1)):
        bad(f"{event}: a click on # did not restore the ranked order")


def check_filter(b, table, event, want):
    box = b.js("return arguments[0].closest('section').querySelector('input.filter')", table)
    count = b.js("return document.getElementById(arguments[0].getAttribute('data-count'))", table)
    names = [r["symbol"] or "[unknown]" for r in want]
    # a piece of the longest name that some rows lack, typed for real
    probe = None
    for n in sorted(set(names), key=len, reverse=True):
        for cut in (n[:3], n[-3:], n[1:4]):
            k = sum(cut.lower() in m.lower() for m in names)
            if cut.strip() and 0 < k < len(names):
                probe = cut
                break
        if probe:
            break
    if probe is None:
        return
    b.type(box, probe)
    shown = sorted(r["rank"] for r in page_rows(b, table) if not r["hidden"])
    expect = [i + 1 for i, n in enumerate(names) if probe.lower() in n.lower()]
    if shown != expect:
        bad(f"{event}: filter '{probe}' shows rows {shown[:10]}, want {expect[:10]}")
    text = b.js("return arguments[0].textContent", count)
    if text != f"{len(expect)} of {len(names)} functions shown":
        bad(f"{event}: the count says '{text}' after filtering '{probe}'")
    b.js("arguments[0].value = ''; arguments[0].dispatchEvent(new Event('input'))", box)
    if any(r["hidden"] for r in page_rows(b, table)):
        bad(f"{event}: rows stay hidden once the filter is empty")


CHARTS = """
const out = [];
for (const svg of document.querySelectorAll('section.event figure.chart > .scroll > svg, #headline figure.chart > .scroll > svg')) {
  const r = svg.getBoundingClientRect();
  let broken = 0, uses = 0;
  for (const u of svg.querySelectorAll('use')) {
    uses++;
    const h = u.getAttribute('xlink:href') || u.getAttribute('href') || '';
    const t = h.startsWith('#') ? document.getElementById(h.slice(1)) : null;
    if (!t || !svg.contains(t)) broken++;
  }
  out.push({w: r.width, h: r.height, shapes: svg.querySelectorAll('path,rect,use').length,
            uses: uses, broken: broken,
            bars: svg.querySelectorAll('.bar').length, slices: svg.querySelectorAll('.slice').length,
            frames: svg.querySelectorAll('g.vp-flame g.vp-frame').length,
            flame: svg.querySelector('g.vp-flame') !== null, event: svg.closest('section').id});
}
return out;
"""

# the page's own scripts are the body's last children: report.js, then the
# flame graph's when the page has flame graphs
FOREIGN = """
const own = Array.from(document.body.children).filter(e => e.localName === 'script');
const out = {scripts: document.scripts.length, own: own.length, handlers: [], tags: []};
for (const el of document.querySelectorAll('*')) {
  for (const a of el.attributes) if (/^on/i.test(a.name)) out.handlers.push(el.tagName + ' ' + a.name);
  if (/^(img|iframe|object|embed|b|link|base|form|video|audio|source)$/i.test(el.localName) ||
      (el.localName === 'script' && !own.includes(el)))
    out.tags.push(el.localName);
}
return out;
"""

SPLIT = """
return Array.from(document.querySelectorAll('#headline table.split')).map(t => ({
  side: t.getAttribute('data-side'),
  heads: Array.from(t.tHead.rows[0].cells).map(th => th.getAttribute('data-col')),
  rows: Array.from(t.tBodies[0].rows).map(tr => ({part: tr.getAttribute('data-part'),
    cells: Array.from(tr.cells).map(c => ({v: c.getAttribute('data-v'), low: c.getAttribute('data-low'),
      high: c.getAttribute('data-high'), text: c.textContent}))}))}));
"""


def check_split(b, path):
    """The headline's tables against compare --time-split --format csv."""
    with open(path, newline="", encoding="utf-8") as f:
        want = [r for r in csv.DictReader(f) if r["measured"] == "1"]
    tables = b.js(SPLIT)
    sides = []
    for r in want:
        if r["side"] not in sides:
            sides.append(r["side"])
    if [t["side"] for t in tables] != sides:
        bad(f"headline tables for {[t['side'] for t in tables]}, the CSV has {sides}")
        return 0
    for t in tables:
        rows = [r for r in want if r["side"] == t["side"]]
        if [g["part"] for g in t["rows"]] != [r["part"] for r in rows]:
            bad(f"headline {t['side']}: parts {[g['part'] for g in t['rows']]}, CSV "
                f"{[r['part'] for r in rows]}")
            continue
        for g, r in zip(t["rows"], rows):
            cells = dict(zip(t["heads"], g["cells"]))
            for col in ("baseline", "value", "delta", "gap_share"):
                if cells[col]["v"] != r[col]:
                    bad(f"headline {t['side']} {r['part']} {col}: page '{cells[col]['v']}', "
                        f"CSV '{r[col]}'")
            if "delta_lo" in cells:
                got = (cells["delta_lo"]["low"] or "", cells["delta_lo"]["high"] or "")
                if got != (r["delta_lo"], r["delta_hi"]):
                    bad(f"headline {t['side']} {r['part']}: interval {got}, CSV "
                        f"({r['delta_lo']}, {r['delta_hi']})")
            elif r["delta_lo"]:
                bad(f"headline {t['side']}: the CSV has intervals, the page none")
            # what a person reads is that time in a unit, to the digits shown
            # (and the CSV's, microseconds)
            num, unit = (cells["value"]["text"].split() + ["", ""])[:2]
            decimals = len(num.split(".")[1]) if "." in num else 0
            scale = UNITS.get(unit, float("nan"))
            err = abs(float(num) * scale - float(r["value"]) * 1e9)
            if not err <= (0.5 * 10 ** -decimals + 1e-9) * scale + 500:
                bad(f"headline {t['side']} {r['part']}: shows '{cells['value']['text']}' for "
                    f"{r['value']} s")
    return len(tables)


def check_page(b, name, width, shotdir):
    b.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                             {"width": width, "height": 900, "deviceScaleFactor": 1,
                              "mobile": width < 600})
    sw = b.js("return document.documentElement.scrollWidth")
    if sw > width:
        bad(f"at {width} px the page is {sw} px wide: something overflows")
    wide = b.js("""return Array.from(document.body.querySelectorAll('*')).filter(e =>
        !e.closest('.scroll') && e.getBoundingClientRect().right > window.innerWidth + 1)
        .map(e => e.tagName + '.' + e.className).slice(0, 5)""")
    if wide:
        bad(f"at {width} px these stick out of the page: {wide}")
    h = b.js("return document.documentElement.scrollHeight")
    b.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                             {"width": width, "height": min(h, 6000), "deviceScaleFactor": 1,
                              "mobile": width < 600})
    b.screenshot(os.path.join(shotdir, f"{name}-{width}.png"))
    b.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                             {"width": width, "height": 900, "deviceScaleFactor": 1,
                              "mobile": width < 600})


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    page, csv_path, shotdir, name = args[:4]
    names = []
    if "--names" in sys.argv:
        names = open(sys.argv[sys.argv.index("--names") + 1], encoding="utf-8").read().splitlines()
    with open(csv_path, newline="", encoding="utf-8") as f:
        want = list(csv.DictReader(f))
    events = []
    for r in want:
        if r["event"] not in events:
            events.append(r["event"])
    tmp = tempfile.mkdtemp(prefix="browser-", dir=os.environ.get("WORK"))
    try:
        b = Browser(tmp, width=1280, height=900)
    except NoBrowser as e:
        print(f"no browser: {e}")
        return 77
    with b:
        b.open(page)
        from selenium.common.exceptions import NoAlertPresentException
        try:
            alert = b.driver.switch_to.alert
            bad(f"the page opened an alert: {alert.text}")
            alert.dismiss()
        except NoAlertPresentException:
            pass
        errors = b.console_errors()
        if errors:
            bad(f"console errors: {errors[:3]}")
        res = b.js("return performance.getEntriesByType('resource').map(e => e.name)")
        if res:
            bad(f"the page requested {res[:5]}")
        csp = b.js("const m = document.querySelector('meta[http-equiv=\"Content-Security-Policy\"]');"
                   "return m ? m.content : ''")
        if "default-src 'none'" not in csp or "unsafe-inline" in csp.split("script-src")[1].split(";")[0]:
            bad(f"no CSP that forbids outside loads and foreign script: '{csp}'")
        foreign = b.js(FOREIGN)
        flames = int(sys.argv[sys.argv.index("--flames") + 1]) if "--flames" in sys.argv else 0
        if foreign["scripts"] != foreign["own"] or foreign["own"] != 1 + (flames > 0) or \
                foreign["handlers"] or foreign["tags"]:
            bad(f"elements or handlers the page did not write: {foreign}")
        text = b.js("return document.body.textContent")
        for n in names:
            if n not in text:
                bad(f"the name {n!r} does not show as text")
        tables = b.find("table.cmp")
        if len(tables) != len(events):
            bad(f"{len(tables)} comparison tables for {len(events)} events")
        for table, event in zip(tables, events):
            rows = [r for r in want if r["event"] == event]
            got = b.js("return arguments[0].getAttribute('data-event')", table)
            if got != event:
                bad(f"table for '{got}' where the CSV has '{event}'")
            check_numbers(event, page_rows(b, table), rows)
            if "--nosort" not in sys.argv:
                check_sorting(b, table, event, rows)
                check_filter(b, table, event, rows)
        charts = b.js(CHARTS)
        per_event = [c for c in charts if c["event"] != "headline" and not c["flame"]]
        if len(per_event) != 2 * len(events):
            bad(f"{len(per_event)} charts for {len(events)} events (a bar and a circle each)")
        splits = check_split(b, sys.argv[sys.argv.index("--split") + 1]) if "--split" in sys.argv else 0
        waterfalls = [c for c in charts if c["event"] == "headline"]
        if len(waterfalls) != splits:
            bad(f"{len(waterfalls)} waterfall charts in the headline for {splits} split tables")
        drawn = [c for c in charts if c["flame"]]
        if len(drawn) != flames:
            bad(f"{len(drawn)} flame graphs on the page, want {flames}")
        for c in drawn:
            if c["frames"] < 3:
                bad(f"the flame graph of {c['event']} has {c['frames']} frames")
        if len({c["event"] for c in drawn}) != len(drawn):
            bad("two flame graphs in one event's section")
        for c in charts:
            if c["w"] < 100 or c["h"] < 100 or c["shapes"] < 10:
                bad(f"an empty or unsized chart in {c['event']}: {c}")
            if c["broken"]:
                bad(f"{c['broken']} of {c['uses']} glyph references in a chart of {c['event']} "
                    "point outside it")
            if c["bars"] + c["slices"] == 0 and c["event"] != "headline" and not c["flame"]:
                bad(f"a chart of {c['event']} has no bars or slices")
        for width in (1280, 375):
            check_page(b, name, width, shotdir)
        # dark mode and print
        bg = b.js("return getComputedStyle(document.body).backgroundColor")
        b.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [
            {"name": "prefers-color-scheme", "value": "dark"}]})
        dark = b.js("return getComputedStyle(document.body).backgroundColor")
        b.screenshot(os.path.join(shotdir, f"{name}-dark.png"))
        if dark == bg:
            bad(f"dark mode leaves the background {bg}")
        b.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "print", "features": []})
        nav = b.js("return getComputedStyle(document.querySelector('nav')).display")
        if nav != "none":
            bad("print keeps the navigation")
        errors = b.console_errors()
        if errors:
            bad(f"console errors while in use: {errors[:3]}")
    if problems:
        return 1
    print(f"ok: {len(tables)} tables, {sum(len([r for r in want if r['event'] == e]) for e in events)} "
          f"rows, {len(charts)} charts ({splits} waterfalls, {len(drawn)} flame graphs)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
