#!/usr/bin/env bash
# vmprof report's per-symbol sample counts equal perf report's, row for row:
# on the committed fixtures (their binaries under symfs/ and their kernel
# symbols in kallsyms, so both tools read the same objects on any machine) and
# on recordings made right now with perf (system libraries and the running
# kernel).
source "$(dirname "$0")/../lib.sh"
need_perf
F=$TOP/test/fixtures
export HOME=$WORK	# no perf build-id cache: both tools read the same files

agree() {	# agree NAME FILE [extra options for both tools...]
	local name=$1 file=$2; shift 2
	local flags=()
	perf report -i "$file" --stdio --no-children -g none --sort dso,sym -n -t $'\x1f' "$@" \
		> "$WORK/$name.perf" 2>/dev/null || fail "$name: perf report failed"
	"$VMPROF" report "$file" "$@" > "$WORK/$name.vmprof" 2>"$WORK/$name.err" ||
		{ cat "$WORK/$name.err"; fail "$name: vmprof report failed"; }
	[ "${fold_vdso:-0}" = 1 ] && flags+=(--fold-dso=[vdso])
	python3 "$TOP/test/perf_agree.py" "$WORK/$name.perf" "$WORK/$name.vmprof" "${flags[@]}" ||
		fail "$name: vmprof and perf disagree"
}

for f in weights callchain cxx multi tracepoints pipe; do
	agree "fixture-$f" "$F/$f.data" --symfs "$F/symfs" --kallsyms "$F/kallsyms"
done

# Live: libc, ld.so, the kernel and a C++ program, resolved from the real root.
gcc -O1 -g -fno-omit-frame-pointer -o "$WORK/weights" "$TOP/test/workloads/weights.c"
g++ -O1 -g -fno-omit-frame-pointer -std=c++17 -o "$WORK/cxx" "$TOP/test/workloads/cxx_names.cc"
gcc -O1 -g -pthread -o "$WORK/iorw" "$TOP/examples/workloads/iorw.c"
perf record -q -o "$WORK/live1.data" -e cpu-clock,page-faults,context-switches -F 2000 -- \
	sh -c "'$WORK/weights' 20000000; '$WORK/cxx' 60; '$WORK/iorw' '$WORK' 300; ls -lR /usr/lib >/dev/null" \
	>/dev/null 2>&1
agree live-system "$WORK/live1.data"
perf record -q -g -o "$WORK/live2.data" -e cpu-clock -F 2000 -- "$WORK/cxx" 60 >/dev/null 2>&1
agree live-callchain "$WORK/live2.data"
perf record -q -a -o "$WORK/live3.data" -e cpu-clock -F 1000 -- "$WORK/weights" 20000000 >/dev/null 2>&1
# other processes of a shared machine: perf sometimes leaves their [vdso]
# samples as addresses, which vmprof names; those rows are compared by their sum
fold_vdso=1 agree live-system-wide "$WORK/live3.data"
echo "ok"
