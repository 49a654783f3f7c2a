#!/usr/bin/env bash
# A recording whose header was never finished (recorder killed) is read up to
# its last whole record, with a warning; pipe-format files and stdin are read.
# The fixture's kernel symbols come with it (--kallsyms), so its kernel rows
# read the same on every machine; report_kernel_rule tests which kernel
# symbols a file gets without them.
source "$(dirname "$0")/../lib.sh"
F=$TOP/test/fixtures
S=(--symfs "$F/symfs" --kallsyms "$F/kallsyms")

total() { awk '/^# Samples:/ { s += $3 } END { print s + 0 }' "$1"; }

"$VMPROF" report "${S[@]}" "$F/weights.data" > "$WORK/full" 2>/dev/null
full=$(total "$WORK/full")

# Killed after the last record was written: every sample is there.
want=$(python3 "$TOP/test/make_unfinished.py" "$F/weights.data" "$WORK/killed.data")
expect_eq "independent count of the fixture's samples" "$want" "$full"
expect_status 0 "$VMPROF_SAN" report "${S[@]}" "$WORK/killed.data"
grep -q "not finished" "$WORK/err" || fail "no warning that the file was recovered"
expect_eq "samples of the recovered file" "$(total "$WORK/out")" "$want"
# Same rows as the finished file.
diff <(grep -v "^# vmprof report of" "$WORK/full") <(grep -v "^# vmprof report of" "$WORK/out") ||
	fail "recovered file gives other rows"
grep -q '\[k\] ksym_' "$WORK/out" || fail "the recovered file's kernel rows are not named from --kallsyms"

# Killed in the middle of a record: the whole records before it count.
size=$(stat -c %s "$F/weights.data")
for cut in 1001 4099 7777; do
	want=$(python3 "$TOP/test/make_unfinished.py" "$F/weights.data" "$WORK/cut.data" "$cut")
	expect_status 0 "$VMPROF_SAN" report "${S[@]}" "$WORK/cut.data"
	grep -q "not finished" "$WORK/err" || fail "cut at $cut: no recovery warning"
	expect_eq "samples before cut $cut" "$(total "$WORK/out")" "$want"
done

# Pipe format, from a file and from standard input.
expect_status 0 "$VMPROF_SAN" report "${S[@]}" "$F/pipe.data"
cp "$WORK/out" "$WORK/pipe-file"
cat "$F/pipe.data" | "$VMPROF" report "${S[@]}" - > "$WORK/pipe-stdin"
diff <(grep -v "^# vmprof report of" "$WORK/pipe-file") <(grep -v "^# vmprof report of" "$WORK/pipe-stdin") ||
	fail "stdin and file disagree"
perf_total=$(perf report -i "$F/pipe.data" --stdio -n --sort dso 2>/dev/null | awk '!/^#/ && NF { s += $2 } END { print s + 0 }')
expect_eq "pipe-format samples vs perf" "$(total "$WORK/pipe-file")" "$perf_total"
echo "ok"
