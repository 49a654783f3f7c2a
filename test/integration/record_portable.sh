#!/usr/bin/env bash
# Portable recordings: the symbols of every sampled address travel in the
# file (VP_FEAT_VMPROF_SYMS), so vmprof report gives the same per-symbol
# counts after the recorded binary is deleted or rebuilt differently; perf
# still reads the file (and agrees while the binary is there), and finds the
# build-ids of the objects with samples in its own HEADER_BUILD_ID table.
source "$(dirname "$0")/../lib.sh"
need_perf
export HOME=$WORK
cd "$WORK"
build() { gcc "$@" -g -fno-omit-frame-pointer -o weights "$TOP/test/workloads/weights.c"; }
build -O1
"$VMPROF" record -o p.data -g -e cpu-clock -- ./weights 3000000 4 4 4 2>/dev/null || fail "record"

# The truth while the binary exists: perf's own table of our file.
perf report -i p.data --stdio --no-children -g none --sort dso,sym -n -t $'\x1f' > perf.txt 2>/dev/null ||
	fail "perf report cannot read a file with portable symbols"
perf report -i p.data --header-only > /dev/null 2>&1 || fail "perf report --header-only fails"
perf script -i p.data > /dev/null 2> script.err || { cat script.err; fail "perf script fails"; }
"$VMPROF" report --header p.data | grep -q "^# portable symbols: [1-9]" || fail "--header does not show the portable symbols"
grep -qw w4 perf.txt || fail "perf did not resolve w4 with the binary present"
# perf's own build-id table: the binary's build-id as readelf reads it
bid=$(readelf -n weights | sed -n 's/.*Build ID: \([0-9a-f]*\).*/\1/p')
perf buildid-list -i p.data 2>/dev/null | grep -q "^$bid .*/weights$" ||
	fail "perf buildid-list does not show weights with build-id $bid"
if [ -r /sys/kernel/notes ] && grep -q "\[kernel.kallsyms\]" perf.txt; then
	perf buildid-list -i p.data 2>/dev/null | grep -q "^$(perf buildid-list -k 2>/dev/null) \[kernel.kallsyms\]$" ||
		fail "the kernel's build-id in the file differs from perf buildid-list -k"
fi

rm weights
"$VMPROF" report p.data > gone.txt 2> gone.err || { cat gone.err; fail "report without the binary"; }
python3 "$TOP/test/perf_agree.py" perf.txt gone.txt || fail "without the binary, vmprof disagrees with perf's table"
grep -q "no symbols for" gone.err && fail "report warned about the missing binary although the file carries its symbols"

# Rebuilt differently (another build-id, other offsets): the file's symbols win.
build -O0 -fno-inline
"$VMPROF" report p.data > changed.txt 2>/dev/null || fail "report with a changed binary"
python3 "$TOP/test/perf_agree.py" perf.txt changed.txt || fail "with a changed binary, vmprof disagrees with perf's table"
echo ok
