#!/usr/bin/env bash
# record --off-cpu on a workload with known blocking (test/workloads/blocking.c:
# per round sleep_short sleeps 20 ms, sleep_long 60 ms, pipe_wait waits 40 ms
# on a pipe, compute only computes; it times each blocking call on its own
# clock, as a busy host stretches sleeps past what was asked): vmprof report
# gives each blocking function the time its calls took by that clock within
# 10% (which is at least what was asked), compute none; perf reads the file
# and shows offcpu-time with the same total and samples, and charging perf
# script's own callchains to the first frame in the program's objects (the
# documented rule) gives vmprof's rows exactly.
source "$(dirname "$0")/../lib.sh"
need_perf
need_tracefs sched
cd "$WORK"
gcc -O1 -g -fno-omit-frame-pointer -pthread -o blocking "$TOP/test/workloads/blocking.c"
rounds=8
"$VMPROF_SAN" record --off-cpu -e cpu-clock -o b.data -- ./blocking $rounds > out 2> err ||
	{ cat err; fail "record --off-cpu"; }
grep -q "^blocking: $rounds rounds" out || fail "the workload did not finish: $(cat out)"
"$VMPROF_SAN" report -e offcpu-time --format csv --top 0 b.data > off.csv 2> err || { cat err; fail "report"; }
perf report -i b.data --stdio --no-children -g none --sort sym -F period,sample 2> perf.err > perf.txt ||
	{ cat perf.err; fail "perf report cannot read the file"; }
perf script -i b.data -F event,period,ip,sym,dso 2> script.err > script.txt ||
	{ cat script.err; fail "perf script cannot read the file"; }
grep -qi "error\|out of order" perf.err script.err && { cat perf.err script.err; fail "perf complained"; }

python3 - "$rounds" <<'PY' || fail "off-CPU time per function"
import csv, re, sys
rounds = int(sys.argv[1])
rows = {r["symbol"]: r for r in csv.DictReader(open("off.csv"))}
ms = lambda sym: int(rows[sym]["period"]) / 1e6 if sym in rows else 0.0
asked = {"sleep_short": 20, "sleep_long": 60, "pipe_wait": 40}	# ms per round
clock = {l.split()[1]: int(l.split()[2]) / 1e6 for l in open("out") if l.startswith("blocking-time: ")}
for sym, per_round in asked.items():
    got, exp = ms(sym), clock[sym]
    print(f"{sym}: {got:.1f} ms, the workload's clock {exp:.1f} ms, asked {per_round * rounds} ms")
    assert exp >= per_round * rounds, f"{sym}: the workload blocked {exp} ms, less than asked"
    assert abs(got - exp) <= 0.1 * exp, f"{sym}: {got:.1f} ms is not within 10% of {exp:.1f} ms"
    assert int(rows[sym]["samples"]) == rounds, f"{sym}: {rows[sym]['samples']} intervals, want {rounds}"
assert ms("compute") == 0, f"compute blocked {ms('compute')} ms"

# perf: the same event, total and samples
total = sum(int(r["period"]) for r in rows.values())
samples = sum(int(r["samples"]) for r in rows.values())
text = open("perf.txt").read()
m = re.search(r"# Samples: (\d+)\s+of event 'offcpu-time'\n# Event count \(approx\.\): (\d+)", text)
assert m, "perf report shows no offcpu-time event"
assert (int(m.group(1)), int(m.group(2))) == (samples, total), \
    f"perf: {m.group(1)} samples, {m.group(2)} ns; vmprof: {samples}, {total}"

# perf script's callchains, charged by the rule: the first frame from the
# leaf whose object is not a system library, else the first user frame
SYSTEM = ("/lib/", "/lib32/", "/lib64/", "/usr/lib/", "/usr/lib32/", "/usr/lib64/", "/usr/libexec/")
def own(frames):
    user = [(s, d) for s, d in frames if not d.startswith("[")]
    for s, d in user:
        if not d.startswith(SYSTEM):
            return s
    return user[0][0] if user else frames[0][0]
charged, cur = {}, None
for line in open("script.txt"):
    m = re.match(r"^\s*(\d+) offcpu-time:", line)
    if m:
        cur = [int(m.group(1)), []]
        continue
    m = re.match(r"^\s+[0-9a-f]+ (.*) \((.*)\)$", line)
    if m and cur is not None:
        cur[1].append((re.sub(r"\+0x[0-9a-f]+$", "", m.group(1)), m.group(2)))
    elif not line.strip() and cur is not None:
        sym = own(cur[1])
        charged[sym] = charged.get(sym, 0) + cur[0]
        cur = None
if cur is not None:
    sym = own(cur[1])
    charged[sym] = charged.get(sym, 0) + cur[0]
ours = {s: int(r["period"]) for s, r in rows.items()}
assert charged == ours, f"perf script's chains charge {charged}, vmprof {ours}"
print(f"ok: {samples} blocked intervals, {total / 1e9:.3f} s; perf agrees")
PY
echo ok
