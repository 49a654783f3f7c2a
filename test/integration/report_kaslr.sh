#!/usr/bin/env bash
# Kernel samples resolve on a later boot of the same kernel: the file's
# kernel addresses are moved as KASLR would move them (samples and the
# recorded kernel map together) and the report must not change; perf, which
# relocates from the same recorded map, must agree on the moved file.
source "$(dirname "$0")/../lib.sh"
need_perf
F=$TOP/test/fixtures
export HOME=$WORK
[ "$(cat "$F/kernel-release")" = "$(uname -r)" ] || skip "fixtures come from kernel $(cat "$F/kernel-release"), this machine runs $(uname -r)"

opts=(--symfs "$F/symfs" --kallsyms /proc/kallsyms)
"$VMPROF" report "$F/multi.data" "${opts[@]}" > "$WORK/before" 2>/dev/null
grep -q '\[k\] [a-z_]' "$WORK/before" || fail "the fixture has no resolved kernel rows to move"
for delta in 0x1000000 0x3a00000 -0x200000; do
	moved=$(python3 "$TOP/test/shift_kernel.py" "$F/multi.data" "$WORK/moved.data" "$delta")
	[ "$moved" -gt 10 ] || fail "only $moved kernel samples moved"
	"$VMPROF" report "$WORK/moved.data" "${opts[@]}" > "$WORK/after" 2>/dev/null
	diff <(grep -v '^# vmprof report of' "$WORK/before") <(grep -v '^# vmprof report of' "$WORK/after") ||
		fail "kernel rows changed after moving the kernel by $delta"
	perf report -i "$WORK/moved.data" --stdio --no-children -g none --sort dso,sym -n -t $'\x1f' \
		"${opts[@]}" > "$WORK/perf" 2>/dev/null
	python3 "$TOP/test/perf_agree.py" "$WORK/perf" "$WORK/after" >/dev/null || fail "perf disagrees at $delta"
done
echo "ok"
