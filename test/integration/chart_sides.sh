#!/usr/bin/env bash
# vmprof chart of K sides of runs, judged by test/chart_check.py (Python's XML
# parser on the SVG as cairo drew it, the runs' own numbers, scipy, and the
# CSV of vmprof compare): K bars per row in the sides' order and colours, the
# whiskers where the intervals put them on the axis the tick labels give,
# pale bars exactly where the CSV says not significant, tooltips, <desc>,
# subtitle, and K donuts in one slice order. Inputs: per-run CSV tables
# written here (three sides of 5, 5 and 3 runs; two sides of one run) and a
# recorded case (vmprof record --repeat, each run's numbers from perf report).
# PNG, PDF and EPS stay valid (pdfinfo, gs) and every format is the same
# bytes from a second run.
source "$(dirname "$0")/../lib.sh"
cd "$WORK"
command -v pdfinfo >/dev/null || skip "pdfinfo (poppler-utils) is not installed"
command -v gs >/dev/null || skip "gs (ghostscript) is not installed"
py=
# Debian's scipy is for Debian's python3; an interpreter earlier in PATH may lack it
for p in python3 /usr/bin/python3; do
	"$p" -c 'import scipy' 2>/dev/null && { py=$p; break; }
done
[ -n "$py" ] || fail "no python3 with scipy (scripts/deps.sh installs it)"
CHECK=("$py" "$TOP/test/chart_check.py")

"$py" - "$TOP/test" <<'PY'
import os, random, sys
sys.path.insert(0, sys.argv[1])
from run_table import table
rng = random.Random(2024)
# hot: 1.5x on B, 2x on C; memcpy 1.3x on C; "a,b" is absent from one run of
# B; tail_N fill the join beyond the top N; the rest equal up to 4% wobble
funcs = [("hot", 9000), ("warm", 4000), ("copy", 2500), ("memcpy", 1500), ("cold", 900),
         ("a,b", 400), ("rare", 60)] + [(f"tail_{i}", 20 + i) for i in range(8)]
def run(side, k):
    rows = []
    for sym, base in funcs:
        if side == "B" and k == 2 and sym == "a,b":
            continue
        m = {"hot": {"B": 1.5, "C": 2.0}, "memcpy": {"C": 1.3}}.get(sym, {}).get(side, 1.0)
        s = max(1, round(rng.gauss(base * m, base * m * 0.04)))
        rows.append(("instructions", sym, "/bin/app", ".", s, s * 1000 + rng.randrange(1000)))
    return rows
for side, n in (("A", 5), ("B", 5), ("C", 3)):
    os.makedirs(side, exist_ok=True)
    for k in range(1, n + 1):
        table(f"{side}/run-{k}.csv", run(side, k))
