#!/usr/bin/env bash
# Kernel samples resolve on a later boot of the same kernel: a recording made
# here and now has its kernel addresses moved as KASLR would move them
# (samples and the recorded kernel map together) and the report must not
# change; perf, which relocates from the same recorded map, must agree on the
# moved file. The file records this kernel's build-id, so this machine's
# kallsyms is used without --kallsyms.
source "$(dirname "$0")/../lib.sh"
need_perf
export HOME=$WORK
cd "$WORK"

gcc -O1 -g -pthread -o iorw "$TOP/examples/workloads/iorw.c"
perf record -q -e cpu-clock -F 4000 -o live.data -- ./iorw "$WORK" 3000 >/dev/null 2>&1
"$VMPROF" report live.data > before 2>err || { cat err; fail "report failed"; }
grep -q '\[k\] [a-z_]' before || fail "the recording has no resolved kernel rows to move"
grep -q 'kernel samples stay unresolved' err && fail "kernel samples unresolved on their own kernel"
for delta in 0x1000000 0x3a00000 -0x200000; do
	moved=$(python3 "$TOP/test/shift_kernel.py" live.data moved.data "$delta")
	[ "$moved" -gt 10 ] || fail "only $moved kernel samples moved"
	"$VMPROF_SAN" report moved.data > after 2>err || { cat err; fail "report of the moved file failed"; }
	diff <(grep -v '^# vmprof report of' before) <(grep -v '^# vmprof report of' after) ||
		fail "kernel rows changed after moving the kernel by $delta"
	perf report -i moved.data --stdio --no-children -g none --sort dso,sym -n -t $'\x1f' \
		> perf.txt 2>/dev/null
	python3 "$TOP/test/perf_agree.py" perf.txt after >/dev/null || fail "perf disagrees at $delta"
done
echo "ok"
