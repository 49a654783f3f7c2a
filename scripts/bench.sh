#!/usr/bin/env bash
# make bench: vmprof against the real perf, measured in the same run on the
# same files. Prints raw figures and ratios; asserts nothing (speed goals are
# reported, not tested). Big files live in a temporary directory removed at exit.
# Usage: scripts/bench.sh [VMPROF]   (env BENCH_MB: target file size, default 300)
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
vmprof=${1:-$top/build/vmprof}
target_mb=${BENCH_MB:-300}
tmp=$(mktemp -d "${TMPDIR:-/var/tmp}/vmprof-bench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
export LC_ALL=C HOME=$tmp	# no perf build-id cache: both tools read the same binaries

say() { printf '%s\n' "$*"; }
# measure LABEL CMD...: wall seconds and peak RSS (kB) of one run, output discarded
measure() {
	local label=$1; shift
	/usr/bin/time -f "%e %M" -o "$tmp/time" "$@" >/dev/null 2>"$tmp/err" || {
		cat "$tmp/err" >&2; say "bench: '$label' failed"; exit 1; }
	read -r wall rss < "$tmp/time"
	printf '  %-34s wall %7.2f s   peak RSS %8d kB\n' "$label" "$wall" "$rss"
	eval "${label//[^a-zA-Z0-9]/_}_wall=$wall ${label//[^a-zA-Z0-9]/_}_rss=$rss"
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b <= 0) b = 0.001; printf "%.1f", a / b }'; }
verdict() { awk -v r="$1" -v g="$2" 'BEGIN { print (r >= g) ? "met" : "NOT met" }'; }

say "vmprof bench: $(nproc) CPUs, $(uname -r), $(perf version)"
gcc -O1 -g -fno-omit-frame-pointer -o "$tmp/weights" "$top/test/workloads/weights.c"
g++ -O1 -g -fno-omit-frame-pointer -std=c++17 -o "$tmp/cxx" "$top/test/workloads/cxx_names.cc"

# A system-wide cpu-clock recording at a high rate, grown until it is big enough.
record_big() {
	local out=$1 mb=$2; shift 2
	local secs=2
	for _ in 1 2 3 4 5 6; do
		perf record -q -a -e cpu-clock -c 20000 "$@" -o "$out" -- \
			bash -c "for i in \$(seq $((secs * 2))); do '$tmp/weights' 40000000; '$tmp/cxx' 40; done" \
			>/dev/null 2>&1
		local size=$(( $(stat -c %s "$out") / 1048576 ))
		[ "$size" -ge "$mb" ] && return 0
		secs=$(( secs * mb / (size + 1) + 1 ))
	done
}

say ""
say "== report: vmprof report --sort sym vs perf report --stdio --sort sym"
record_big "$tmp/big.data" "$target_mb"
size=$(stat -c %s "$tmp/big.data")
samples=$(perf report -i "$tmp/big.data" --stdio --sort sym -n 2>/dev/null | awk '/^# Samples:/ { print $3 }')
say "  file: $((size / 1048576)) MB, $samples samples"
cat "$tmp/big.data" > /dev/null
measure "cat (page cache warm)" cat "$tmp/big.data"
measure "perf report" perf report -i "$tmp/big.data" --stdio --sort sym
measure "vmprof report" "$vmprof" report --sort sym "$tmp/big.data"
r=$(ratio "$perf_report_wall" "$vmprof_report_wall")
m=$(ratio "$perf_report_rss" "$vmprof_report_rss")
say "  speed: vmprof is ${r}x faster than perf report (goal >= 10x: $(verdict "$r" 10))"
say "  memory: perf report uses ${m}x vmprof's peak RSS (goal >= 4x: $(verdict "$m" 4))"
bps=$(awk -v s="$size" -v w="$vmprof_report_wall" 'BEGIN { printf "%.0f", s / 1048576 / (w > 0 ? w : 0.001) }')
cps=$(awk -v s="$size" -v w="$cat__page_cache_warm__wall" 'BEGIN { printf "%.0f", s / 1048576 / (w > 0 ? w : 0.001) }')
say "  throughput: vmprof report $bps MB/s, cat $cps MB/s ($(ratio "$bps" "$cps")x of a plain read; goal >= 0.1x)"
