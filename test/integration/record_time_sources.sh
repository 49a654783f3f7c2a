#!/usr/bin/env bash
# Where the time went, against the sources themselves: test/workloads/timesrc.c,
# run under vmprof record, reads what the kernel says (wait4's rusage of its
# process tree and its own getrusage, /proc/stat's steal, each thread's
# /proc/thread-self/schedstat before it ends, its own clock) and prints it;
# the recording's header must say the same: wall time, user and system CPU,
# steal, runnable wait (schedstat's run-queue wait summed over the threads)
# and blocked time (each thread's lifetime minus its run and wait). Three
# threads share one CPU so that they wait; each sleeps between bursts.
source "$(dirname "$0")/../lib.sh"
need_perf
need_tracefs sched
[ -r /proc/self/schedstat ] || skip "no /proc/PID/schedstat (CONFIG_SCHED_INFO) to check against"
command -v taskset > /dev/null || skip "taskset (util-linux) is not installed"
cd "$WORK"
gcc -O1 -g -fno-omit-frame-pointer -pthread -o timesrc "$TOP/test/workloads/timesrc.c"
cpu=$(cut -d, -f1 /sys/devices/system/cpu/online | cut -d- -f1)
"$VMPROF_SAN" record -e cpu-clock -o t.data -- taskset -c "$cpu" ./timesrc 3 8 30 10 > said 2> err ||
	{ cat err; fail "record"; }
"$VMPROF_SAN" report --header t.data > header || fail "report --header"
grep -q "^# sched method *: switch records and wakeups" header ||
	fail "the wakeups were not followed: $(grep 'sched method' header)"
python3 - <<'PY' || fail "the recording's times differ from the sources'"
import re
said = dict(l.split()[1:3] for l in open("said") if l.startswith("timesrc: "))
said = {k: float(v) for k, v in said.items()}
hdr = {}
for line in open("header"):
    m = re.match(r"^# ([a-z ]+?)\s*: ([\d.]+) s", line)
    if m:
        hdr[m.group(1)] = float(m.group(2))
checks = [  # what, the recording's, the source's, tolerance in seconds
    ("wall", hdr["wall time"], said["wall"], 0.02 + 0.02 * said["wall"]),
    ("user", hdr["user time"], said["user"], 0.005 + 0.02 * said["user"]),
    ("system", hdr["system time"], said["system"], 0.005 + 0.02 * said["system"]),
    ("steal", hdr["steal time"], said["steal"], 0.021),  # ticks of 10 ms, read at other moments
    ("runnable wait", hdr["runnable wait"], said["runnable"], 0.005 + 0.03 * said["runnable"]),
    ("blocked", hdr["blocked time"], said["blocked"], 0.01 + 0.03 * said["blocked"]),
]
bad = 0
for what, ours, theirs, tol in checks:
    ok = abs(ours - theirs) <= tol
    bad += not ok
    print(f"{what:14} recorded {ours:.6f} s, source {theirs:.6f} s {'ok' if ok else 'DIFFERS'} (±{tol:.3f})")
assert said["runnable"] > 0.2, f"the threads hardly waited ({said['runnable']} s): nothing was checked"
assert not bad
PY
echo ok
