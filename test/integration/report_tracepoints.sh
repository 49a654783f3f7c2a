#!/usr/bin/env bash
# Tracepoint tables: bytes per function from sys_exit_read/write's 'ret'
# equal what the workload itself counted; rows grouped by sched_switch's
# prev_state equal perf script's decoding of the same samples.
source "$(dirname "$0")/../lib.sh"
need_perf
need_tracefs syscalls

gcc -O1 -g -fno-omit-frame-pointer -pthread -o "$WORK/iorw" "$TOP/examples/workloads/iorw.c"
perf record -q -o "$WORK/io.data" -e syscalls:sys_exit_read,syscalls:sys_exit_write,sched:sched_switch \
	-- "$WORK/iorw" "$WORK" 250 > "$WORK/said" 2>/dev/null
# "write_blocks wrote W bytes in N calls, read_blocks read R bytes in M calls"
read -r wbytes wcalls rbytes rcalls < <(awk '{ print $3, $6, $10, $13 }' "$WORK/said")
[ "$wbytes" -gt 0 ] || fail "the workload said nothing: $(cat "$WORK/said")"

row() {	# row EVENT SYMBOL -> "samples weight" from vmprof's table
	awk -v ev="$1" -v sym="$2" '/^# Event / { on = ($3 == "'"'"'" ev "'"'"'") }
		on && $NF == sym { print $2, $3 }' "$WORK/table"
}
"$VMPROF_SAN" report --weight ret "$WORK/io.data" > "$WORK/table" 2>"$WORK/err" || { cat "$WORK/err"; fail "report"; }
expect_eq "write_blocks calls and bytes" "$(row syscalls:sys_exit_write write_blocks)" "$wcalls $wbytes"
expect_eq "read_blocks calls and bytes" "$(row syscalls:sys_exit_read read_blocks)" "$rcalls $rbytes"
grep -q "^# Weight: sum of the tracepoint field 'ret'" "$WORK/table" || fail "the table does not say what it weighs"

# Grouped by a field, named by the event's own print format.
"$VMPROF_SAN" report --group-by prev_state -e sched:sched_switch "$WORK/io.data" > "$WORK/groups" 2>"$WORK/err"
perf script -i "$WORK/io.data" -F trace 2>/dev/null | grep -o 'prev_state=[^ ]*' | sed 's/prev_state=//' |
	sort | uniq -c | awk '{ print $2, $1 }' | sort > "$WORK/want"
awk '!/^#/ && NF == 4 { print $4, $2 }' "$WORK/groups" | sort > "$WORK/got"
[ -s "$WORK/want" ] || fail "perf script decoded no prev_state"
diff "$WORK/want" "$WORK/got" || fail "prev_state groups differ from perf script"

# A field no event has is a clear error.
expect_status 1 "$VMPROF" report --weight nosuchfield "$WORK/io.data"
grep -q "no tracepoint event has a field 'nosuchfield'" "$WORK/err" || fail "unknown field message"
expect_status 1 "$VMPROF" report --weight ret "$TOP/test/fixtures/weights.data"
grep -q "no tracepoint formats" "$WORK/err" || fail "no tracing data message"
echo "ok: $wbytes bytes written, $rbytes read, per function"
