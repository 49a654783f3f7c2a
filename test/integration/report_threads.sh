#!/usr/bin/env bash
# Tables do not depend on how many threads read the file: --threads 1, 2, 3,
# 4 and 7, and the one CPU taskset gives, print the same bytes, on perf's
# fixtures and on files grown to many pieces (those cut mid-record find their
# first record by the resync rule), and so do compare's comparisons; each
# object is opened as often as by the ordered walk, and by compare of 5 runs
# a side as of one; and the grown files' tables agree with perf report's,
# row for row.
source "$(dirname "$0")/../lib.sh"
F=$TOP/test/fixtures
export HOME=$WORK	# no perf build-id cache: both tools read the same files
opts=(--symfs "$F/symfs" --kallsyms "$F/kallsyms")

same_for_all_threads() {	# FILE NAME
	"$VMPROF" report "$1" "${opts[@]}" --threads 1 > "$WORK/$2.1" 2> "$WORK/$2.err1" ||
		{ cat "$WORK/$2.err1"; fail "$2: report failed"; }
	for t in 2 3 4 7; do
		"$VMPROF" report "$1" "${opts[@]}" --threads $t > "$WORK/$2.$t" 2> "$WORK/$2.err$t"
		cmp "$WORK/$2.1" "$WORK/$2.$t" || fail "$2: --threads $t gives another table"
		cmp "$WORK/$2.err1" "$WORK/$2.err$t" || fail "$2: --threads $t gives other warnings"
	done
	taskset -c 0 "$VMPROF" report "$1" "${opts[@]}" > "$WORK/$2.cpu0" 2>/dev/null
	cmp "$WORK/$2.1" "$WORK/$2.cpu0" || fail "$2: one CPU by taskset gives another table"
	"$VMPROF" report "$1" "${opts[@]}" --format csv --threads 1 > "$WORK/$2.csv1"
	"$VMPROF" report "$1" "${opts[@]}" --format csv --threads 4 > "$WORK/$2.csv4"
	cmp "$WORK/$2.csv1" "$WORK/$2.csv4" || fail "$2: CSV differs with 4 threads"
}

for f in weights callchain cxx multi tracepoints; do
	same_for_all_threads "$F/$f.data" "$f"
done
# grown: copies of each recording, timestamps moved on (over 8 MB: a dozen
# pieces and more)
for f in weights:600 callchain:1000; do
	n=${f#*:} f=${f%:*}
	python3 "$TOP/scripts/perfdata-repeat.py" "$F/$f.data" "$WORK/big-$f.data" "$n"
	[ "$(stat -c %s "$WORK/big-$f.data")" -gt $((8 << 20)) ] || fail "big-$f.data is too small"
	same_for_all_threads "$WORK/big-$f.data" "big-$f"
done

# compare loads its files at once, each on its share of the threads: the
# same comparison whatever the threads, for files of one size and of two
# (a big host file against a small guest one), and for runs (more files
# than threads: one thread each)
same_compare() {	# NAME FILE...
	local name=$1
	shift
	"$VMPROF" compare "${opts[@]}" --threads 1 -o "$WORK/$name.1.xml" "$@" > "$WORK/$name.c1" 2>/dev/null ||
		fail "$name: compare --threads 1 failed"
	for t in 2 4 7 all; do
		local th=(--threads "$t")
		[ "$t" = all ] && th=()
		"$VMPROF" compare "${opts[@]}" "${th[@]}" -o "$WORK/$name.$t.xml" "$@" > "$WORK/$name.c$t" \
			2>/dev/null || fail "$name: compare ${th[*]} failed"
		cmp "$WORK/$name.1.xml" "$WORK/$name.$t.xml" || fail "$name: compare with $t threads saves another comparison"
		cmp "$WORK/$name.c1" "$WORK/$name.c$t" || fail "$name: compare with $t threads prints another table"
	done
}
same_compare grown "$WORK/big-weights.data" "$WORK/big-callchain.data"
same_compare unequal "$WORK/big-weights.data" "$F/weights.data"
mkdir -p "$WORK/runsA" "$WORK/runsB"
for k in 1 2 3 4 5; do
	cp "$F/weights.data" "$WORK/runsA/run-$k.data"
	cp "$F/cxx.data" "$WORK/runsB/run-$k.data"
done
same_compare runs "$WORK/runsA" "$WORK/runsB"

# Each object is read once however many workers meet it first (the first
# one reads it while the count goes on): it is opened as often as by the
# ordered walk, which a comm key takes.
command -v strace >/dev/null || skip "strace is not installed (make deps installs it)"
opens() {	# FILE OPTIONS...: how often each object of the symfs is opened
	# (LeakSanitizer stops under ptrace: no leak check in these runs)
	ASAN_OPTIONS=detect_leaks=0 strace -f -qq -e trace=openat -o "$WORK/opens" \
		"$VMPROF" report "$@" "${opts[@]}" \
		>/dev/null 2>&1 || fail "report $* failed under strace"
	grep -v ENOENT "$WORK/opens" | grep -o "\"$F/symfs[^\"]*\"" | sort | uniq -c
}
for f in big-weights big-callchain; do
	want=$(opens "$WORK/$f.data" --sort comm,sym)
	[ -n "$want" ] || fail "$f: the ordered walk opens no object of the symfs"
	for t in 1 4; do
		expect_eq "$f: objects opened with $t threads" "$(opens "$WORK/$f.data" --threads $t)" \
			"$want"
	done
done

# compare's runs name the same kernel and objects: each is read once for
# all the runs, not once a run, whatever the threads (lib/util/shared.h)
cmp_opens() {	# SIDE SIDE OPTIONS...: how often compare opens the kernel symbols and each object
	local a=$1 b=$2
	shift 2
	ASAN_OPTIONS=detect_leaks=0 strace -f -qq -e trace=openat -o "$WORK/opens" \
		"$VMPROF" compare "$@" "${opts[@]}" -o "$WORK/opens.xml" "$a" "$b" \
		>/dev/null 2>&1 || fail "compare $* failed under strace"
	grep -v ENOENT "$WORK/opens" | grep -o "\"$F/\(symfs[^\"]*\|kallsyms\)\"" | sort | uniq -c
}
want=$(cmp_opens "$WORK/runsA/run-1.data" "$WORK/runsB/run-1.data" --threads 1)
grep -q kallsyms <<< "$want" || fail "compare of one run a side opens no kernel symbols: $want"
for t in 1 2 4; do
	expect_eq "compare of 5 runs a side with $t threads: the kernel symbols and objects opened" \
		"$(cmp_opens "$WORK/runsA" "$WORK/runsB" --threads $t)" "$want"
done

command -v perf >/dev/null || skip "perf is not installed: the threads agree, perf not asked"
for f in weights callchain; do
	perf report -i "$WORK/big-$f.data" --stdio --no-children -g none --sort dso,sym -n -t $'\x1f' \
		"${opts[@]}" > "$WORK/big-$f.perf" 2>/dev/null || fail "perf report failed on big-$f"
	python3 "$TOP/test/perf_agree.py" "$WORK/big-$f.perf" "$WORK/big-$f.4" ||
		fail "big-$f: vmprof with 4 threads and perf disagree"
done
echo "ok"
