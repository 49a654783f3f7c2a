#!/usr/bin/env bash
# Machine formats: CSV round trips through Python's csv module (names with
# commas, quotes, newlines, formula-looking cells), XML validates against the
# schemas in schema/, perf report text converts to the rows vmprof reads from
# the same perf.data, and malformed input fails naming the file and line.
source "$(dirname "$0")/../lib.sh"
need_perf
export HOME=$WORK
F=$TOP/test/fixtures
S=(--symfs "$F/symfs" --kallsyms "$F/kallsyms")
cd "$WORK"

# 1. CSV written by Python -> vmprof -> CSV read by Python: the same rows.
python3 - <<'PY'
import csv
rows = [
    ("cpu-clock", "ns::f(std::map<int, std::pair<char, long>> const&)", "/usr/bin/a b", ".", 5, 50),
    ("cpu-clock", 'say "hi", twice', "/lib/x.so", ".", 3, 30),
    ("cpu-clock", "two\nlines", "[kernel.kallsyms]", "k", 2, 20),
    ("cpu-clock", "=HYPERLINK(\"http://x\")", "/bin/evil", ".", 1, 10),
    ("page-faults", "-negative", "/bin/x", ".", 7, 7),
]
with open("in.csv", "w", newline="") as f:
    w = csv.writer(f)
    w.writerow("event,symbol,dso,domain,samples,period,share".split(","))
    for r in rows:
        w.writerow(list(r) + [0])
PY
"$VMPROF" report --full-names --top 0 --format csv in.csv > out.csv 2>err || { cat err; fail "report of a CSV"; }
python3 - "$TOP/test" <<'PY' || fail "CSV round trip changed rows"
import csv, sys
sys.path.insert(0, sys.argv[1])
from perf_agree import csv_symbol
def load(p, unguard):
    out = set()
    for r in csv.DictReader(open(p, newline="")):
        s = csv_symbol(r["symbol"]) if unguard else r["symbol"]
        out.add((r["event"], s, r["dso"], r["domain"], int(r["samples"]), int(r["period"])))
    return out
a, b = load("in.csv", False), load("out.csv", True)
if a != b:
    print(sorted(a ^ b)); sys.exit(1)
PY
grep -q "^\"cpu-clock\",\"'=HYPERLINK" out.csv || fail "a formula cell was not guarded"
"$VMPROF" report --full-names --no-csv-safe --format csv in.csv > raw.csv 2>/dev/null
grep -q '^"cpu-clock","=HYPERLINK' raw.csv || fail "--no-csv-safe still guards"
"$VMPROF" report --full-names --no-csv-safe --csv-safe --format csv in.csv 2>/dev/null |
	grep -q "^\"cpu-clock\",\"'=HYPERLINK" || fail "--csv-safe does not turn the guard back on"

# The same for real C++ names from a recording.
"$VMPROF" report "${S[@]}" --full-names --top 0 --format csv "$F/cxx.data" > cxx.csv 2>/dev/null
"$VMPROF" report --full-names --top 0 --format csv cxx.csv > cxx2.csv 2>/dev/null
cmp -s <(sort cxx.csv) <(sort cxx2.csv) || fail "CSV -> CSV changed the C++ fixture's rows"
grep -q ', ' cxx.csv || fail "the fixture has no name with a comma (test is vacuous)"

# 2. XML validates and reads back to the same table.
"$VMPROF" report "${S[@]}" --full-names --top 0 --format xml "$F/cxx.data" > cxx.xml 2>/dev/null
xmllint --noout --schema "$TOP/schema/vmprof-profile.xsd" cxx.xml 2>err || { cat err; fail "profile XML invalid"; }
"$VMPROF" report --full-names --top 0 --format csv cxx.xml > cxx3.csv 2>/dev/null
cmp -s <(sort cxx.csv) <(sort cxx3.csv) || fail "XML -> CSV differs from perf.data -> CSV"
"$VMPROF" report --full-names --top 0 --format xml in.csv > tricky.xml 2>/dev/null
xmllint --noout --schema "$TOP/schema/vmprof-profile.xsd" tricky.xml 2>err || { cat err; fail "XML of tricky names invalid"; }
"$VMPROF" compare --top 0 -o cmp.xml "$F/weights.data" "$F/cxx.data" "${S[@]}" >/dev/null 2>&1
xmllint --noout --schema "$TOP/schema/vmprof-comparison.xsd" cmp.xml 2>err || { cat err; fail "comparison XML invalid"; }
"$VMPROF" compare --top 0 --format xml -o cmp2.xml "$F/weights.data" "$F/cxx.data" "${S[@]}" > cmpout.xml 2>/dev/null
xmllint --noout --schema "$TOP/schema/vmprof-comparison.xsd" cmpout.xml 2>err || { cat err; fail "compare --format xml invalid"; }

