#!/usr/bin/env bash
# vmprof compare's join equals one computed independently (test/cmp_oracle.py)
# from perf report's own tables of the same two recordings: every row, every
# value. The recordings run one workload with known, different weights.
source "$(dirname "$0")/../lib.sh"
need_perf
export HOME=$WORK
cd "$WORK"
gcc -O1 -g -fno-omit-frame-pointer -o weights "$TOP/test/workloads/weights.c"
# host: w1 w2 w4 once each; guest: w1 four times
perf record -q -o host.data -e cpu-clock,page-faults -F 4000 -- ./weights 15000000 1 1 1 >/dev/null 2>&1
perf record -q -o guest.data -e cpu-clock,page-faults -F 4000 -- ./weights 15000000 4 1 1 >/dev/null 2>&1
for s in host guest; do
	perf report -i $s.data --stdio --no-children -g none --sort sym -n --show-total-period \
		-t $'\x1f' > $s.perf 2>/dev/null || fail "perf report $s failed"
done
"$VMPROF" compare --top 0 --format csv host.data guest.data > cmp.csv 2>err ||
	{ cat err; fail "vmprof compare failed"; }
python3 "$TOP/test/cmp_oracle.py" host.perf guest.perf cmp.csv || fail "join differs from perf's"

# The saved comparison holds every row of the join, whatever --top printed.
"$VMPROF" compare --top 2 host.data guest.data > table.txt 2>err || { cat err; fail "compare failed"; }
[ -s vmprof.cmp.xml ] || fail "no saved comparison"
rows_saved=$(grep -c '<row ' vmprof.cmp.xml)
rows_join=$(($(wc -l < cmp.csv) - 1))
expect_eq "rows in the saved comparison" "$rows_saved" "$rows_join"
grep -q "Rows: 2 of" table.txt || fail "the table does not say it shows 2 rows"

# CSV and XML tables of the same files give the same comparison as perf.data.
for s in host guest; do
	"$VMPROF" report --top 0 --format csv $s.data > $s.csv 2>/dev/null
	"$VMPROF" report --top 0 --format xml $s.data > $s.xml 2>/dev/null
	"$VMPROF" report --top 0 --full-names --format csv $s.data > $s.full.csv 2>/dev/null
done
"$VMPROF" compare --top 0 --format csv -o x1.xml host.csv guest.xml > cmp2.csv 2>/dev/null ||
	fail "compare of CSV and XML tables failed"
sort cmp.csv > a; sort cmp2.csv > b
cmp -s a b || { diff a b | head; fail "CSV/XML inputs compare differently from perf.data"; }
# and from perf report text: same samples per symbol (periods are estimated there)
for s in host guest; do
	perf report -i $s.data --stdio --sort sym -n > $s.txt 2>/dev/null
done
"$VMPROF" compare --top 0 --format csv -o x2.xml --value samples host.txt guest.txt > cmp3.csv 2>err ||
	{ cat err; fail "compare of perf report text failed"; }
python3 - "$WORK/cmp.csv" "$WORK/cmp3.csv" <<'PY' || fail "perf report text compares differently"
import csv, sys
def rows(p):
    return {(r["event"], r["symbol"]): (r["host_samples"], r["guest_samples"])
            for r in csv.DictReader(open(p, newline=""))}
a, b = rows(sys.argv[1]), rows(sys.argv[2])
sys.exit(0 if a == b else 1)
PY
echo "ok: join of $rows_join rows agrees with perf's tables"