table("h.csv", run("A", 9))
table("g.csv", run("C", 9))
PY
runs() { ls "$1"/*.csv | sort -V | paste -sd, -; }
A="A=$(runs A)" B="B=$(runs B)" C="C=$(runs C)"

# K = 3: every format; the checker on the SVGs against compare's CSV
"$VMPROF_SAN" chart --top 8 --scale linear --format svg,png,pdf,eps -o k3 A B C 2>err ||
	{ cat err; fail "chart of three sides"; }
"$VMPROF" compare --top 8 --format csv -o k3.xml A B C > k3.csv 2>/dev/null || fail "compare of three sides"
"${CHECK[@]}" instructions k3/instructions-bar.svg k3/instructions-circle.svg k3.csv "$A" "$B" "$C" ||
	fail "the K = 3 charts do not show the comparison's numbers"
tr -d '\r' < k3.csv > k3.lf
grep -q '^"instructions","hot",.*,1$' k3.lf || fail "the 1.5x and 2x function is not significant: nothing coloured is checked"
grep -q ',0$' k3.lf || fail "no row is not significant: nothing pale is checked"
for k in bar circle; do
	pdfinfo "k3/instructions-$k.pdf" > info 2>&1 || { cat info; fail "pdfinfo rejects the K = 3 $k PDF"; }
	gs -q -dNOPAUSE -dBATCH -dSAFER -sDEVICE=nullpage "k3/instructions-$k.eps" > gs.out 2>&1 ||
		{ cat gs.out; fail "ghostscript rejects the K = 3 $k EPS"; }
	file "k3/instructions-$k.png" | grep -q "PNG image data, 1000 x" || fail "K = 3 $k PNG"
done
"$VMPROF" chart --top 8 --scale linear --format svg,png,pdf,eps -o again A B C 2>/dev/null
for f in k3/*; do cmp -s "$f" "again/${f##*/}" || fail "${f##*/} differs between two runs"; done

# a --value samples chart of the same sides and an --alpha: the same rules
"$VMPROF" chart --top 5 --scale linear --value samples --alpha 0.01 --format svg -o samples A B C 2>/dev/null ||
	fail "chart --value samples"
"$VMPROF" compare --top 5 --value samples --alpha 0.01 --format csv -o s.xml A B C > s.csv 2>/dev/null
"${CHECK[@]}" --value samples --alpha 0.01 instructions samples/instructions-bar.svg \
	samples/instructions-circle.svg s.csv "$A" "$B" "$C" || fail "the --value samples charts"

# two sides of one run each: intervals from sampling noise, said so
"$VMPROF_SAN" chart --top 6 --scale linear --format svg -o one h.csv g.csv 2>err || { cat err; fail "chart h g"; }
"$VMPROF" compare --top 6 --format csv -o one.xml h.csv g.csv > one.csv 2>/dev/null
"${CHECK[@]}" instructions one/instructions-bar.svg one/instructions-circle.svg one.csv h.csv=h.csv g.csv=g.csv ||
	fail "the two-side, one-run charts"

# recorded: the weights workload, w1 twice the work on side B, 3 runs each
# (vmprof record --repeat); each run's numbers from perf report of its file
if command -v perf >/dev/null && perf record -q -o probe.data -e cpu-clock -- true >/dev/null 2>&1; then
	gcc -O1 -g -fno-omit-frame-pointer -o weights "$TOP/test/workloads/weights.c"
	"$VMPROF" record -r 3 -o ra -e cpu-clock -- ./weights 10000000 2 2 2 2>err || { cat err; fail "record -r 3 A"; }
	"$VMPROF" record -r 3 -o rb -e cpu-clock -- ./weights 10000000 4 2 2 2>err || { cat err; fail "record -r 3 B"; }
	mkdir perf
	for f in ra/*.data rb/*.data; do	# beside the runs they would be runs too
		perf report -i "$f" --stdio --no-children -g none --sort sym -n --show-total-period \
			-t $'\x1f' > "perf/${f%%/*}-$(basename "$f" .data).perf" 2>/dev/null || fail "perf report -i $f"
	done
	# samples: cpu-clock periods would be drawn as time
	"$VMPROF_SAN" chart --top 4 --scale linear --value samples --format svg,pdf -o rec ra rb 2>err ||
		{ cat err; fail "chart of recorded sides"; }
	"$VMPROF" compare --top 4 --value samples --format csv -o rec.xml ra rb > rec.csv 2>/dev/null
	"${CHECK[@]}" --value samples cpu-clock rec/cpu-clock-bar.svg rec/cpu-clock-circle.svg rec.csv \
		"ra=$(ls perf/ra-*.perf | paste -sd, -)" "rb=$(ls perf/rb-*.perf | paste -sd, -)" ||
		fail "the recorded comparison's charts"
	pdfinfo rec/cpu-clock-bar.pdf > info 2>&1 || { cat info; fail "pdfinfo rejects the recorded PDF"; }
else
	note "perf cannot record here: the recorded case is left out"
fi
echo ok
