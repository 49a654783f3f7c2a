#!/usr/bin/env bash
# The code that runs on several threads, under ThreadSanitizer (the build of
# `make tsan`): the walk in pieces (report on files grown to many pieces),
# the ordered walk on two threads (--children, a pipe), compare's loads of
# several files at once, the kallsyms read-ahead and the progress line. Each
# run must report no race and print the tables of one thread in the ASan
# build (a race that changes nothing visible still fails it).
source "$(dirname "$0")/../lib.sh"
F=$TOP/test/fixtures
export HOME=$WORK	# no perf build-id cache
cd "$WORK"	# compare saves vmprof.cmp.xml where it runs
TSAN=${VMPROF_TSAN:-$BUILD/tsan/vmprof}
[ -x "$TSAN" ] || fail "no ThreadSanitizer build at $TSAN (make tsan builds it)"
opts=(--symfs "$F/symfs" --kallsyms "$F/kallsyms")
export TSAN_OPTIONS="halt_on_error=1 exitcode=66 report_signal_unsafe=0"
# Without address randomisation: a kernel with more mmap_rnd_bits than the
# runtime knows puts the program where TSan's shadow memory goes.
norand=(setarch "$(uname -m)" -R)
tsan() {	# OUT CMD-ARGS...: the TSan build's run, exit 0 and no report; stdout to OUT
	local out=$1
	shift
	expect_status 0 "${norand[@]}" "$TSAN" "$@"	# a race exits 66, its report shown
	grep -q "ThreadSanitizer" "$WORK/err" && { head -60 "$WORK/err" >&2; fail "ThreadSanitizer: vmprof $*"; }
	mv "$WORK/out" "$out"
}
want() {	# OUT CMD-ARGS...: the ASan build's run on one thread
	local out=$1
	shift
	"$VMPROF" "$@" --threads 1 > "$out" 2>/dev/null || fail "vmprof $* --threads 1 failed"
}

# a probe that the runtime finds races at all: two threads writing one
# variable without a lock (else a runtime that starts but checks nothing
# would pass every run below)
cat > "$WORK/race.c" <<'EOF'
#include <pthread.h>
static int shared;
static void *bump(void *p) { for (int i = 0; i < 100000; i++) shared++; return p; }
int main(void)
{
	pthread_t t;
	pthread_create(&t, 0, bump, 0);
	bump(0);
	pthread_join(t, 0);
	return shared == 0;
}
EOF
cc -O1 -g -fsanitize=thread -pthread -o "$WORK/race" "$WORK/race.c" || fail "cannot build with -fsanitize=thread"
expect_status 66 "${norand[@]}" "$WORK/race"
grep -q "data race" "$WORK/err" || { cat "$WORK/err" >&2; fail "ThreadSanitizer names no race in a racy program"; }

for f in weights:600 callchain:1000; do
	n=${f#*:} f=${f%:*}
	python3 "$TOP/scripts/perfdata-repeat.py" "$F/$f.data" "$WORK/$f.data" "$n"
done
for f in weights callchain; do
	for sort in sym comm,dso,sym; do
		want "$WORK/$f.$sort.want" report "$WORK/$f.data" "${opts[@]}" --sort "$sort"
		for t in 2 4; do
			tsan "$WORK/$f.$sort.$t" report "$WORK/$f.data" "${opts[@]}" --sort "$sort" --threads $t
			cmp "$WORK/$f.$sort.want" "$WORK/$f.$sort.$t" ||
				fail "$f --sort $sort: --threads $t under TSan prints another table"
		done
	done
done
# the ordered walk on two threads: the children table, and a pipe
want "$WORK/children.want" report "$WORK/callchain.data" "${opts[@]}" --children
tsan "$WORK/children.2" report "$WORK/callchain.data" "${opts[@]}" --children --threads 2
cmp "$WORK/children.want" "$WORK/children.2" || fail "--children under TSan prints another table"
"$VMPROF" report - "${opts[@]}" --threads 1 < "$F/pipe.data" > "$WORK/pipe.want" 2>/dev/null ||
	fail "report of a pipe failed"
tsan "$WORK/pipe.2" report - "${opts[@]}" --threads 2 < "$F/pipe.data"
cmp "$WORK/pipe.want" "$WORK/pipe.2" || fail "a pipe under TSan prints another table"
# the kernel's symbols through the read-ahead thread: from a pipe, as from
# /proc/kallsyms (a regular file, its size known, is read without one), on
# one thread of work (workers on every CPU would leave none for it)
want "$WORK/kernel.want" report "$WORK/weights.data" "${opts[@]}" --sort dso,sym
tsan "$WORK/kernel.2" report "$WORK/weights.data" --symfs "$F/symfs" --kallsyms <(cat "$F/kallsyms") \
	--sort dso,sym --threads 1
cmp "$WORK/kernel.want" "$WORK/kernel.2" || fail "--sort dso,sym under TSan prints another table"

# compare: two files loaded at once, and runs (more files than threads)
mkdir -p "$WORK/runsA" "$WORK/runsB"
for k in 1 2 3; do
	cp "$F/weights.data" "$WORK/runsA/run-$k.data"
	cp "$F/cxx.data" "$WORK/runsB/run-$k.data"
done
for pair in "$WORK/weights.data $WORK/callchain.data" "$WORK/runsA $WORK/runsB"; do
	read -r a b <<< "$pair"
	want "$WORK/cmp.want" compare "${opts[@]}" "$a" "$b"
	tsan "$WORK/cmp.2" compare "${opts[@]}" --threads 2 "$a" "$b"
	cmp "$WORK/cmp.want" "$WORK/cmp.2" || fail "compare $a $b under TSan prints another table"
done

# the progress line's thread, on a pseudo-terminal (inputs over 100 MB)
python3 "$TOP/scripts/perfdata-repeat.py" "$F/callchain.data" "$WORK/big.data" 11000
want "$WORK/big.want" report "$WORK/big.data" "${opts[@]}"
python3 "$TOP/test/pty_run.py" "$WORK/big.2" "${norand[@]}" "$TSAN" report \
	"$WORK/big.data" "${opts[@]}" --threads 2 > "$WORK/big.tty"
grep -q "ThreadSanitizer" "$WORK/big.tty" && { head -60 "$WORK/big.tty" >&2; fail "ThreadSanitizer: report on a terminal"; }
grep -qx "exit 0" "$WORK/big.tty" || fail "report on a terminal under TSan: $(tail -n 1 "$WORK/big.tty")"
grep -qE 'vmprof report: +[0-9]+% of' "$WORK/big.tty" || fail "no progress line under TSan: $(head -c 300 "$WORK/big.tty")"
cmp "$WORK/big.want" "$WORK/big.2" || fail "report on a terminal under TSan prints another table"
note "no race in $(ls "$WORK"/*.want | wc -l) kinds of runs"
