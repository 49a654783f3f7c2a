#!/usr/bin/env bash
# What report does without what it would like to have: an object it cannot
# read, no kallsyms, kallsyms with every address hidden (kptr_restrict=2, as a
# copy and live), perf_event_paranoid=3. Each gives the full tables (samples
# per object as perf counts them) with the affected rows unresolved and one
# warning naming the cause; none is a failure. Sysctls changed here are put
# back on exit.
source "$(dirname "$0")/../lib.sh"
need_perf
F=$TOP/test/fixtures

# samples per object of the file's first event (cpu-clock), as perf counts
# them: the independent total per dso
perf_dsos() { perf report -i "$1" --stdio -n --sort dso "${@:2}" 2>/dev/null |
	awk '/^# Samples:/ { ev++ } ev == 1 && !/^#/ && NF { n[$3] += $2 }
	END { for (d in n) print d, n[d] }' | sort; }
# vmprof's table with a time period ("250.0 us") as one field, so the
# columns after it stay where a count's would put them
report() { expect_status 0 "$VMPROF_SAN" report "$@"
	sed -E -i 's/^( +[0-9.]+% +[0-9]+ +[0-9.]+) (ns|us|ms|s) /\1\2 /' "$WORK/out"; }
vmprof_dsos() { awk '/^# Event/ { ev++ } ev == 1 && !/^#/ && NF { n[$4] += $2 }
	END { for (d in n) print d, n[d] }' "$1" | sort; }
# warnings in $WORK/err matching a pattern: exactly one
one_warning() {
	local n
	n=$(grep -c -- "$1" "$WORK/err" || true)
	[ "$n" -eq 1 ] || { cat "$WORK/err" >&2; fail "$2: $n warnings matching '$1', want 1"; }
}

# --- an object that is there but is no ELF file: its rows stay unresolved
mkdir -p "$WORK/symfs/tmp/vmprof-fixtures"
head -c 4096 /dev/urandom > "$WORK/symfs/tmp/vmprof-fixtures/weights"
report --symfs "$WORK/symfs" -e cpu-clock "$F/weights.data"
one_warning "no symbols for '/tmp/vmprof-fixtures/weights'" "unreadable object"
rows=$(awk '!/^#/ && $4 == "weights"' "$WORK/out")
[ -n "$rows" ] || fail "no rows for the unreadable object"
awk '!/^#/ && $4 == "weights" && $6 != "[unknown]" { exit 1 }' "$WORK/out" ||
	fail "rows of an unreadable object were resolved: $rows"
expect_eq "samples per object, unreadable object" "$(vmprof_dsos "$WORK/out")" \
	"$(perf_dsos "$F/weights.data" --symfs "$WORK/symfs")"

# --- a directory where the object should be
rm "$WORK/symfs/tmp/vmprof-fixtures/weights"
mkdir "$WORK/symfs/tmp/vmprof-fixtures/weights"
report --symfs "$WORK/symfs" -e cpu-clock "$F/weights.data"
one_warning "no symbols for '/tmp/vmprof-fixtures/weights'" "object is a directory"

# --- no object and no kernel symbols: one warning each, in the order perf
# first meets them (perf script), with one thread or four (objects are read
# ahead on every thread, and warned about where they are first used)
mkdir -p "$WORK/nosyms"
order=$(perf script -i "$F/multi.data" -F ip,dso --symfs "$WORK/nosyms" 2>/dev/null |
	awk '{ gsub(/[()]/, "", $2); if (!seen[$2]++) print $2 }')
[ "$(echo "$order" | wc -l)" -ge 3 ] || fail "the fixture meets fewer than 3 objects: $order"
for t in 1 4; do
	expect_status 0 "$VMPROF_SAN" report --threads $t --symfs "$WORK/nosyms" \
		--kallsyms "$WORK/none" "$F/multi.data"
	got=$(sed -n -E -e "s/.*no symbols for '([^']*)'.*/\1/p" \
		-e "s/.*kernel samples stay unresolved.*/[kernel.kallsyms]/p" "$WORK/err")
	expect_eq "warnings in perf's order of first use, $t threads" "$got" "$order"
done

# --- kernel symbols: the fixture has kernel samples
kernel_rows() { awk '!/^#/ && $4 == "[kernel.kallsyms]"' "$WORK/out"; }
report --symfs "$F/symfs" -e cpu-clock --kallsyms "$WORK/none" \
	"$F/multi.data"
one_warning "kernel samples stay unresolved: '$WORK/none'" "missing kallsyms"
[ -n "$(kernel_rows)" ] || fail "the fixture has no kernel samples"
expect_eq "kernel rows without kallsyms" "$(kernel_rows | awk '{ print $5, $6 }' | sort -u)" "[k] [unknown]"
expect_eq "samples per object, no kallsyms" "$(vmprof_dsos "$WORK/out")" \
	"$(perf_dsos "$F/multi.data" --symfs "$F/symfs")"

# kptr_restrict=2 as a reader sees it: the file is there, every address zero
awk '{ $1 = "0000000000000000"; print }' /proc/kallsyms > "$WORK/hidden"
report --symfs "$F/symfs" -e cpu-clock --kallsyms "$WORK/hidden" \
	"$F/multi.data"
one_warning "every address is zero: kernel.kptr_restrict" "zeroed kallsyms"
expect_eq "kernel rows, zeroed kallsyms" "$(kernel_rows | awk '{ print $5, $6 }' | sort -u)" "[k] [unknown]"
expect_eq "samples per object, zeroed kallsyms" "$(vmprof_dsos "$WORK/out")" \
	"$(perf_dsos "$F/multi.data" --symfs "$F/symfs")"

# --- the live sysctls (root only), on a recording made here and now, so its
# kernel is this machine's and /proc/kallsyms is what names its kernel samples
if [ "$(id -u)" -ne 0 ] || [ ! -w /proc/sys/kernel/kptr_restrict ]; then
	skip "cannot set kernel.kptr_restrict here (not root, or /proc/sys is read-only)"
fi
gcc -O1 -g -pthread -o "$WORK/iorw" "$TOP/examples/workloads/iorw.c"
perf record -q -e cpu-clock -F 4000 -o "$WORK/live.data" -- "$WORK/iorw" "$WORK" 3000 >/dev/null 2>&1
kptr=$(cat /proc/sys/kernel/kptr_restrict)
paranoid=$(cat /proc/sys/kernel/perf_event_paranoid)
trap 'echo "$kptr" > /proc/sys/kernel/kptr_restrict; echo "$paranoid" > /proc/sys/kernel/perf_event_paranoid; rm -rf "$WORK"' EXIT

report "$WORK/live.data"
cp "$WORK/out" "$WORK/normal"
[ "$(kernel_rows | awk '$6 != "[unknown]"' | wc -l)" -gt 0 ] || fail "kernel rows unresolved with kallsyms readable"

echo 2 > /proc/sys/kernel/kptr_restrict
report "$WORK/live.data"
echo "$kptr" > /proc/sys/kernel/kptr_restrict
one_warning "'/proc/kallsyms': every address is zero" "kptr_restrict=2"
expect_eq "kernel rows at kptr_restrict=2" "$(kernel_rows | awk '{ print $5, $6 }' | sort -u)" "[k] [unknown]"
expect_eq "samples per object at kptr_restrict=2" "$(vmprof_dsos "$WORK/out")" \
	"$(perf_dsos "$WORK/live.data")"

# --- build-ids only in the MMAP2 records (perf record --buildid-mmap) and the
# object rebuilt since: perf leaves its samples unresolved, and so does report,
# with one warning, on one thread or four (objects read ahead take the
# build-id the replay gives them)
gcc -O1 -g -o "$WORK/wbid" "$TOP/test/workloads/weights.c"
HOME=$WORK perf record -q --buildid-mmap -e cpu-clock -F 4000 -o "$WORK/bid.data" -- \
	"$WORK/wbid" 20000000 >/dev/null 2>&1 || fail "perf record --buildid-mmap failed"
gcc -O2 -g -DREBUILT -o "$WORK/wbid" "$TOP/test/workloads/weights.c"
HOME=$WORK perf report -i "$WORK/bid.data" --stdio --sort dso,sym 2>/dev/null |
	awk '!/^#/ && $2 == "wbid" { n++; if ($4 !~ /^0x/) bad = 1 } END { exit !(n && !bad) }' ||
	fail "perf resolves the rebuilt object (or has no samples in it): the case tests nothing"
for t in 1 4; do
	HOME=$WORK report --threads $t "$WORK/bid.data"
	one_warning "'$WORK/wbid' changed since it was recorded" "rebuilt object, $t threads"
	awk '!/^#/ && $4 == "wbid" { n++; if ($6 != "[unknown]") bad = 1 } END { exit !(n && !bad) }' \
		"$WORK/out" || { cat "$WORK/out" >&2; fail "rows of the rebuilt object resolved, $t threads"; }
done

# perf_event_paranoid=3 forbids recording, not reading: the same tables
echo 3 > /proc/sys/kernel/perf_event_paranoid
report "$WORK/live.data"
echo "$paranoid" > /proc/sys/kernel/perf_event_paranoid
diff "$WORK/normal" "$WORK/out" >&2 || fail "report differs at perf_event_paranoid=3"
echo ok
