#!/usr/bin/env bash
# Damaged recordings never crash or hang report: a small recording cut at
# every byte, its unfinished form cut at every byte of its data, and every
# byte of its header and first records inverted each either read (recovered
# with a warning when unfinished) or fail with exit 1 naming the file. Runs
# the sanitized binary, 10 s at most per case.
source "$(dirname "$0")/../lib.sh"
F=$TOP/test/fixtures

# the small file is itself sound: perf and vmprof read the same samples
want=$(python3 "$TOP/test/make_tiny.py" "$F/weights.data" "$WORK/tiny.data" 1016)
[ "$want" -gt 0 ] || fail "the cut-down recording kept no samples"
printf 'ffffffff81000000 T _text\n' > "$WORK/kallsyms"
args=(--symfs "$F/symfs" --kallsyms "$WORK/kallsyms")
expect_status 0 "$VMPROF" report "${args[@]}" "$WORK/tiny.data"
got=$(awk '/^# Samples:/ { s += $3 } END { print s + 0 }' "$WORK/out")
expect_eq "samples in the cut-down recording" "$got" "$want"
if command -v perf >/dev/null; then
	perf_n=$(perf report -i "$WORK/tiny.data" --stdio -n --sort dso 2>/dev/null |
		awk '!/^#/ && NF { s += $2 } END { print s + 0 }')
	expect_eq "samples perf reads in the cut-down recording" "$perf_n" "$want"
fi

mkdir "$WORK/cases"
python3 "$TOP/test/truncation.py" "$VMPROF_SAN" "$WORK/tiny.data" "$WORK/cases" "${args[@]}"
