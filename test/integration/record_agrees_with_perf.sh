#!/usr/bin/env bash
# Files written by vmprof record are read by perf with the same per-symbol
# sample counts as vmprof report gives, for one event, several events with
# callchains, tracepoints, a running process (-p) and the whole system (-a);
# perf script reads them; perf evlist shows the attr bits we meant; shares of
# a workload with known weights come out right.
source "$(dirname "$0")/../lib.sh"
need_perf
export HOME=$WORK
cd "$WORK"
gcc -O1 -g -fno-omit-frame-pointer -o weights "$TOP/test/workloads/weights.c"
gcc -O1 -g -pthread -o iorw "$TOP/examples/workloads/iorw.c"

agree() {	# agree NAME FILE
	perf report -i "$2" --stdio --no-children -g none --sort dso,sym -n -t $'\x1f' > "$1.perf" 2>/dev/null ||
		fail "$1: perf report cannot read our file"
	"$VMPROF" report "$2" > "$1.vmprof" 2>/dev/null || fail "$1: vmprof report failed"
	python3 "$TOP/test/perf_agree.py" "$1.perf" "$1.vmprof" || fail "$1: perf and vmprof disagree on our file"
	perf script -i "$2" > /dev/null 2> "$1.script" || { cat "$1.script"; fail "$1: perf script failed"; }
	grep -qi "error\|fail" "$1.script" && { cat "$1.script"; fail "$1: perf script complained"; }
	return 0
}

"$VMPROF" record -o one.data -e cpu-clock -- ./weights 20000000 2>/dev/null || fail "record one event"
agree one one.data
"$VMPROF" record -o multi.data -g -e cpu-clock,page-faults,context-switches -- ./weights 20000000 2>/dev/null ||
	fail "record several events with -g"
agree multi multi.data
expect_eq "events in the file" "$(perf evlist -i multi.data | tr '\n' ' ')" "cpu-clock page-faults context-switches "
"$VMPROF" record -o tp.data -e sched:sched_switch,syscalls:sys_exit_write,cpu-clock -- ./iorw "$WORK" 100 \
	> iorw.out 2>/dev/null || fail "record tracepoints"
agree tracepoints tp.data
want=$(sed -n 's/^write_blocks wrote \([0-9]*\) bytes.*/\1/p' iorw.out)
got=$("$VMPROF" report --weight ret -e syscalls:sys_exit_write tp.data 2>/dev/null | awk '$NF == "write_blocks" { print $3 }')
expect_eq "bytes written by write_blocks (tracing data from our file)" "$got" "$want"

./weights 400000000 & wpid=$!
"$VMPROF" record -o pid.data -p $wpid -d 0.4 2>/dev/null || fail "record -p"
kill $wpid; wait $wpid 2>/dev/null || true
agree pid pid.data
[ "$(perf report -i pid.data --stdio --sort comm 2>/dev/null | grep -c weights)" -ge 1 ] || fail "-p recorded no weights samples"
"$VMPROF" record -a -o all.data -d 0.3 -- ./weights 5000000 2>/dev/null || fail "record -a"
agree system-wide all.data

# portable files: the symbols the samples hit travel in the file, so a report
# after the binary is gone names the same functions
cp weights wgone
"$VMPROF" record -o gone.data -e cpu-clock -- ./wgone 20000000 2>/dev/null || fail "record wgone"
"$VMPROF" report --top 0 --format csv gone.data 2>/dev/null | sort > before.csv
rm wgone
"$VMPROF" report --top 0 --format csv gone.data 2>err | sort > after.csv
cmp -s before.csv after.csv || { diff before.csv after.csv | head; fail "symbols lost with the binary"; }
grep -q ',"w4",' after.csv || fail "w4 not resolved from the file's own symbols"
grep -q "no symbols for" err && fail "a warning about the deleted binary: $(cat err)"
perf report -i gone.data --stdio > /dev/null 2>&1 || fail "perf cannot read a file with portable symbols"

# attr bits
"$VMPROF" record --host -o host.data -e cpu-clock -- true 2>/dev/null
"$VMPROF" record --guest -o guest.data -e cpu-clock:u -- true 2>/dev/null
perf evlist -v -i host.data | grep -q "exclude_guest: 1" || fail "--host did not set exclude_guest"
perf evlist -v -i guest.data | grep -q "exclude_host: 1" || fail "--guest did not set exclude_host"
perf evlist -v -i guest.data | grep -q "exclude_kernel: 1" || fail ":u did not set exclude_kernel"

# known weights: w1, w2, w4 do 1, 2, 4 units of the same work
"$VMPROF" record -o w.data -F 4000 -- ./weights 3000000 20 20 20 2>/dev/null
"$VMPROF" report --top 0 --value samples --format csv w.data 2>/dev/null | python3 -c '
import csv, sys
s = {r["symbol"]: int(r["samples"]) for r in csv.DictReader(sys.stdin) if r["symbol"] in ("w1", "w2", "w4")}
tot = sum(s.values())
for name, want in (("w1", 1 / 7), ("w2", 2 / 7), ("w4", 4 / 7)):
    got = s.get(name, 0) / tot
    print(f"{name}: {100 * got:.1f}% (want {100 * want:.1f}%)")
    if abs(got - want) > 0.03:
        sys.exit(1)' || fail "shares of the known weights are off by more than 3 points"
echo ok
