#!/usr/bin/env bash
# One rule names kernel samples whatever state a file is in (finished, killed
# before its header was written, pipe format): the kernel build-id the file
# records against this machine's (/sys/kernel/notes), the release where it
# records none. The same kernel gives names (judged by perf on the same file),
# another kernel gives [unknown] and one warning naming --kallsyms, and
# --kallsyms FILE gives names again. Every input is recorded here and now;
# "another kernel" is the same recording made to claim a made-up kernel
# (set_kernel_id.py), so the test means the same on every machine.
source "$(dirname "$0")/../lib.sh"
need_perf
export HOME=$WORK	# no perf build-id cache
cd "$WORK"
[ -r /sys/kernel/notes ] || skip "/sys/kernel/notes is not readable: no running kernel build-id"

gcc -O1 -g -pthread -o iorw "$TOP/examples/workloads/iorw.c"
run=(./iorw "$WORK" 3000)	# read/write syscalls and context switches: kernel time
perf record -q -e cpu-clock -F 4000 -o perf.data -- "${run[@]}" >/dev/null 2>&1
perf record -q -e cpu-clock -F 4000 -o - -- "${run[@]}" 2>/dev/null > pipe.data
"$VMPROF" record -e cpu-clock -F 4000 -o vm.data -- "${run[@]}" >/dev/null 2>&1 ||
	fail "vmprof record failed"
python3 "$TOP/test/make_unfinished.py" perf.data perf-killed.data >/dev/null
python3 "$TOP/test/make_unfinished.py" vm.data vm-killed.data >/dev/null
foreign=(0123456789abcdef0123456789abcdef01234567 0.0.0-not-this-kernel)
for f in perf pipe vm vm-killed; do
	python3 "$TOP/test/set_kernel_id.py" $f.data $f-other.data "${foreign[@]}" > changed
	[ "$(cat changed)" != "0 0" ] || fail "$f: no kernel identity to change"
done

perf_table() {	# perf_table FILE [perf options...]: the table perf_agree.py reads
	perf report -i "$1" --stdio --no-children -g none --sort dso,sym -n -t $'\x1f' "${@:2}" \
		2>/dev/null
}
# the object's column follows the period, a count or a time ("250.0 us")
kernel_rows() { awk '!/^#/ { for (i = 4; i <= 5; i++) if ($i == "[kernel.kallsyms]") { print $(i + 1), $(i + 2); break } }' "$1" | sort -u; }
report() {	# report NAME FILE [options...]: vmprof's table in NAME.out, warnings in NAME.err
	expect_status 0 "$VMPROF_SAN" report "$2" "${@:3}"
	mv "$WORK/out" "$1.out"
	mv "$WORK/err" "$1.err"
}
# names judged by perf on the same records: perf reads the finished files
agree() {	# agree NAME PERF_FILE [options for both...]
	perf_table "$2" "${@:3}" > "$1.perf"
	grep -q '\[kernel.kallsyms\]' "$1.perf" || fail "$1: no kernel samples to judge by"
	python3 "$TOP/test/perf_agree.py" "$1.perf" "$1.out" || fail "$1: vmprof and perf disagree"
}
# the same rows; a killed file has no event names stored, only attrs
# ("cpu-clock:HG" for "cpu-clock"), so event lines are left out
same_rows() {	# same_rows WHAT A.out B.out
	diff <(grep -v -e '^# vmprof report of' -e '^# Event' "$2") \
		<(grep -v -e '^# vmprof report of' -e '^# Event' "$3") >&2 || fail "$1"
}
one_warning() {	# one_warning NAME PATTERN
	local n
	n=$(grep -c -- "$2" "$1.err" || true)
	[ "$n" -eq 1 ] || { cat "$1.err" >&2; fail "$1: $n warnings matching '$2', want 1"; }
}

# --- the same kernel: names, equal to perf's; killed vmprof recordings keep
# them (the kernel's build-id record leads the data)
report perf perf.data
agree perf perf.data
report pipe pipe.data
agree pipe pipe.data
report vm vm.data
agree vm vm.data
report vm-killed vm-killed.data
same_rows "the killed vmprof recording gives other rows than the finished one" vm.out vm-killed.out
for f in perf pipe vm vm-killed; do
	grep -q 'kernel samples stay unresolved' $f.err && fail "$f: kernel samples unresolved on their own kernel"
	kernel_rows $f.out | grep -qv '\[unknown\]' || fail "$f: no kernel row has a name"
done

# --- another kernel, or no word on it: [unknown] and one warning that names
# --kallsyms; where the file records a build-id, perf refuses this kernel too
for f in perf-other pipe-other vm-killed-other perf-killed; do
	report $f $f.data
	expect_eq "$f: kernel rows" "$(kernel_rows $f.out)" "[k] [unknown]"
	one_warning $f "kernel samples stay unresolved: '$f.data': .*--kallsyms"
done
grep -q "build-id 0123456789abcdef" perf-other.err || fail "the warning does not give the evidence"
grep -q "0.0.0-not-this-kernel" pipe-other.err || fail "pipe: the release is not the evidence"
grep -q "does not say which kernel" perf-killed.err || fail "killed perf file: no word on its kernel"
agree perf-other perf-other.data
# a finished vmprof recording carries its kernel's symbols: names on any kernel
report vm-other vm-other.data
grep -q 'kernel samples stay unresolved' vm-other.err && fail "vm-other: its own kernel symbols unused"
same_rows "a vmprof recording of another kernel loses its names" vm.out vm-other.out

# --- --kallsyms FILE: names again, perf's with the same file
cp /proc/kallsyms ks
for f in perf-other pipe-other vm-killed-other perf-killed; do
	report $f-ks $f.data --kallsyms ks
	grep -q 'kernel samples stay unresolved' $f-ks.err && fail "$f: --kallsyms was not used"
done
agree perf-other-ks perf-other.data --kallsyms ks
agree pipe-other-ks pipe-other.data --kallsyms ks
same_rows "killed perf file, --kallsyms" perf.out perf-killed-ks.out
same_rows "killed vmprof file of another kernel, --kallsyms" vm.out vm-killed-other-ks.out
echo ok
