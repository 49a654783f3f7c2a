#!/usr/bin/env bash
# Samples in the vDSO are named as perf names them ([vdso] __vdso_clock_gettime):
# from this kernel's vDSO image for perf's files and ours, and from the
# recording's own symbols for ours (portable) -- the same rows perf prints.
source "$(dirname "$0")/../lib.sh"
need_perf
export HOME=$WORK
cd "$WORK"
gcc -O1 -o vd "$TOP/test/workloads/vdso_loop.c"
agree() {	# agree NAME FILE
	perf report -i "$2" --stdio --no-children -g none --sort dso,sym -n -t $'\x1f' > "$1.perf" 2>/dev/null ||
		fail "$1: perf report failed"
	"$VMPROF" report "$2" > "$1.vmprof" 2>/dev/null || fail "$1: vmprof report failed"
	grep -q '\[vdso\].*__vdso_clock_gettime' "$1.vmprof" || fail "$1: no [vdso] symbol in vmprof's table"
	python3 "$TOP/test/perf_agree.py" "$1.perf" "$1.vmprof" || fail "$1: vmprof and perf disagree"
}
perf record -q -e cpu-clock -o perf.data -- ./vd >/dev/null 2>&1 || fail "perf record"
agree perf-file perf.data
"$VMPROF" record -e cpu-clock -o ours.data -- ./vd 2>/dev/null || fail "vmprof record"
agree our-file ours.data
grep -q "dso u [0-9a-f-]* \[vdso\]" <(tr '\0' '\n' < ours.data) || fail "the vDSO's symbols are not in our file"

# This kernel's vDSO image is read from a file in memory: the report
# creates no file (a full or read-only /tmp changes nothing).
command -v strace >/dev/null || skip "strace is not installed (make deps installs it)"
ASAN_OPTIONS=detect_leaks=0 strace -f -qq -e trace=openat,open,creat -o opens \
	"$VMPROF" report perf.data > traced.vmprof 2>/dev/null || fail "report failed under strace"
grep -q '\[vdso\].*__vdso_clock_gettime' traced.vmprof || fail "no [vdso] symbol under strace"
if grep -q 'O_CREAT\|creat(' opens; then
	fail "report created a file: $(grep 'O_CREAT\|creat(' opens | head -1)"
fi
echo ok
