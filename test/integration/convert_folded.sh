#!/usr/bin/env bash
# vmprof convert folded: the folded stacks of a -g recording equal those an
# independent script (test/fold_perf_script.py) folds from perf script's
# callchains of the same file, line for line and count for count; for the
# first event, a chosen one, and summed periods. Bad inputs fail cleanly.
source "$(dirname "$0")/../lib.sh"
need_perf
export HOME=$WORK
cd "$WORK"
gcc -O1 -g -fno-omit-frame-pointer -o weights "$TOP/test/workloads/weights.c"
g++ -O1 -g -fno-omit-frame-pointer -std=c++17 -o cxx "$TOP/test/workloads/cxx_names.cc"
perf record -q -g -o cc.data -e cpu-clock,page-faults -F 4000 -- \
	sh -c "./weights 10000000; ./cxx 60" >/dev/null 2>&1
perf script -i cc.data -F comm,period,event,ip,sym,dso > ps.txt 2>/dev/null || fail "perf script failed"

check() {	# check NAME EVENT [vmprof options...]
	local name=$1 ev=$2; shift 2
	python3 "$TOP/test/fold_perf_script.py" ps.txt "$ev" > $name.want || fail "$name: oracle failed"
	"$VMPROF_SAN" convert folded "$@" cc.data -o $name.got 2>$name.err ||
		{ cat $name.err; fail "$name: vmprof convert folded failed"; }
	cmp -s $name.want $name.got || { diff $name.want $name.got | head; fail "$name: stacks differ from perf script's"; }
	note "$name: $(wc -l < $name.got) stacks agree"
}
check first cpu-clock
grep -q "holds 2 events; folding 'cpu-clock'" first.err || fail "no note about the event chosen"
grep -q '^weights;.*;w4 [0-9]*$' first.got || fail "no weights;...;w4 stack (test is vacuous)"
grep -q '<' first.got || fail "no C++ template frame (test is vacuous)"
check faults page-faults -e page-faults
FOLD_VALUE=period check period page-faults -e page-faults --value period

# --full-names keeps parameter lists: each such frame of the workload is a
# name binutils' nm -C prints for it, and the default output has none
"$VMPROF" convert folded --full-names cc.data -o full.got 2>/dev/null || fail "convert folded --full-names"
nm -C cxx | sed 's/^[0-9a-f]* [A-Za-z] //' | sort -u > nm.names
tr ';' '\n' < full.got | sed 's/ [0-9]*$//' | grep '^vp_fixture::.*(' | sort -u > full.frames
[ -s full.frames ] || fail "--full-names: no frame with a parameter list"
comm -23 full.frames nm.names | grep . && fail "--full-names: frames nm -C does not name"
tr ';' '\n' < first.got | grep -q '^vp_fixture::.*(' && fail "parameter lists without --full-names"

# standard output is the same as -o
"$VMPROF" convert folded cc.data 2>/dev/null | cmp -s - first.got || fail "stdout differs from -o"

# without -g: one frame per stack, and a warning that says why
perf record -q -o flat.data -e cpu-clock -F 4000 -- ./weights 5000000 >/dev/null 2>&1
"$VMPROF" convert folded flat.data > flat.got 2>flat.err || fail "folding a file without -g"
grep -q "without callchains" flat.err || fail "no warning for a file without -g"
awk '{ n = split($1, f, ";"); if (n != 2) exit 1 }' flat.got || fail "stacks deeper than one frame without -g"

# bad inputs: exit 1, the file named, nothing left behind
printf 'event,symbol,dso,domain,samples,period,share\n' > t.csv
expect_status 1 "$VMPROF" convert folded t.csv -o out.folded
grep -q "t.csv'" "$WORK/err" || fail "not named: $(cat "$WORK/err")"
[ ! -e out.folded ] || fail "a failed convert left its output"
expect_status 1 "$VMPROF" convert folded -e no-such-event cc.data -o out.folded
grep -q "no-such-event" "$WORK/err" || fail "unknown event: $(cat "$WORK/err")"
[ ! -e out.folded ] || fail "a failed convert left its output"
head -c 3000 cc.data > cut.data
expect_status 1 "$VMPROF_SAN" convert folded cut.data -o out.folded
[ ! -e out.folded ] || fail "a failed convert left its output"
expect_status 2 "$VMPROF" convert folded
echo "ok"
