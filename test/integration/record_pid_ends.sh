#!/usr/bin/env bash
# vmprof record -p stops by itself when the processes it follows have ended
# (as perf record -p does), with a complete file holding their samples.
source "$(dirname "$0")/../lib.sh"
need_perf
cd "$WORK"
gcc -O1 -o weights "$TOP/test/workloads/weights.c"
mkfifo go
# the workload waits on the fifo, so it exists (with its threads) before the recorder starts
sh -c 'read x < go; exec ./weights 20000000' & wp=$!
"$VMPROF" record -e cpu-clock -p $wp -o p.data 2>/dev/null & rp=$!
until [ -e p.data.partial ]; do sleep 0.02; done	# the recorder has opened its events
echo go > go
# a recorder that never notices the end is a failure, not a hang of the suite
( sleep 60; kill -TERM $rp 2>/dev/null ) & guard=$!
wait $rp || fail "record -p failed"
kill $guard 2>/dev/null || true
wait $wp 2>/dev/null || true
[ -s p.data ] || fail "no finished p.data"
[ "$("$VMPROF" report --header p.data | grep -c 'duration')" = 1 ] || fail "no header in p.data"
d=$("$VMPROF" report --header p.data | sed -n 's/^# duration *: \([0-9.]*\) s/\1/p')
awk -v d="$d" 'BEGIN { exit !(d < 50) }' || fail "record -p went on after the process ended (duration $d s)"
perf report -i p.data --stdio --sort sym 2>/dev/null | grep -q ' w4' || fail "no samples of the process"
echo ok
