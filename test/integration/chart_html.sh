#!/usr/bin/env bash
# vmprof chart --format html in a real browser (headless Chromium through
# selenium: test/html_report_check.py says what it checks): the page loads
# with no console error and no request, its tables hold compare --format
# csv's numbers, sort on a click or Enter/Space on a heading and filter by
# name, its charts are drawn; sides of several runs show compare's intervals,
# q and verdicts, and three sides each against the baseline; names that are
# markup and script, from a crafted CSV and from a crafted perf.data, show as
# text and run nothing.
# The same inputs give the same bytes; a failure leaves no page. Screenshots
# at 1280 and 375 px go to build/screenshots/ for a person to look at.
source "$(dirname "$0")/../lib.sh"
F=$TOP/test/fixtures
S=(--symfs "$F/symfs" --kallsyms "$F/kallsyms")
SHOTS=$BUILD/screenshots
cd "$WORK"

# Debian's python3 has selenium (python3-selenium); another python3 first on
# PATH may not
PY=
for p in python3 /usr/bin/python3; do
	if command -v "$p" >/dev/null && "$p" -c 'import selenium' 2>/dev/null; then PY=$p; break; fi
done
[ -n "$PY" ] || skip "python3-selenium is not installed"
mkdir -p "$SHOTS"
check() {	# check NAME PAGE CSV [options]: the browser's verdict
	local name=$1 page=$2 csv=$3; shift 3
	set +e
	WORK=$WORK "$PY" "$TOP/test/html_report_check.py" "$page" "$csv" "$SHOTS" "$name" "$@" > check.out 2>&1
	local st=$?
	set -e
	cat check.out
	[ $st -eq 77 ] && skip "$(tail -1 check.out)"
	[ $st -eq 0 ] || fail "the $name page fails in the browser"
}

# 1. two perf.data files, one event: numbers, sorting, filter, charts
"$VMPROF_SAN" chart "${S[@]}" --format html -o rep "$F/weights.data" "$F/cxx.data" 2>err ||
	{ cat err; fail "chart --format html failed"; }
[ -s rep/index.html ] || fail "no rep/index.html"
ls rep | grep -qv '^index.html$' && fail "--format html wrote more than index.html: $(ls rep)"
"$VMPROF" compare "${S[@]}" --top 0 --format csv -o c.xml "$F/weights.data" "$F/cxx.data" > c.csv 2>/dev/null
check report rep/index.html c.csv

# the same bytes again, from the saved comparison and with other formats beside it
"$VMPROF" chart --format svg,html -o again c.xml 2>/dev/null || fail "chart --format svg,html failed"
cmp -s rep/index.html again/index.html || fail "the same comparison gave another page"
[ -s again/cpu-clock-bar.svg ] || fail "--format svg,html wrote no SVG"

# 2. several events, some on one side only (--nosort: sorting is checked above)
"$VMPROF" chart "${S[@]}" --format html -o multi "$F/multi.data" "$F/tracepoints.data" 2>/dev/null ||
	fail "chart of multi.data and tracepoints.data failed"
"$VMPROF" compare "${S[@]}" --top 0 --format csv -o m.xml "$F/multi.data" "$F/tracepoints.data" > m.csv 2>/dev/null
check multi multi/index.html m.csv --nosort

# 3. hostile names inside a perf.data (portable symbols, host name, hypervisor),
#    as a guest's file would carry them; recorded with -g, so the page holds
#    a flame graph of those names too
rec=$TOP/test/fuzz/corpus/perfdata/vmprof-record.data
python3 "$TOP/test/make_hostile_names.py" "$rec" bad.data > names.txt
"$VMPROF_SAN" chart --format html -o badrep "$rec" bad.data 2>/dev/null || fail "chart of the hostile perf.data failed"
"$VMPROF" compare --top 0 --format csv -o b.xml "$rec" bad.data > b.csv 2>/dev/null
grep -q '<script>alert' badrep/index.html && fail "a name reached the page as a script element"
check hostile-perfdata badrep/index.html b.csv --names names.txt --flames 1

