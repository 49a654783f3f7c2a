#!/usr/bin/env bash
# Replay the committed seeds and regression inputs of each fuzz target through
# its ASan build; and the truncation and byte-flip sweeps over a perf.data and
# a pprof profile.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD:-$top/build}
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
# On one CPU: the targets still run their walks on 2 and 3 threads, but a
# process whose threads ran on several CPUs interrupts the others at every
# unmap (ASan unmaps at every large free), dear in a virtual machine: the
# 10501 cuts of multi.data took 64 s on 2 CPUs, 44 s on one (2026-12-02).
# Nor side by side, each pinned to a CPU of its own: the five sweeps then
# took 2m50s against 1m32s one after another, their kernel time 2m7s
# against 47s (2026-12-02).
pin=()
if cpu=$(taskset -pc $$ 2>/dev/null | sed 's/.*: *//; s/[,-].*//') && [ -n "$cpu" ]; then
	pin=(taskset -c "$cpu")
fi
fail=0
run() {	# run NAME CMD...
	local out
	if out=$("${pin[@]}" "$@" 2>&1); then
		printf 'PASS  fuzz-replay %-28s %s\n' "$1" "$(tail -1 <<< "$out")"
	else
		printf 'FAIL  fuzz-replay %s\n%s\n' "$*" "$(tail -40 <<< "$out")"
		fail=1
	fi
}
for t in "$@"; do
	files=("$top/test/fuzz/corpus/$t"/* "$top/test/fuzz/regress/$t"/*)
	inputs=()
	for f in "${files[@]}"; do [ -f "$f" ] && inputs+=("$f"); done
	run "$build/san/replay_$t" "${inputs[@]}"
done
# every cut and every flipped header byte of a small recording: reads, recovers or fails cleanly
run "$build/san/replay_perfdata" --truncate "$top/test/fixtures/multi.data"
run "$build/san/replay_perfdata" --flip "$top/test/fixtures/weights.data" 4096
run "$build/san/replay_perfdata" --truncate "$top/test/fixtures/pipe.data"
# and of a pprof export, uncompressed (every field of the protobuf)
run "$build/san/replay_pprof" --truncate "$top/test/fuzz/corpus/pprof/vmprof-cxx.pb"
run "$build/san/replay_pprof" --flip "$top/test/fuzz/corpus/pprof/vmprof-cxx.pb" 4096
exit $fail
