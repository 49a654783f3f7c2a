#!/usr/bin/env bash
# The differential flame graph of a comparison whose sides have callchains:
# every frame holds exactly each side's folded stacks of perf script
# (test/fold_perf_script.py) under its path, its width the width side's
# share; colours have the sign of each frame's change (a change far beyond
# noise is never grey); frames on one side only, and only they, are hatched;
# the legend says what width and colour mean (test/flame_check.py, the SVG
# parsed as XML). --flame-width host swaps the widths; of three sides,
# --flame-width names the one against the baseline. The saved comparison
# draws the same bytes as the inputs do; the same inputs give the same
# bytes; PNG, PDF and EPS too.
source "$(dirname "$0")/../lib.sh"
need_perf
PY=$(py_with scipy) || fail "no python3 with scipy (scripts/deps.sh installs it)"
export HOME=$WORK
cd "$WORK"
gcc -O1 -g -fno-omit-frame-pointer -o recurse "$TOP/test/workloads/recurse.c"
# guest: ping/pong three times as often (grows), rec and the kernel part the
# same work (their shares shrink), extra_b where the host has extra_a
rec() {	# rec NAME ARGS...
	local name=$1; shift
	perf record -q -g -o $name.data -e cpu-clock -F 2000 -- ./recurse 30000000 "$@" >/dev/null 2>&1
	perf script -i $name.data -F comm,period,event,ip,sym,dso > $name.ps 2>/dev/null || fail "perf script $name"
	FOLD_VALUE=period python3 "$TOP/test/fold_perf_script.py" $name.ps > $name.folded || fail "oracle $name"
}
rec host 1 1 1 1
rec guest 1 3 1 2
rec third 2 1 1 0

"$VMPROF_SAN" chart --kind flame --format svg,png,pdf,eps -o d host.data guest.data 2>err ||
	{ cat err; fail "chart --kind flame HOST GUEST"; }
"$PY" "$TOP/test/flame_check.py" d/cpu-clock-flame.svg host.folded guest.folded > check.out ||
	{ cat check.out; fail "the differential flame graph"; }
cat check.out
grep -q 'data-name="extra_b"[^>]*data-change="only1"' d/cpu-clock-flame.svg || fail "extra_b not marked as guest's only"
grep -q 'data-name="pong"[^>]*data-change="up"' d/cpu-clock-flame.svg || fail "pong did not grow (vacuous)"
for f in png pdf eps; do [ -s d/cpu-clock-flame.$f ] || fail "no $f"; done

# the baseline's widths
"$VMPROF" chart --kind flame --flame-width host --format svg -o h host.data guest.data 2>/dev/null ||
	fail "--flame-width host"
"$PY" "$TOP/test/flame_check.py" h/cpu-clock-flame.svg host.folded guest.folded --width-side 0 >/dev/null ||
	fail "the flame graph with the host's widths"
grep -q 'data-name="extra_a"[^>]*data-change="only0"' h/cpu-clock-flame.svg || fail "extra_a not marked as host's only"

# three sides: the one --flame-width names against the baseline
"$VMPROF" chart --kind flame --flame-width third.data --format svg -o t host.data guest.data third.data 2>/dev/null ||
	fail "three sides"
"$PY" "$TOP/test/flame_check.py" t/cpu-clock-flame.svg host.folded third.folded >/dev/null ||
	fail "the flame graph of the third side against the baseline"

# the saved comparison carries the stacks: vmprof chart draws the same bytes,
# by default with the bar and circle charts
"$VMPROF" compare -o vmprof.cmp.xml host.data guest.data > /dev/null 2>&1 || fail "compare"
"$VMPROF_SAN" chart --format svg,png,pdf,eps -o s 2>err || { cat err; fail "chart of the saved comparison"; }
for f in svg png pdf eps; do
	cmp -s d/cpu-clock-flame.$f s/cpu-clock-flame.$f || fail "$f from the saved comparison differs"
done
[ -s s/cpu-clock-bar.svg ] && [ -s s/cpu-clock-circle.svg ] || fail "no bar and circle charts by default"
# without callchains there is no flame graph by default
perf record -q -o flat.data -e cpu-clock -F 2000 -- ./recurse 3000000 >/dev/null 2>&1
"$VMPROF" chart --format svg -o f flat.data flat.data 2>/dev/null || fail "chart of files without -g"
[ ! -e f/cpu-clock-flame.svg ] || fail "a flame graph by default without callchains"
# and no word about callchains nobody asked for: compare keeps stacks only
# of events that have them
"$VMPROF" compare -o flat.xml flat.data flat.data > /dev/null 2>flat.err || fail "compare of files without -g"
grep -q "without callchains" flat.err && fail "compare warns of callchains it was not asked for: $(cat flat.err)"
grep -q "<stacks" flat.xml && fail "a comparison without callchains saved stacks"
expect_status 1 "$VMPROF" chart --kind flame -o none flat.data flat.data
# deterministic
"$VMPROF" chart --kind flame --format svg -o again host.data guest.data 2>/dev/null || fail "second run"
cmp -s d/cpu-clock-flame.svg again/cpu-clock-flame.svg || fail "two runs differ"
expect_status 1 "$VMPROF" chart --kind flame --flame-width nosuch -o none host.data guest.data
grep -q "nosuch" "$WORK/err" || fail "unknown --flame-width side: $(cat "$WORK/err")"
echo "ok"
