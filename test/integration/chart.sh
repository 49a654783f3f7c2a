#!/usr/bin/env bash
# vmprof chart from the command line: the saved comparison by default, a saved
# file, or two inputs; SVG, PNG, PDF and EPS that real readers open; the same
# bytes from two runs; clear failures for bad input and unwritable output.
source "$(dirname "$0")/../lib.sh"
F=$TOP/test/fixtures
S=(--symfs "$F/symfs" --kallsyms "$F/kallsyms")
cd "$WORK"
command -v pdfinfo >/dev/null || skip "pdfinfo (poppler-utils) is not installed"
command -v gs >/dev/null || skip "gs (ghostscript) is not installed"

# no comparison yet: say what to do
expect_status 1 "$VMPROF" chart
grep -q "vmprof compare" "$WORK/err" || fail "no hint to run compare: $(cat "$WORK/err")"

"$VMPROF" compare "${S[@]}" "$F/weights.data" "$F/cxx.data" >/dev/null 2>&1 || fail "compare failed"
"$VMPROF_SAN" chart --format svg,png,pdf,eps 2>err || { cat err; fail "chart failed"; }
for k in bar circle; do
	for x in svg png pdf eps; do [ -s "charts/cpu-clock-$k.$x" ] || fail "no charts/cpu-clock-$k.$x"; done
	pdfinfo "charts/cpu-clock-$k.pdf" > info 2>&1 || { cat info; fail "pdfinfo rejects the $k PDF"; }
	grep -q "^Pages: *1" info || fail "$k PDF is not one page"
	gs -q -dNOPAUSE -dBATCH -dSAFER -sDEVICE=nullpage "charts/cpu-clock-$k.eps" > gs.out 2>&1 ||
		{ cat gs.out; fail "ghostscript rejects the $k EPS"; }
	head -1 "charts/cpu-clock-$k.eps" | grep -q "EPSF" || fail "$k EPS has no EPSF header"
	xmllint --noout "charts/cpu-clock-$k.svg" || fail "$k SVG is not well-formed"
	file "charts/cpu-clock-$k.png" | grep -q "PNG image data, 1000 x" || fail "$k PNG size"
done
grep -q "<title>" charts/cpu-clock-bar.svg || fail "no tooltips in the SVG"
grep -q 'viewBox=' charts/cpu-clock-bar.svg || fail "no viewBox"

# the same comparison, the same bytes, from another process
"$VMPROF" chart -o again 2>/dev/null
for f in cpu-clock-bar.svg cpu-clock-bar.png cpu-clock-circle.svg cpu-clock-circle.png; do
	cmp -s "charts/$f" "again/$f" || fail "$f differs between two runs"
done

# drawn in 3 processes as in one: the same files, named in the same order,
# and under the ASan build (its children check their own memory)
"$VMPROF" chart --threads 1 --format svg,png,pdf,html -o one 2>one.err || fail "chart --threads 1 failed"
"$VMPROF_SAN" chart --threads 3 --format svg,png,pdf,html -o three 2>three.err || { cat three.err; fail "chart --threads 3 failed"; }
diff -r one three || fail "--threads 3 draws other files than --threads 1"
diff <(sed 's/one/X/' one.err) <(sed 's/three/X/' three.err) || fail "--threads 3 names the files otherwise"
expect_eq "files named" "$(grep -c 'wrote' three.err)" 7

# two inputs: compare and draw in one go, with options
"$VMPROF" chart "${S[@]}" --top 3 --labels bare,vm --kind bar --format svg -o two \
	"$F/weights.data" "$F/cxx.data" 2>/dev/null || fail "chart HOST GUEST failed"
expect_eq "bars for --top 3" "$(grep -c 'class="bar"' two/cpu-clock-bar.svg)" 6
grep -q "bare" two/cpu-clock-bar.svg || fail "--labels not used"
[ ! -e two/cpu-clock-circle.svg ] || fail "--kind bar drew circles"

# a saved comparison given by name, cut and re-ranked
"$VMPROF" chart --top 2 --sort ratio --format svg -o named vmprof.cmp.xml 2>/dev/null || fail "chart FILE failed"
expect_eq "bars for --top 2" "$(grep -c 'class="bar"' named/cpu-clock-bar.svg)" 4

# a comparison saved as CSV draws the same bars as its XML; python's csv module
# (not our reader) says how many rows the event has
"$VMPROF" compare "${S[@]}" --top 0 --format csv -o full.xml "$F/weights.data" "$F/cxx.data" > cmp.csv 2>/dev/null ||
	fail "compare --format csv failed"
rows=$(python3 -c 'import csv,sys; print(sum(1 for r in csv.DictReader(open(sys.argv[1])) if r["event"] == "cpu-clock"))' cmp.csv)
"$VMPROF_SAN" chart --top 0 --format svg -o fromcsv cmp.csv 2>err || { cat err; fail "chart CSV failed"; }
expect_eq "bars for every CSV row" "$(grep -c 'class="bar"' fromcsv/cpu-clock-bar.svg)" $((2 * rows))

# every PDF and EPS of a HOST GUEST run opens in real readers, at another size
"$VMPROF" chart "${S[@]}" --format pdf,eps --size 640x480 -o docs "$F/weights.data" "$F/cxx.data" 2>/dev/null ||
	fail "chart --format pdf,eps failed"
pdfinfo docs/cpu-clock-bar.pdf > info 2>&1 || { cat info; fail "pdfinfo rejects the sized PDF"; }
grep -q "^Page size: *640 x" info || fail "--size not applied to the PDF: $(grep 'Page size' info)"
gs -q -dNOPAUSE -dBATCH -dSAFER -sDEVICE=nullpage docs/cpu-clock-circle.eps > gs.out 2>&1 ||
	{ cat gs.out; fail "ghostscript rejects the sized EPS"; }

# bad input and unwritable output: exit 1, file named, nothing half-written
printf '<vmprof-comparison version="1" key="sym" value="period" rank="max"><event name="x" rows="1"><row symbol="f" dso="" domain="." host-samples="-3"' > bad.xml
expect_status 1 "$VMPROF_SAN" chart -o badout bad.xml
grep -q "bad.xml'" "$WORK/err" || fail "bad comparison not named: $(cat "$WORK/err")"
[ ! -e badout ] || [ -z "$(ls -A badout)" ] || fail "output written for a bad comparison"
mkdir ro && chmod 500 ro
if [ "$(id -u)" != 0 ]; then
	expect_status 1 "$VMPROF" chart -o ro/sub
fi
expect_status 1 "$VMPROF" chart -o /proc/version/charts
grep -q "/proc/version/charts'" "$WORK/err" || fail "unwritable dir not named: $(cat "$WORK/err")"
expect_status 2 "$VMPROF" chart --format gif
expect_status 2 "$VMPROF" chart --size 10x10
echo ok
