#!/usr/bin/env bash
# vmprof report --children: the inclusive share of every row equals what
# perf report --children --sort sym prints for it (two decimals, the
# children and the self column), on recordings made here with -g: the
# known-weight workload, a recursive one (a function on the stack many times,
# two that call each other) that spends half its time in the kernel (kernel
# frames under user frames), system libraries without frame pointers
# (unresolved frames), two events, vmprof's own recorder, and the committed
# fixture with its binaries. The CSV and XML carry the columns and read back.
source "$(dirname "$0")/../lib.sh"
need_perf
export HOME=$WORK	# no perf build-id cache: both tools read the same files
cd "$WORK"
gcc -O1 -g -fno-omit-frame-pointer -o weights "$TOP/test/workloads/weights.c"
gcc -O1 -g -fno-omit-frame-pointer -o recurse "$TOP/test/workloads/recurse.c"

agree() {	# agree NAME FILE [options for both tools...]
	local name=$1 file=$2; shift 2
	perf report -i "$file" --stdio --children -g none --sort sym -t $'\x1f' "$@" > $name.perf 2>/dev/null ||
		fail "$name: perf report --children failed"
	"$VMPROF" report --children --no-csv-safe --format csv "$file" "$@" > $name.csv 2>$name.err ||
		{ cat $name.err; fail "$name: vmprof report --children failed"; }
	python3 "$TOP/test/children_agree.py" $name.perf $name.csv > $name.agree ||
		{ cat $name.agree; fail "$name: inclusive shares differ from perf's"; }
	note "$name: $(tail -1 $name.agree)"
}

perf record -q -g -o live.data -e cpu-clock,page-faults -F 2000 -- \
	sh -c "./weights 10000000; ./recurse 60000000; ls -lR /usr/lib >/dev/null" >/dev/null 2>&1
agree live live.data
# the test is not vacuous: recursion and kernel frames were there and counted
grep -q '"rec",.*recurse' live.csv || fail "no row for the recursive function"
grep -q ',"k",' live.csv || fail "no kernel rows"
awk -F, '$2 == "\"main\"" && $1 == "\"cpu-clock\"" { if ($8 <= $5) exit 1 }' live.csv ||
	fail "main's children are not above its self samples"

"$VMPROF" record -g -e cpu-clock -F 2000 -o own.data -- ./recurse 60000000 >/dev/null 2>&1 ||
	fail "vmprof record -g failed"
agree own own.data

F=$TOP/test/fixtures
agree fixture "$F/callchain.data" --symfs "$F/symfs" --kallsyms "$F/kallsyms"

# the table: perf's two columns, ranked by the inclusive one
"$VMPROF" report --children live.data > live.txt 2>/dev/null || fail "report --children (table)"
grep -q '^# Children      Self' live.txt || fail "no Children and Self columns: $(grep '^# [A-Z]' live.txt | head -2)"
awk '/^# Event/ { n = 0; prev = 1000 } /^ +[0-9.]+%/ { v = $1 + 0; if (v > prev + 0.001) bad = 1; prev = v }
	END { exit bad }' live.txt || fail "table not ranked by children"

# CSV and XML read back with their inclusive counts
"$VMPROF" report --children --format csv live.data > orig.csv 2>/dev/null || fail "report --children --format csv"
"$VMPROF" report --children --format csv orig.csv > back.csv 2>/dev/null || fail "reading the CSV back"
cmp -s orig.csv back.csv || { diff orig.csv back.csv | head; fail "CSV round trip changed the table"; }
"$VMPROF" report --children --format xml live.data > live.xml 2>/dev/null || fail "report --children --format xml"
xmllint --noout --schema "$TOP/schema/vmprof-profile.xsd" live.xml 2>err || { cat err; fail "XML invalid"; }
"$VMPROF" report --children --format csv live.xml > xmlback.csv 2>/dev/null || fail "reading the XML back"
cmp -s orig.csv xmlback.csv || { diff orig.csv xmlback.csv | head; fail "XML round trip changed the table"; }

# without -g: children equal self, and a warning that says why
perf record -q -o flat.data -e cpu-clock -F 2000 -- ./weights 3000000 >/dev/null 2>&1
"$VMPROF" report --children --format csv flat.data > flat.csv 2>flat.err || fail "--children on a file without -g"
grep -q "without callchains" flat.err || fail "no warning for a file without -g"
awk -F, 'NR > 1 && ($5 != $8 || $6 != $9) { exit 1 }' flat.csv || fail "children differ from self without -g"

# what cannot work says so
expect_status 2 "$VMPROF" report --children --caller live.data
"$VMPROF" report --format csv flat.data > plain.csv 2>/dev/null
expect_status 1 "$VMPROF" report --children plain.csv
grep -q "plain.csv'.*inclusive" "$WORK/err" || fail "unclear error: $(cat "$WORK/err")"
echo "ok"
