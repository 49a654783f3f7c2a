#!/usr/bin/env bash
# A full disk (a small tmpfs) under record, report --split, compare -o and
# chart: exit 1, an error naming the output and the cause, and nothing left
# under the final names (a previous output stays as it was). Each command
# runs twice: with no space at all, and with a little space it outgrows.
source "$(dirname "$0")/../lib.sh"
need_perf
[ "$(id -u)" = 0 ] || skip "mounting a tmpfs needs root"
F=$TOP/test/fixtures
cd "$WORK"
mkdir fs
mount -t tmpfs -o size=1m tmpfs fs 2>/dev/null || skip "cannot mount a tmpfs here"
trap 'umount "$WORK/fs" 2>/dev/null; rm -rf "$WORK"' EXIT

gcc -O1 -g -fno-omit-frame-pointer -o weights "$TOP/test/workloads/weights.c"
"$VMPROF" record -g -e cpu-clock,page-faults -F 4000 -o a.data -- ./weights 4000000 2>/dev/null
"$VMPROF" record -g -e cpu-clock,page-faults -F 4000 -o b.data -- ./weights 4000000 2>/dev/null

# fill leaves FREE bytes (rounded to pages) on the tmpfs
fill() {
	rm -f fs/fill
	head -c 2m /dev/zero > fs/fill 2>/dev/null || true
	[ "$1" -gt 0 ] && truncate -s -"$1" fs/fill
	sync
}

# full_fails WHAT FINAL... -- CMD...: CMD exits 1 naming the cause; no FINAL path exists
full_fails() {
	local what=$1; shift
	local finals=()
	while [ "$1" != -- ]; do finals+=("$1"); shift; done
	shift
	set +e
	"$@" > out 2> err
	local rc=$?
	set -e
	[ $rc -eq 1 ] || { cat err; fail "$what: exit $rc on a full disk, want 1"; }
	grep -q "No space left on device" err || { cat err; fail "$what: the error does not say the disk is full"; }
	grep -q "fs/" err || { cat err; fail "$what: the error does not name the output"; }
	for f in "${finals[@]}"; do
		[ ! -e "$f" ] || fail "$what: '$f' left behind on a full disk"
	done
	# nothing else but the filler (no temporaries, no partial files)
	local left
	left=$(find fs -mindepth 1 ! -name fill ! -name keep.data | head -3)
	[ -z "$left" ] || fail "$what: left on the full disk: $left"
}

for free in 0 4096; do
	fill $free
	full_fails "record (free $free)" fs/r.data fs/r.data.partial -- \
		"$VMPROF" record -g -e cpu-clock -F 4000 -o fs/r.data -- ./weights 4000000

	# a previous output survives a failed recording
	rm -f fs/fill
	cp a.data fs/keep.data
	fill $free
	full_fails "record over a previous file (free $free)" fs/keep.data.partial fs/keep.data.old -- \
		"$VMPROF" record -g -e cpu-clock -F 4000 -o fs/keep.data -- ./weights 4000000
	cmp -s a.data fs/keep.data || fail "record on a full disk damaged the previous output"
	rm -f fs/keep.data

	fill $free
	full_fails "report --split (free $free)" fs/split/cpu-clock.csv fs/split/page-faults.csv -- \
		"$VMPROF" report --split fs/split a.data
	rm -rf fs/split

	# fixtures whose saved comparison (about 9 KB) outgrows a page; two
	# small recordings of weights sometimes fit in the 4 KB left
	fill $free
	full_fails "compare -o (free $free)" fs/c.xml -- \
		"$VMPROF" compare -o fs/c.xml --symfs "$F/symfs" --kallsyms "$F/kallsyms" \
		"$F/cxx.data" "$F/multi.data"

	"$VMPROF" compare -o c.xml a.data b.data > /dev/null
	fill $free
	full_fails "chart (free $free)" fs/charts/cpu-clock-bar.svg fs/charts/cpu-clock-bar.png -- \
		"$VMPROF" chart -o fs/charts --format svg,png,pdf c.xml
	rm -rf fs/charts
	fill $free
	full_fails "chart --format html (free $free)" fs/rep/index.html -- \
		"$VMPROF" chart -o fs/rep --format html c.xml
	rm -rf fs/rep
done
# room for a few charts, not all: the ones written go again with the directory
fill 262144
full_fails "chart, part written" fs/charts -- "$VMPROF" chart -o fs/charts --format svg,png,pdf c.xml
grep -q "wrote" err && fail "chart reported files written by a failed run"
# the charts fit, the page after them does not: none of them stays
full_fails "chart with the report, part written" fs/charts -- \
	"$VMPROF" chart -o fs/charts --format svg,html --kind bar c.xml
echo ok
