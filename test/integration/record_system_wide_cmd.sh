#!/usr/bin/env bash
# vmprof record -a -- CMD records the whole system while CMD runs (as perf
# record -a -- CMD), not CMD alone: a process running beside it, started
# before the recording, has samples, and so does CMD from its first function.
source "$(dirname "$0")/../lib.sh"
need_perf
export HOME=$WORK
cd "$WORK"
gcc -O1 -g -o weights "$TOP/test/workloads/weights.c"
cp weights beside
./beside 400000000 40 40 40 & bp=$!
trap 'kill $bp 2>/dev/null || true; rm -rf "$WORK"' EXIT
"$VMPROF" record -a -e cpu-clock -o sw.data -- ./weights 20000000 2>/dev/null || fail "record -a -- CMD"
kill $bp 2>/dev/null || true
perf report -i sw.data --stdio --sort pid 2>/dev/null > pids.txt || fail "perf cannot read the file"
grep -q "$bp:beside" pids.txt || { head -20 pids.txt; fail "no samples of a process running beside the command"; }
grep -q ":weights" pids.txt || fail "no samples of the command"
perf report -i sw.data --stdio --no-children -g none --sort dso,sym -n -t $'\x1f' > sw.perf 2>/dev/null
"$VMPROF" report sw.data > sw.vmprof 2>/dev/null || fail "vmprof report"
# Other processes on a shared machine come and go (and some have several
# functions of one name, one row for vmprof, several for perf): the rows of
# the two workloads' own objects are compared.
grep -E '[^a-z_./](weights|beside) ' sw.perf > sw.perf2 || fail "perf shows no workload rows"
grep -E '[^a-z_./](weights|beside) ' sw.vmprof > sw.vmprof2 || fail "vmprof shows no workload rows"
python3 "$TOP/test/perf_agree.py" sw.perf2 sw.vmprof2 || fail "perf and vmprof disagree on the workloads"
echo ok
