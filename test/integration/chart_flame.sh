#!/usr/bin/env bash
# vmprof chart --kind flame FILE.data: one profile's flame graph, in every
# format. Its frames (SVG parsed as XML) hold exactly the folded stacks that
# test/fold_perf_script.py folds from perf script's callchains of the same
# file, each as wide as its share; every stack prefix wide enough is drawn; a
# legend says what width means. The same input gives the same bytes; what
# cannot be drawn says why.
source "$(dirname "$0")/../lib.sh"
need_perf
export HOME=$WORK
cd "$WORK"
gcc -O1 -g -fno-omit-frame-pointer -o recurse "$TOP/test/workloads/recurse.c"
gcc -O1 -g -fno-omit-frame-pointer -o weights "$TOP/test/workloads/weights.c"
perf record -q -g -o rec.data -e cpu-clock,page-faults -F 2000 -- \
	sh -c "./recurse 60000000; ./weights 5000000" >/dev/null 2>&1
perf script -i rec.data -F comm,period,event,ip,sym,dso > ps.txt 2>/dev/null || fail "perf script failed"
FOLD_VALUE=period python3 "$TOP/test/fold_perf_script.py" ps.txt cpu-clock > clock.folded || fail "oracle failed"
python3 "$TOP/test/fold_perf_script.py" ps.txt page-faults > faults.folded || fail "oracle failed"

"$VMPROF_SAN" chart --kind flame --format svg,png,pdf,eps -o charts rec.data 2>err ||
	{ cat err; fail "chart --kind flame failed"; }
for f in svg png pdf eps; do
	[ -s charts/cpu-clock-flame.$f ] || fail "no cpu-clock-flame.$f"
done
file charts/cpu-clock-flame.png | grep -q "PNG image" || fail "not a PNG"
head -c 5 charts/cpu-clock-flame.pdf | grep -q "%PDF" || fail "not a PDF"
xmllint --noout charts/cpu-clock-flame.svg || fail "the SVG is not well-formed"
python3 "$TOP/test/flame_check.py" charts/cpu-clock-flame.svg clock.folded || fail "cpu-clock flame graph"
grep -q 'data-name="rec"' charts/cpu-clock-flame.svg || fail "no frame of the recursive function (vacuous)"
grep -q 'data-name="read_zero"' charts/cpu-clock-flame.svg || fail "no kernel frame (vacuous)"
# widths by samples, another event
"$VMPROF" chart --kind flame --value samples -e page-faults --format svg -o faults rec.data 2>/dev/null ||
	fail "chart --kind flame -e page-faults --value samples"
python3 "$TOP/test/flame_check.py" faults/page-faults-flame.svg faults.folded || fail "page-faults flame graph"

# deterministic: the same bytes again, in every format
"$VMPROF" chart --kind flame --format svg,png,pdf,eps -o again rec.data 2>/dev/null || fail "second run"
for f in svg png pdf eps; do
	cmp -s charts/cpu-clock-flame.$f again/cpu-clock-flame.$f || fail "$f differs between two runs"
done

# one profile is no comparison; a file without samples has nothing to draw
expect_status 2 "$VMPROF" chart --kind bar rec.data
grep -q "give HOST GUEST" "$WORK/err" || fail "unclear: $(cat "$WORK/err")"
perf record -q -o empty.data -e cpu-clock -c 1000000000 -- true >/dev/null 2>&1
expect_status 1 "$VMPROF" chart --kind flame -o none empty.data
grep -q "empty.data'" "$WORK/err" || fail "not named: $(cat "$WORK/err")"
[ ! -e none ] || fail "a failed chart left its directory"
echo "ok"
