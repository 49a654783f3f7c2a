#!/usr/bin/env bash
# The progress line: on a terminal (a pseudo-terminal here), report, compare
# and convert of inputs over 100 MB draw "N% of M MB, R MB/s" lines on
# stderr and erase the last one; record draws time, samples and lost so far.
# Nothing of it when stderr is a file or with --quiet, and the output (stdout)
# is the same either way.
source "$(dirname "$0")/../lib.sh"
F=$TOP/test/fixtures
opts=(--symfs "$F/symfs" --kallsyms "$F/kallsyms")
python3 "$TOP/scripts/perfdata-repeat.py" "$F/callchain.data" "$WORK/big.data" 11000
[ "$(stat -c %s "$WORK/big.data")" -gt $((100 << 20)) ] || fail "big.data is under 100 MB"
tty() { python3 "$TOP/test/pty_run.py" "$@"; }	# OUT CMD...: what the terminal got
line='vmprof [a-z]+: +[0-9]+% of [0-9]+ MB, [0-9]+ MB/s'

# report: the line on the terminal, the same table as with stderr in a file
tty "$WORK/t.out" "$VMPROF" report "$WORK/big.data" "${opts[@]}" > "$WORK/t.err"
grep -qE "$line" "$WORK/t.err" || { cat "$WORK/t.err"; fail "report: no progress line on a terminal"; }
grep -qE '100% of [0-9]+ MB|s left' "$WORK/t.err" || fail "report: the line never says how far"
grep -qF '\r\x1b[K' "$WORK/t.err" || fail "report: the line is not erased at the end"
"$VMPROF" report "$WORK/big.data" "${opts[@]}" > "$WORK/f.out" 2> "$WORK/f.err"
cmp "$WORK/t.out" "$WORK/f.out" || fail "report: the table differs with a terminal"
grep -q '%' "$WORK/f.err" && fail "report: progress in a file: $(head -c 200 "$WORK/f.err")"
grep -q $'\r' "$WORK/f.err" && fail "report: carriage returns in a file"
tty "$WORK/q.out" "$VMPROF" report -q "$WORK/big.data" "${opts[@]}" > "$WORK/q.err"
grep -qE "$line|\\\\r" "$WORK/q.err" && fail "report --quiet: $(cat "$WORK/q.err")"
cmp "$WORK/q.out" "$WORK/f.out" || fail "report --quiet: the table differs"
# a small input: no line
tty "$WORK/s.out" "$VMPROF" report "$F/callchain.data" "${opts[@]}" > "$WORK/s.err"
grep -qE "$line" "$WORK/s.err" && fail "report: a line for a 15 kB file"

# compare and convert
tty "$WORK/c.out" "$VMPROF" compare -o "$WORK/c.xml" "$WORK/big.data" "$F/callchain.data" \
	"${opts[@]}" > "$WORK/c.err"
grep -qE 'vmprof compare: +[0-9]+% of [0-9]+ MB' "$WORK/c.err" || fail "compare: no progress line"
tty "$WORK/v.out" "$VMPROF" convert folded "$WORK/big.data" "${opts[@]}" > "$WORK/v.err"
grep -qE 'vmprof convert: +[0-9]+% of [0-9]+ MB' "$WORK/v.err" || fail "convert folded: no progress line"
"$VMPROF" convert folded "$WORK/big.data" "${opts[@]}" 2> "$WORK/vf.err" | cmp - "$WORK/v.out" ||
	fail "convert folded: the stacks differ with a terminal"
grep -q '%' "$WORK/vf.err" && fail "convert: progress in a file"

# record: time, samples, lost, on one line redrawn
if "$VMPROF" record -o "$WORK/r0.data" -e cpu-clock -- true >/dev/null 2>&1; then
	tty "$WORK/r.out" "$VMPROF" record -o "$WORK/r.data" -e cpu-clock -F 1000 -- \
		sh -c 'i=0; while [ $i -lt 300000 ]; do i=$((i+1)); done' > "$WORK/r.err"
	grep -qE 'vmprof record: [0-9.]+ s, [0-9]+ samples, [0-9]+ lost' "$WORK/r.err" ||
		{ cat "$WORK/r.err"; fail "record: no progress line on a terminal"; }
	tty "$WORK/rq.out" "$VMPROF" record -q -o "$WORK/rq.data" -e cpu-clock -- true > "$WORK/rq.err"
	grep -qE '[0-9] samples, [0-9]+ lost' "$WORK/rq.err" && fail "record --quiet: $(cat "$WORK/rq.err")"
	"$VMPROF" record -o "$WORK/rf.data" -e cpu-clock -- true 2> "$WORK/rf.err" >/dev/null
	grep -q $'\r' "$WORK/rf.err" && fail "record: carriage returns in a file"
else
	note "record cannot open cpu-clock here: its line is not tested"
fi
echo "ok"
