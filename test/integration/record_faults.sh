#!/usr/bin/env bash
# vmprof record under failure: no PMU, unknown events, a command that cannot
# run, SIGINT (a complete file), SIGKILL (a file vmprof recovers, the
# previous output untouched), the command's exit status passed on.
source "$(dirname "$0")/../lib.sh"
need_perf
cd "$WORK"
gcc -O1 -o weights "$TOP/test/workloads/weights.c"

no_output() { [ ! -e "$1" ] && [ ! -e "$1.partial" ] || fail "a failed recording left $1 behind"; }

# The default event falls back from cycles to cpu-clock, once, when no PMU answers.
if ! perf stat -e cycles true 2>&1 | grep -q "<not supported>"; then
	note "this machine has a PMU: the fallback is not exercised"
else
	"$VMPROF" record -o def.data -- ./weights 1000000 2> err || fail "default record failed"
	expect_eq "fallback messages" "$(grep -c 'recorded cpu-clock instead' err)" 1
	perf evlist -i def.data | grep -qx cpu-clock || fail "fallback did not record cpu-clock"
	expect_status 1 "$VMPROF" record -e cycles -o cyc.data -- true
	grep -q "event 'cycles': no hardware PMU" "$WORK/err" || fail "no PMU message: $(cat "$WORK/err")"
	no_output cyc.data
fi
expect_status 1 "$VMPROF" record -e bogus-event -o bad.data -- true
grep -q "event 'bogus-event': unknown event" "$WORK/err" || fail "bogus event: $(cat "$WORK/err")"
no_output bad.data
expect_status 1 "$VMPROF" record -e sched:no_such_tracepoint -o bad.data -- true
grep -q "event 'sched:no_such_tracepoint': no such tracepoint" "$WORK/err" || fail "tracepoint: $(cat "$WORK/err")"
no_output bad.data
expect_status 1 "$VMPROF" record -e cpu-clock -o bad.data -- ./no-such-program
grep -q "cannot run './no-such-program'" "$WORK/err" || fail "missing program: $(cat "$WORK/err")"
no_output bad.data
expect_status 2 "$VMPROF" record -o bad.data
expect_status 2 "$VMPROF" record --host --guest -- true

# The command's exit status is vmprof's.
expect_status 3 "$VMPROF" record -e cpu-clock -o st.data -- sh -c 'exit 3'

# wait_grows FILE: until the recorder has written records past the header
wait_grows() {
	for _ in $(seq 500); do
		[ "$(stat -c %s "$1" 2>/dev/null || echo 0)" -gt 4096 ] && return 0
		sleep 0.02
	done
	fail "$1 never grew"
}

# SIGINT: the recording ends cleanly with a complete file.
"$VMPROF" record -e cpu-clock -F 10000 -o int.data -- ./weights 100000000 40 40 40 2>/dev/null & rp=$!
wait_grows int.data.partial
kill -INT $rp
wait $rp || true
[ -s int.data ] && [ ! -e int.data.partial ] || fail "SIGINT did not leave a finished int.data"
"$VMPROF" report int.data > /dev/null 2> err || { cat err; fail "report of the interrupted file"; }
grep -q "recovered" err && fail "a SIGINT file should be complete, not recovered"
perf report -i int.data --stdio > /dev/null 2>&1 || fail "perf cannot read the SIGINT file"

# SIGKILL: the previous output stays; the partial file is recovered by report.
cp int.data keep.data
"$VMPROF" record -e cpu-clock -o keep.data -- ./weights 100000000 40 40 40 2>/dev/null & rp=$!
wait_grows keep.data.partial
wp=$(pgrep -P $rp) # the workload outlives a SIGKILLed recorder: end it by its pid
kill -KILL $rp
wait $rp 2>/dev/null || true
[ -n "$wp" ] && kill -KILL $wp 2>/dev/null || true
cmp -s int.data keep.data || fail "SIGKILL damaged the previous output"
"$VMPROF" report keep.data.partial > killed.txt 2> err || { cat err; fail "report cannot read a killed recording"; }
grep -q "recovered" err || fail "no recovery warning for a killed recording"
grep -q " w[124]$" killed.txt || fail "the killed recording holds no samples of the workload"

# An existing output is kept as .old when a new one is complete.
"$VMPROF" record -e cpu-clock -o int.data -- true 2>/dev/null
[ -s int.data.old ] || fail "no int.data.old"
cmp -s int.data.old keep.data || fail "int.data.old is not the previous file"
echo ok
