#!/usr/bin/env bash
# vmprof compare --children: each side's inclusive shares equal what perf
# report --children --sort sym prints for that side's file, row for row (the
# join by sym,dso,domain keeps perf's rows apart); the default join by symbol
# counts each sample once per name too (its [unknown] row never passes
# 100%); --value children ranks and takes ratios on the inclusive periods;
# the CSV carries the columns after the statistics and reads back; the saved
# XML carries them and the call stacks, and follows the schema.
source "$(dirname "$0")/../lib.sh"
need_perf
export HOME=$WORK
cd "$WORK"
gcc -O1 -g -fno-omit-frame-pointer -o recurse "$TOP/test/workloads/recurse.c"
# the guest runs ping/pong three times as often and extra_b instead of extra_a
perf record -q -g -o host.data -e cpu-clock -F 2000 -- ./recurse 30000000 1 1 1 1 >/dev/null 2>&1
perf record -q -g -o guest.data -e cpu-clock -F 2000 -- ./recurse 30000000 1 3 1 2 >/dev/null 2>&1

"$VMPROF_SAN" compare --children -k sym,dso,domain --top 0 --format csv --no-csv-safe \
	-o saved.xml host.data guest.data > cmp.csv 2>err || { cat err; fail "compare --children"; }
head -1 cmp.csv | tr -d '\r' | grep -q ',significant,host_children_samples,host_children_period,host_children_share,guest_children_samples,guest_children_period,guest_children_share$' ||
	fail "children columns not after the statistics: $(head -1 cmp.csv)"
for side in host guest; do
	perf report -i $side.data --stdio --children -g none --sort sym -t $'\x1f' > $side.perf 2>/dev/null ||
		fail "perf report --children $side"
	python3 "$TOP/test/children_agree.py" $side.perf cmp.csv --compare $side > $side.agree ||
		{ cat $side.agree; fail "$side: inclusive shares differ from perf's"; }
	note "$side: $(tail -1 $side.agree)"
done
grep -q '"extra_b"' cmp.csv && grep -q '"extra_a"' cmp.csv || fail "no one-side functions (vacuous)"

# the default join (by symbol): each sample once per name, so no row passes 100%
"$VMPROF" compare --children --top 0 --format csv -o /dev/null host.data guest.data > sym.csv 2>/dev/null ||
	fail "compare --children (join by sym)"
python3 - sym.csv <<'PY' || fail "an inclusive share above 100% under the join by symbol"
import csv, sys
for r in csv.DictReader(open(sys.argv[1])):
    for s in ("host", "guest"):
        if float(r[s + "_children_share"]) > 1.0 + 1e-9:
            sys.exit(f"{r['symbol']}: {s} children share {r[s + '_children_share']}")
PY

# --value children: ranked by the larger inclusive period, ratios of inclusive periods
"$VMPROF" compare --value children --top 0 --format csv -o /dev/null host.data guest.data > val.csv 2>/dev/null ||
	fail "compare --value children"
python3 - val.csv <<'PY' || fail "--value children does not rank or divide by inclusive values"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
keys = [max(int(r["host_children_period"]), int(r["guest_children_period"])) for r in rows]
if keys != sorted(keys, reverse=True):
    sys.exit("not ranked by the larger inclusive period")
n = 0
for r in rows:
    h, g = int(r["host_children_period"]), int(r["guest_children_period"])
    if h and g:
        n += 1
        # the CSV prints ratios to 6 decimals: half a unit of the last
        if abs(float(r["ratio"]) - g / h) > 5e-7 + 1e-12:
            sys.exit(f"{r['symbol']}: ratio {r['ratio']}, inclusive {g}/{h}")
if n < 5:
    sys.exit("too few rows on both sides (vacuous)")
PY
head -2 val.csv | tail -1 | grep -q '"main"\|"__libc_start_call_main"' || fail "main is not on top by inclusive period"

# the saved comparison: schema, inclusive counts, call stacks
xmllint --noout --schema "$TOP/schema/vmprof-comparison.xsd" saved.xml 2>xerr || { cat xerr; fail "saved XML invalid"; }
grep -q 'children="true"' saved.xml || fail "the saved event does not say it has children"
grep -q '<stacks ' saved.xml && grep -q '<frame parent="0" name="recurse"' saved.xml ||
	fail "the saved comparison has no call stacks"
# the CSV reads back (a saved CSV charts)
"$VMPROF" compare --children --top 0 --format csv -o /dev/null host.data guest.data > back.csv 2>/dev/null
"$VMPROF_SAN" chart --kind bar --format svg -o csvchart back.csv 2>err || { cat err; fail "a CSV with children columns does not read back"; }
expect_status 1 "$VMPROF" chart --kind flame -o none back.csv
grep -q "no call stacks" "$WORK/err" || fail "flame from a CSV: unclear error: $(cat "$WORK/err")"
expect_status 2 "$VMPROF" compare --value nosuch host.data guest.data
echo "ok"
