#!/usr/bin/env bash
# make fuzz: run each libFuzzer target for FUZZ_SECONDS on a working corpus
# grown from the committed seeds; report execs and coverage; a crash is
# copied to test/fuzz/regress/TARGET/ (commit it once fixed: make check replays it).
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
secs=${FUZZ_SECONDS:-10}
build=${BUILD:-$top/build}
status=0
# UBSan findings are crashes too; leaks inside libraries are not ours (lsan.supp)
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export LSAN_OPTIONS=suppressions=$top/test/lsan.supp
for t in "$@"; do
	work=$build/fuzz/corpus/$t
	rm -rf "$build/fuzz/crashes/$t"	# only this run's findings are copied below
	mkdir -p "$work" "$top/test/fuzz/regress/$t" "$build/fuzz/crashes/$t"
	log=$build/fuzz/$t.log
	LSAN_OPTIONS=suppressions=$top/test/lsan.supp "$build/fuzz/fuzz_$t" "$work" "$top/test/fuzz/corpus/$t" -max_total_time="$secs" -timeout=20 \
		-rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$build/fuzz/crashes/$t/" \
		> "$log" 2>&1
	rc=$?
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
	cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1)
	ft=$(grep -o 'ft: [0-9]*' "$log" | tail -1)
	printf 'fuzz %-10s %4ss  %10s execs  %s  %s  exit %s\n' "$t" "$secs" "${execs:-?}" "${cov:-cov: ?}" "${ft:-ft: ?}" "$rc"
	for c in "$build/fuzz/crashes/$t"/*; do
		# a child the code forks on purpose (tracing data trial parse) may
		# leave an artifact when it dies: only a failed run's findings count
		[ -e "$c" ] && [ "$rc" -ne 0 ] || continue
		cp "$c" "$top/test/fuzz/regress/$t/"
		echo "fuzz $t: crash input saved as test/fuzz/regress/$t/$(basename "$c")"
		status=1
	done
	[ "$rc" -eq 0 ] || status=1
done
exit $status
