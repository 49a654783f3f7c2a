#!/usr/bin/env bash
# A recording killed with SIGKILL keeps what was sampled until shortly before:
# even at a low rate, where a ring buffer takes many seconds to reach its
# wakeup watermark, records reach the file within a fraction of a second, and
# vmprof report recovers them (samples of the workload's own functions).
source "$(dirname "$0")/../lib.sh"
need_perf
cd "$WORK"
gcc -O1 -o weights "$TOP/test/workloads/weights.c"
# -F 200: about 10 kB of samples a second, a quarter of the 512 KiB ring in ~13 s
"$VMPROF" record -e cpu-clock -F 200 -o low.data -- ./weights 100000000 40 40 40 2>/dev/null & rp=$!
grown=0
for _ in $(seq 250); do	# until records past the header reach the file (5 s at most)
	[ "$(stat -c %s low.data.partial 2>/dev/null || echo 0)" -gt 2048 ] && { grown=1; break; }
	sleep 0.02
done
child=$(pgrep -P $rp || true)	# the workload outlives a killed recorder: end it by its id
kill -KILL $rp
wait $rp 2>/dev/null || true
[ -n "$child" ] && kill -KILL $child 2>/dev/null || true
[ "$grown" = 1 ] || fail "at -F 200 nothing reached the file within 5 s"
"$VMPROF" report low.data.partial > low.txt 2> err || { cat err; fail "report of the killed recording"; }
grep -q "recovered" err || fail "no recovery warning"
grep -q " w[124]$" low.txt || fail "the killed recording holds no samples of the workload"
echo ok