# 3. perf report text -> CSV: the same samples per (event, dso, symbol) as vmprof
# reading the perf.data itself, for perf's layouts.
fold() {	# CSV -> "event|dso-base|domain|symbol samples", summed, sorted
	python3 -c '
import csv, re, sys, collections
agg = collections.Counter()
for r in csv.DictReader(open(sys.argv[1], newline="")):
    d = r["dso"].rsplit("/", 1)[-1] if sys.argv[2] == "dso" else ""
    agg[(r["event"], d, r["domain"], r["symbol"])] += int(r["samples"])
for k in sorted(agg): print("|".join(k), agg[k])' "$1" "$2"
}
for f in weights multi callchain; do
	"$VMPROF" report "${S[@]}" --top 0 --format csv "$F/$f.data" > $f.want.csv 2>/dev/null
	for layout in "--sort dso,sym -n" "--sort sym -n" "--sort comm,dso,sym -n --children" \
		      "--sort dso,sym -n --show-total-period -g" "--sort dso,sym -n -g caller"; do
		case "$f:$layout" in callchain:*) ;; *-g*) continue ;; esac	# -g needs callchains
		perf report -i "$F/$f.data" --stdio "${S[@]}" $layout > rep.txt 2>/dev/null ||
			fail "perf report $layout failed"
		"$VMPROF" convert perf-report rep.txt -o rep.csv 2>err ||
			{ cat err; fail "$f: convert of perf report $layout failed"; }
		k=dso; case $layout in "--sort sym"*) k=none ;; esac
		fold $f.want.csv $k > want; fold rep.csv $k > got
		cmp -s want got || { diff want got | head; fail "$f: perf report $layout converts to other rows"; }
	done
done

# 3b. Group views (events side by side: perf report --group, and the default
# for a file recorded with -e '{a,b}'): one table per member.
gcc -O1 -g -fno-omit-frame-pointer -o weights "$TOP/test/workloads/weights.c"
perf record -q -o group.data -e '{cpu-clock,page-faults}' -F 4000 -- ./weights 5000000 >/dev/null 2>&1
"$VMPROF" report --top 0 --format csv group.data > group.want.csv 2>/dev/null
for layout in "--group --sort dso,sym -n --show-total-period" "--sort dso,sym -n --show-total-period" \
	      "--group --children --sort dso,sym -n --show-total-period" "--group --sort sym -n"; do
	perf report -i group.data --stdio $layout > grep.txt 2>/dev/null || fail "perf report $layout failed"
	grep -q "of events 'anon group" grep.txt || fail "perf printed no group view for $layout"
	"$VMPROF" convert perf-report grep.txt -o grep.csv 2>err || { cat err; fail "group: convert of $layout failed"; }
	k=dso; case $layout in *"--sort sym"*) k=none ;; esac
	fold group.want.csv $k > want; fold grep.csv $k > got
	cmp -s want got || { diff want got | head; fail "group: perf report $layout converts to other rows"; }
done
grep -q "page-faults" got || fail "the group's second event is missing"
perf report -i group.data --stdio --group --sort dso,sym > grep.txt 2>/dev/null
expect_status 1 "$VMPROF" convert perf-report grep.txt -o grep2.csv
grep -q "grep.txt': line [0-9]*: a group view .* needs perf report -n" "$WORK/err" || fail "group without -n: $(cat "$WORK/err")"
[ ! -e grep2.csv ] || fail "a failed convert left its output"

# 4. A line that is no perf report line is an error naming it.
perf report -i "$F/weights.data" --stdio "${S[@]}" -n > rep.txt 2>/dev/null
sed '13s/.*/    this is not a row/' rep.txt > bad.txt
expect_status 1 "$VMPROF" convert perf-report bad.txt -o bad.csv
grep -q "bad.txt': line 13" "$WORK/err" || fail "no line number: $(cat "$WORK/err")"
[ ! -e bad.csv ] || fail "a failed convert left its output"

# 5. Malformed tables and unwritable outputs: exit 1, the file named, nothing left.
printf 'event,symbol,dso,domain,samples,period,share\n"cpu-clock","f","/x",".",12x,3,0\n' > badnum.csv
expect_status 1 "$VMPROF" report badnum.csv
grep -q "badnum.csv': record 2" "$WORK/err" || fail "bad number: $(cat "$WORK/err")"
printf 'event,symbol,dso,domain,samples,period,share\n"cpu-clock","unterminated,"/x\n' > badq.csv
expect_status 1 "$VMPROF" report badq.csv
grep -q "badq.csv'" "$WORK/err" || fail "bad quoting: $(cat "$WORK/err")"
head -c 300 cxx.xml > cut.xml
expect_status 1 "$VMPROF" report cut.xml
grep -q "cut.xml': line" "$WORK/err" || fail "cut XML: $(cat "$WORK/err")"
printf 'hello\n' > what.txt
expect_status 1 "$VMPROF" compare what.txt cxx.csv
grep -q "what.txt'" "$WORK/err" || fail "unknown input: $(cat "$WORK/err")"
: > empty
expect_status 1 "$VMPROF" report empty
expect_status 1 "$VMPROF_SAN" compare -o "$WORK/nodir/c.xml" cxx.csv cxx.xml
grep -q "nodir/c.xml'" "$WORK/err" || fail "unwritable output: $(cat "$WORK/err")"
expect_status 2 "$VMPROF" compare only-one.csv
expect_status 2 "$VMPROF" compare --sort sideways a b

# 6. --split: one file per event, each the event's rows.
"$VMPROF" report "${S[@]}" --top 0 --split parts "$F/multi.data" 2>/dev/null
ls parts/*.csv > /dev/null || fail "--split wrote nothing"
expect_eq "files" "$(ls parts | wc -l)" "$("$VMPROF" report "${S[@]}" "$F/multi.data" 2>/dev/null | grep -c "^# Event ")"
"$VMPROF" report "${S[@]}" --top 0 --format csv "$F/multi.data" > all.csv 2>/dev/null
cat parts/*.csv | grep -v '^event,' | sort > a; grep -v '^event,' all.csv | sort > b
cmp -s a b || fail "--split files differ from the whole table"
"$VMPROF" convert split all.csv parts2 2>/dev/null
for p in parts/*.csv; do cmp -s "$p" "parts2/${p#parts/}" || fail "convert split differs for $p"; done
echo "ok"
