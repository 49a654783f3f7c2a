#!/usr/bin/env bash
# vmprof record SIGKILLed at random moments, 24 times: from before the
# output exists, through sampling, to the final rename. Each time the previous
# output is intact under its name, and a .partial file, when one is left, is
# read or recovered by vmprof report (exit 0), never an error or a crash.
source "$(dirname "$0")/../lib.sh"
need_perf
cd "$WORK"
gcc -O1 -g -fno-omit-frame-pointer -o weights "$TOP/test/workloads/weights.c"
"$VMPROF" record -e cpu-clock -o out.data -- ./weights 1000000 2>/dev/null
cp out.data before.data
runs=24 partials=0 finished=0
for i in $(seq $runs); do
	# The moment: 0 to ~1.2 s into a recording whose workload runs about 1 s
	# (the random delay is the test's input, not a synchronisation).
	delay=$(printf '0.%03d' $(( (RANDOM * 1200 / 32768) % 1000 )))
	[ $((RANDOM % 5)) -eq 0 ] && delay=1.$((RANDOM % 10))
	# its own process group: the workload dies with the recorder, not orphaned
	setsid "$VMPROF" record -g -e cpu-clock -F 4000 -o out.data -- ./weights 150000000 \
		>/dev/null 2>&1 & rp=$!
	sleep "$delay"
	kill -KILL -- -$rp 2>/dev/null || true
	wait $rp 2>/dev/null || true
	if cmp -s out.data before.data; then
		:
	elif "$VMPROF" report --header out.data >/dev/null 2>&1 && [ -s out.data.old ] &&
	     cmp -s out.data.old before.data; then
		finished=$((finished + 1))	# finished before the kill: the new file is whole
		cp out.data before.data
	else
		fail "run $i (killed after ${delay}s): the previous out.data was damaged or lost"
	fi
	if [ -e out.data.partial ]; then
		partials=$((partials + 1))
		set +e
		"$VMPROF" report out.data.partial > report.txt 2> err; rc=$?
		set -e
		[ $rc -eq 0 ] || { cat err; fail "run $i (killed after ${delay}s): report exits $rc on the partial file"; }
		rm -f out.data.partial
	fi
done
note "$runs kills: $partials left a partial file, $finished came after the recording finished"
[ $partials -gt 0 ] || fail "no kill landed during a recording: the test did not test"
echo ok