# 4. hostile names in CSV tables: symbols, objects and an event name
python3 - <<'PY'
import csv
names = ["</script><script>alert(1)</script>", '"><img src=x onerror=alert(1)>',
         "std::vector<int, std::allocator<int> >::operator[](unsigned long) const",
         "a&b \"q\" 'p' <!-- -->", "=cmd|' /C calc'!A0", "plain"]
ev = 'ev"><svg onload=alert(6)>'
for side, mul in (("host", 3), ("guest", 5)):
    with open(f"{side}.csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["event", "symbol", "dso", "domain", "samples", "period", "share"])
        for i, n in enumerate(names):
            s = (i + 1) * mul + (7 if side == "guest" and i == 2 else 0)
            w.writerow([ev, n, "<i>lib</i>.so", ".", s, s * 1000, 0])
with open("csvnames.txt", "w") as f:
    f.write("\n".join(names[:2] + ["std::vector<int, std::allocator<int> >::operator[]",
                                   "a&b \"q\" 'p' <!-- -->", "<i>lib</i>.so", ev]) + "\n")
PY
"$VMPROF_SAN" chart --format html -o csvrep host.csv guest.csv 2>err || { cat err; fail "chart of CSV tables failed"; }
"$VMPROF" compare --top 0 --format csv --no-csv-safe -o x.xml host.csv guest.csv > x.csv 2>/dev/null
check hostile-csv csvrep/index.html x.csv --names csvnames.txt

# 5. sides of several runs, judged: intervals, q and the verdict equal the
#    CSV's; then three sides (the K-side CSV: one line per row and side)
python3 - <<'PY'
import csv, random
random.seed(7)
funcs = ["alpha", "beta", "gamma", "delta<int>", "eps", "zeta", "eta", "theta"]
def run(path, scale):
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["event", "symbol", "dso", "domain", "samples", "period", "share"])
        for i, fn in enumerate(funcs):
            s = int((100 - 10 * i) * scale.get(fn, 1.0) * random.uniform(0.93, 1.07))
            w.writerow(["cpu-clock", fn, "app", ".", s, s * 1000, 0])
for k in range(4):
    run(f"h{k}.csv", {})
    run(f"g{k}.csv", {"alpha": 1.6, "gamma": 0.5})
    run(f"x{k}.csv", {"beta": 2.0})
PY
H=host=h0.csv,h1.csv,h2.csv,h3.csv G=guest=g0.csv,g1.csv,g2.csv,g3.csv X=xen=x0.csv,x1.csv,x2.csv,x3.csv
"$VMPROF" compare --top 0 --format csv -o runs.xml "$H" "$G" > runs.csv 2>/dev/null
tr -d '\r' < runs.csv | grep -q '^"cpu-clock","alpha",.*,1$' || fail "alpha (1.6x in every run) is not significant in the CSV"
"$VMPROF_SAN" chart --format html -o runsrep runs.xml 2>/dev/null || fail "chart of runs failed"
grep -q 'differ significantly' runsrep/index.html || fail "the page does not say how the rows were judged"
check runs runsrep/index.html runs.csv
"$VMPROF" compare --top 0 --format csv -o three.xml "$H" "$G" "$X" > three.csv 2>/dev/null
"$VMPROF_SAN" chart --format html -o threerep three.xml 2>/dev/null || fail "chart of three sides failed"
check three threerep/index.html three.csv --nosort

# 6. failures: exit 1, the file named, no page left behind
expect_status 1 "$VMPROF" chart --format html -o /proc/version/rep c.xml
grep -q "/proc/version/rep" "$WORK/err" || fail "unwritable directory not named: $(cat "$WORK/err")"
printf 'event,symbol\n' > broken.csv
expect_status 1 "$VMPROF" chart --format html -o brokenrep broken.csv
[ ! -e brokenrep/index.html ] || fail "a page was written for a broken input"
expect_status 2 "$VMPROF" chart --format htm c.xml
echo "screenshots: $SHOTS/report-1280.png $SHOTS/report-375.png (and the others there)"
echo ok
