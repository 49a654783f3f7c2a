#!/usr/bin/env bash
# The HTML report of real recordings in a real browser (test/html_report_check.py
# through selenium): two runs a side of a workload whose blocking is known
# (test/workloads/blocking.c, 2 and 4 rounds), recorded by vmprof record -g
# with two events. The headline holds where the time went with the numbers
# of compare --time-split --format csv (every measured part, its interval)
# and the waterfall drawn inline; each event's table compare --format csv's
# numbers; each event a flame graph inline, drawn and run by the page's one
# copy of the flame script (two graphs on one page: a zoom and a search in
# the second leave the first as it was, test/flame_browser.py); no console
# error, no request, no script but the page's. The saved comparison gives
# the same bytes. Screenshots go to build/screenshots/ (live-*.png).
source "$(dirname "$0")/../lib.sh"
cd "$WORK"
PY=$(py_with selenium) || skip "python3-selenium is not installed (scripts/deps.sh installs it)"
mkdir -p "$BUILD/screenshots"
gcc -O1 -g -fno-omit-frame-pointer -pthread -o blocking "$TOP/test/workloads/blocking.c"
for k in 1 2; do
	for s in fast:2 slow:4; do
		"$VMPROF" record -g -e cpu-clock,task-clock --label "${s%:*}" -o "${s%:*}$k.data" -- \
			./blocking "${s#*:}" > /dev/null 2> err || { cat err; fail "vmprof record ${s%:*} $k"; }
	done
done
sides=(fast=fast1.data,fast2.data slow=slow1.data,slow2.data)
"$VMPROF_SAN" chart --format html -o rep "${sides[@]}" 2> err || { cat err; fail "chart --format html"; }
"$VMPROF" compare --top 0 --format csv -o c.xml "${sides[@]}" > c.csv 2> /dev/null || fail "compare"
"$VMPROF" compare --time-split --format csv -o t.xml "${sides[@]}" > split.csv 2> /dev/null ||
	fail "compare --time-split"
grep -q '^"slow","blocked",.*,1$' split.csv || fail "the split has no measured blocked time: $(cat split.csv)"
rc=0
WORK=$WORK $PY "$TOP/test/html_report_check.py" rep/index.html c.csv "$BUILD/screenshots" live \
	--split split.csv --flames 2 > out.txt 2>&1 || rc=$?
cat out.txt
[ $rc -eq 77 ] && skip "$(tail -1 out.txt)"
[ $rc -eq 0 ] || fail "the report of real recordings fails in the browser"

# the second graph zoomed into and searched: the search's total is the sum
# of slow's stacks (the widths' side, both runs) through compute, folded by
# an oracle from perf's reading of the same files (perf script)
need_perf
second=$(grep -o 'id="e1-h">Event [a-z-]*' rep/index.html | sed 's/.* //')
[ -n "$second" ] || fail "no second event section"
total=0
for k in 1 2; do
	perf script -i "slow$k.data" -F comm,period,event,ip,sym,dso > "ps$k.txt" 2>/dev/null ||
		fail "perf script slow$k.data"
	FOLD_VALUE=period python3 "$TOP/test/fold_perf_script.py" "ps$k.txt" "$second" > "s$k.folded" ||
		fail "the oracle failed"
	t=$(awk '{ n = $NF; $NF = ""; if ($0 ~ /;compute(;| |$)/) s += n } END { print s + 0 }' "s$k.folded")
	total=$((total + t))
done
[ "$total" -gt 0 ] || fail "no stack through compute (test is vacuous)"
# the event's heading gives slow's period as time: perf script's sum of the
# two runs' periods, to half the last digit shown
python3 - rep/index.html "$second" ps1.txt ps2.txt <<'PY' || fail "the heading's period of slow is not perf's total"
import re, sys
html, ev = open(sys.argv[1], encoding="utf-8").read(), sys.argv[2]
want = sum(int(l.split()[1]) for f in sys.argv[3:] for l in open(f) if re.search(r"\b%s:" % re.escape(ev), l))
m = re.search(r"slow: %s, \d+ samples, period ([0-9.]+) (ns|µs|ms|s)[;.]" % re.escape(ev), html)
if not m or not want:
    sys.exit(f"no heading period for slow's {ev} (perf: {want})")
scale = {"ns": 1, "µs": 1e3, "ms": 1e6, "s": 1e9}[m.group(2)]
digits = len(m.group(1).split(".")[1]) if "." in m.group(1) else 0
if abs(float(m.group(1)) * scale - want) > 0.5 * 10 ** -digits * scale:
    sys.exit(f"heading {m.group(0)} against perf's {want} ns")
PY
$PY "$TOP/test/flame_browser.py" rep/index.html "$WORK/browser2" --graph 1 --click main \
	--search '^compute$' "$total" --screenshot "$BUILD/screenshots/live-flame.png" ||
	fail "the second flame graph of the page does not work on its own"

"$VMPROF" chart --format html -o again c.xml 2>/dev/null || fail "chart of the saved comparison"
cmp -s rep/index.html again/index.html || fail "the saved comparison gave another page"
echo ok
