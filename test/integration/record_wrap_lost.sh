#!/usr/bin/env bash
# A one-page ring buffer (-m 1) with callchains at a high rate: records wrap
# the buffer end all the time and the kernel drops some. The wrapped records
# come out whole (perf reads the file and agrees on every symbol, perf script
# is clean), and the lost samples vmprof reports at the end are the sum of the
# PERF_RECORD_LOST counts perf script shows.
source "$(dirname "$0")/../lib.sh"
need_perf
export HOME=$WORK
cd "$WORK"
gcc -O1 -g -fno-omit-frame-pointer -o weights "$TOP/test/workloads/weights.c"
"$VMPROF" record -m 1 -F 20000 -g -e cpu-clock -o wrap.data -- ./weights 20000000 2> rec.err ||
	{ cat rec.err; fail "record with a one-page buffer"; }
perf report -i wrap.data --stdio --no-children -g none --sort dso,sym -n -t $'\x1f' > wrap.perf 2>/dev/null ||
	fail "perf cannot read the file"
"$VMPROF" report wrap.data > wrap.vmprof 2>/dev/null || fail "vmprof report"
# kernel rows per dso: two kernel functions of one name (constprop clones) are one
# row for vmprof and two for perf, which is the table model, not the recorder
python3 "$TOP/test/perf_agree.py" wrap.perf wrap.vmprof --dso-only-kernel || fail "perf and vmprof disagree"
perf script -i wrap.data --show-lost-events > script.out 2> script.err || { cat script.err; fail "perf script"; }
grep -qi "error\|fail" script.err && { cat script.err; fail "perf script complained"; }
perf_lost=$(awk '/PERF_RECORD_LOST lost/ { s += $NF } END { print s + 0 }' script.out)
ours=$(sed -n 's/^vmprof record: lost \([0-9]*\) samples.*/\1/p' rec.err)
expect_eq "lost samples (vmprof record's count vs perf script's LOST records)" "${ours:-0}" "$perf_lost"
note "lost $perf_lost samples in $(grep -c 'PERF_RECORD_LOST' script.out) LOST records"
echo ok
