#!/usr/bin/env bash
# report --io, appio-complete: examples/workloads/appio.c prints, per function
# and direction, the calls it made, the bytes moved, the errors, short
# transfers and EOF reads; the table from `vmprof record --io` must hold
# exactly those numbers for every function (and mean block = bytes / calls).
# Time inside the calls: the workload times each of its calls by its own
# clock (the vDSO's, no system call of its own); in the same run, vmprof's
# time per function and direction is within 10% of it wherever the calls
# waited 20 ms or more (the slow pipes' reads and writes), and so are the
# totals per direction. perf reads the file.
source "$(dirname "$0")/../lib.sh"
need_perf
need_tracefs syscalls
[ -x "$BUILD/examples/appio" ] || skip "workloads not built (make workloads)"
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

# time inside the calls, against the workload's own clock in the same run
"$VMPROF_SAN" record --io -e cpu-clock -o slow.data -- "$appio" "$WORK" 1 20 > slow.said 2> err ||
	{ cat err; fail "record --io (time)"; }
"$VMPROF_SAN" report --io --format csv slow.data > slow.csv || fail "report --io (time)"
python3 - <<'PY' || fail "time inside the calls differs from the workload's own"
import csv
ours, theirs = {}, {}
for r in csv.DictReader(open("slow.csv")):
    k = (r["symbol"], r["direction"])
    ours[k] = ours.get(k, 0) + int(r["time_ns"]) / 1e9
for line in open("slow.said"):
    w = line.split()
    if w[0] == "appio-time:":
        theirs[(w[1], w[2])] = int(w[3]) / 1e9
assert len(theirs) == 11, f"the workload timed {len(theirs)} functions and directions, want 11"
n = 0
for k, t in sorted(theirs.items()):
    if t >= 0.02:
        print(f"{k[0]} {k[1]}: vmprof {ours.get(k, 0):.4f} s, the workload {t:.4f} s")
        assert abs(ours.get(k, 0) - t) <= 0.1 * t, f"{k}: not within 10%"
        n += 1
assert n >= 3, f"only {n} functions waited 20 ms: the workload did not wait"
for d in ("read", "write"):
    a = sum(v for (f, dd), v in ours.items() if dd == d)
    b = sum(v for (f, dd), v in theirs.items() if dd == d)
    print(f"{d}: vmprof {a:.4f} s, the workload {b:.4f} s")
    assert b > 0.1, f"the workload spent {b} s in {d}: it did not wait"
    assert abs(a - b) <= 0.1 * b, f"{d}: not within 10%"
PY
echo ok
