#!/usr/bin/env bash
# The flame graph SVG works in a real browser (headless Chromium driven by
# test/flame_browser.py through selenium), offline: it loads with no console
# errors; a click on a frame zooms (the frame takes the full width, frames
# beside it hide) and Escape resets; a search highlights exactly the frames
# whose names match and reports their total, which equals the sum of the
# folded stacks (perf script, test/fold_perf_script.py) holding a match.
# The same for a differential flame graph (two recordings). Names from the
# file that are markup and script (a JIT's perf map) stay text: nothing
# runs. Screenshots go to $BUILD/screenshots/ for a person.
source "$(dirname "$0")/../lib.sh"
need_perf
export HOME=$WORK
cd "$WORK"
PY=$(py_with selenium) || skip "python3-selenium is not installed (scripts/deps.sh installs it)"
command -v chromium >/dev/null || skip "chromium is not installed (scripts/deps.sh installs it)"
command -v chromedriver >/dev/null || skip "chromedriver is not installed (package chromium-driver)"
mkdir -p "$BUILD/screenshots"

gcc -O1 -g -fno-omit-frame-pointer -o recurse "$TOP/test/workloads/recurse.c"
perf record -q -g -o rec.data -e cpu-clock -F 2000 -- ./recurse 60000000 >/dev/null 2>&1
perf script -i rec.data -F comm,period,event,ip,sym,dso > ps.txt 2>/dev/null || fail "perf script failed"
FOLD_VALUE=period python3 "$TOP/test/fold_perf_script.py" ps.txt > rec.folded || fail "oracle failed"
# the search's total, independently: every stack with a frame named like pong, once
total=$(awk '{ n = $NF; $NF = ""; k = split($0, f, ";"); hit = 0
	for (i = 2; i <= k; i++) if (f[i] ~ /pong/) hit = 1
	if (hit) s += n } END { print s + 0 }' rec.folded)
[ "$total" -gt 0 ] || fail "no stack through pong (test is vacuous)"
"$VMPROF" chart --kind flame --format svg -o charts rec.data 2>/dev/null || fail "chart --kind flame"
rc=0
$PY "$TOP/test/flame_browser.py" charts/cpu-clock-flame.svg "$WORK/browser" --click ping \
	--search pong "$total" --screenshot "$BUILD/screenshots/flame.png" > out.txt 2>&1 || rc=$?
cat out.txt
[ $rc -eq 77 ] && skip "$(tail -1 out.txt)"
[ $rc -eq 0 ] || fail "the flame graph does not work in the browser"

# a differential flame graph: the guest's widths, searched and zoomed the same way
perf record -q -g -o guest.data -e cpu-clock -F 2000 -- ./recurse 60000000 1 3 1 2 >/dev/null 2>&1
perf script -i guest.data -F comm,period,event,ip,sym,dso > gps.txt 2>/dev/null || fail "perf script guest"
FOLD_VALUE=period python3 "$TOP/test/fold_perf_script.py" gps.txt > guest.folded || fail "oracle failed"
gtotal=$(awk '{ n = $NF; $NF = ""; k = split($0, f, ";"); hit = 0
	for (i = 2; i <= k; i++) if (f[i] ~ /pong/) hit = 1
	if (hit) s += n } END { print s + 0 }' guest.folded)
"$VMPROF" chart --kind flame --format svg -o diff rec.data guest.data 2>/dev/null || fail "chart --kind flame HOST GUEST"
grep -q 'data-change="up"' diff/cpu-clock-flame.svg || fail "no frame grew (vacuous)"
$PY "$TOP/test/flame_browser.py" diff/cpu-clock-flame.svg "$WORK/browser3" --click ping \
	--search pong "$gtotal" --screenshot "$BUILD/screenshots/flame-diff.png" ||
	fail "the differential flame graph does not work in the browser"

# hostile names from a JIT's perf map
gcc -O1 -g -fno-omit-frame-pointer -o hostile "$TOP/test/workloads/hostile_names.c"
perf record -q -g -o hostile.data -e cpu-clock -F 2000 -- ./hostile > map.txt 2>/dev/null
map=$(cat map.txt)
trap 'rm -rf "$WORK"; rm -f "$map"' EXIT
"$VMPROF" chart --kind flame --format svg -o hcharts hostile.data 2>/dev/null || fail "chart of hostile names"
grep -c '<script' hcharts/cpu-clock-flame.svg | grep -qx 1 || fail "more than one script element in the file"
$PY "$TOP/test/flame_browser.py" hcharts/cpu-clock-flame.svg "$WORK/browser2" --hostile \
	--screenshot "$BUILD/screenshots/flame-hostile.png" || fail "hostile names broke the page"
echo "ok"
