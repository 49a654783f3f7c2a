#!/usr/bin/env bash
# report --io, appio-complete: examples/workloads/appio.c prints, per function
# and direction, the calls it made, the bytes moved, the errors, short
# transfers and EOF reads; the table from `vmprof record --io` must hold
# exactly those numbers for every function (and mean block = bytes / calls).
# Time inside the calls: a second run of the same workload under Debian's
# strace -f -T (each call's own time), summed per direction, within 10% of
# vmprof's (the workload's reads and writes mostly wait on slow pipes, so the
# time is the workload's, not the tracer's). perf reads the file.
source "$(dirname "$0")/../lib.sh"
need_perf
need_tracefs syscalls
[ -x "$BUILD/examples/appio" ] || skip "workloads not built (make workloads)"
command -v strace > /dev/null || skip "strace is not installed (make deps installs it)"
cd "$WORK"
appio=$BUILD/examples/appio
"$VMPROF_SAN" record --io -e cpu-clock -o io.data -- "$appio" "$WORK" 50 10 > said 2> err ||
	{ cat err; fail "record --io"; }
"$VMPROF_SAN" report --io --format csv io.data > io.csv 2> err || { cat err; fail "report --io"; }
"$VMPROF_SAN" report --io io.data > io.txt 2> err || { cat err; fail "report --io (table)"; }
perf script -i io.data > /dev/null 2> perf.err || { cat perf.err; fail "perf script cannot read the file"; }
python3 - <<'PY' || fail "the I/O table differs from what the workload counted"
import csv
rows = {(r["symbol"], r["direction"]): r for r in csv.DictReader(open("io.csv"))}
n = 0
for line in open("said"):
    w = line.split()
    if w[0] != "appio:":
        continue
    fn, d = w[1], w[2]
    want = {"bytes": w[3], "calls": w[5], "errors": w[7], "short": w[9], "eof": w[11]}
    r = rows.get((fn, d))
    assert r, f"no row for {fn} {d}"
    got = {k: r[k] for k in want}
    assert got == want, f"{fn} {d}: vmprof {got}, the workload {want}"
    assert abs(float(r["mean_block"]) - int(want["bytes"]) / int(want["calls"])) < 1e-3, f"{fn} {d} mean block"
    assert r["timed_calls"] == r["calls"], f"{fn} {d}: {r['timed_calls']} of {r['calls']} calls timed"
    n += 1
assert n == 11, f"the workload printed {n} counts, want 11"
print(f"ok: {n} functions and directions equal the workload's own counts")
PY
grep -q "^  read .*\[\.\] read_pipe$" io.txt || fail "the text table has no read_pipe row: $(cat io.txt)"
# --tid keeps one thread's calls: feed's thread (its writes are 3000 bytes, perf script says)
perf script -i io.data -F tid,event,trace > script.txt 2>/dev/null || fail "perf script"
tid=$(awk '/sys_enter_write:/ && /count: 0x00000bb8/ && !t { t = $1 } END { print t }' script.txt)
[ -n "$tid" ] || fail "perf script shows no write of feed's 3000 bytes"
"$VMPROF_SAN" report --io --format csv --tid "$tid" io.data > tid.csv || fail "report --io --tid"
expect_eq "--tid $tid (feed's thread)" "$(tail -n +2 tid.csv | cut -d, -f1,4,5 | tr '\n' ' ')" '"feed",write,10 '

# time inside the calls, against strace (a run of its own: strace slows every call)
"$VMPROF_SAN" record --io -e cpu-clock -o slow.data -- "$appio" "$WORK" 1 20 > /dev/null 2> err ||
	{ cat err; fail "record --io (time)"; }
"$VMPROF_SAN" report --io --format csv slow.data > slow.csv || fail "report --io (time)"
strace -f -T -e trace=read,write,pread64,pwrite64 -o strace.txt "$appio" "$WORK" 1 20 > /dev/null ||
	fail "strace"
python3 - <<'PY' || fail "time inside the calls differs from strace's"
import csv, re
ours = {"read": 0.0, "write": 0.0}
for r in csv.DictReader(open("slow.csv")):
    ours[r["direction"]] += int(r["time_ns"]) / 1e9
theirs = {"read": 0.0, "write": 0.0}
for line in open("strace.txt"):
    # "PID read(...) = N <0.010131>" or, for a call another thread's line cut,
    # "PID <... read resumed>...) = N <0.010131>"
    m = re.match(r"^\d+\s+(?:<\.\.\. )?(read|write|pread64|pwrite64)[( ].*<([\d.]+)>$", line)
    if m:
        theirs["write" if "write" in m.group(1) else "read"] += float(m.group(2))
for d in ("read", "write"):
    print(f"{d}: vmprof {ours[d]:.4f} s, strace {theirs[d]:.4f} s")
    assert theirs[d] > 0.1, f"strace saw {theirs[d]} s of {d}: the workload did not wait"
    assert abs(ours[d] - theirs[d]) <= 0.1 * theirs[d], f"{d}: not within 10%"
PY
echo ok
