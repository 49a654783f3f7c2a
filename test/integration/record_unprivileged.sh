#!/usr/bin/env bash
# An ordinary user records where perf does: as an unprivileged uid at
# kernel.perf_event_paranoid=2, an event asked without a modifier falls back
# to user space only (cpu-clock:u, exclude_kernel and exclude_hv), said once;
# the file has the workload's functions and perf, run as that user, reads it
# with the same counts; -a and an explicit :k still fail with the reason. The
# sysctl is put back on exit.
source "$(dirname "$0")/../lib.sh"
need_perf
[ "$(id -u)" -eq 0 ] || skip "needs root to run as another user and set the sysctl"
[ -w /proc/sys/kernel/perf_event_paranoid ] || skip "cannot set kernel.perf_event_paranoid here"
command -v runuser >/dev/null || skip "runuser (util-linux) is not installed"
user=nobody
id "$user" >/dev/null 2>&1 || skip "no unprivileged user '$user'"
paranoid=$(cat /proc/sys/kernel/perf_event_paranoid)
trap 'echo "$paranoid" > /proc/sys/kernel/perf_event_paranoid; rm -rf "$WORK"' EXIT
echo 2 > /proc/sys/kernel/perf_event_paranoid

# everything the user runs or reads lives in $WORK (the checkout may be private)
chmod 755 "$WORK"
gcc -O1 -g -fno-omit-frame-pointer -o "$WORK/weights" "$TOP/test/workloads/weights.c"
cp "$VMPROF_SAN" "$WORK/vmprof"
cp "$TOP/test/lsan.supp" "$WORK/lsan.supp"
mkdir "$WORK/u"
chown "$user" "$WORK/u"
cd "$WORK/u"
as_user() { runuser -u "$user" -- env LSAN_OPTIONS=suppressions="$WORK/lsan.supp" HOME="$WORK/u" "$@"; }

as_user "$WORK/vmprof" record -e cpu-clock -o w.data -- "$WORK/weights" 20000000 2 1 3 \
	> out 2> err || { cat err; fail "record as $user failed"; }
n=$(grep -c "recording user space only" err || true)
[ "$n" -eq 1 ] || { cat err; fail "$n fall-back warnings, want 1"; }
grep -q "'cpu-clock:u'" err || { cat err; fail "the warning does not name cpu-clock:u"; }
expect_eq "file owner" "$(stat -c %U w.data)" "$user"

# what perf says of the file, read as the user: the event's name and bits
as_user perf evlist -v -i w.data > evlist 2>/dev/null
grep -q "^cpu-clock:u:" evlist || { cat evlist; fail "the event is not cpu-clock:u"; }
grep -q "exclude_kernel: 1" evlist && grep -q "exclude_hv: 1" evlist ||
	{ cat evlist; fail "exclude_kernel/exclude_hv not set"; }
# perf falls back the same way here
as_user perf record -q -e cpu-clock -o p.data -- "$WORK/weights" 1000000 >/dev/null 2>&1 ||
	fail "perf record as $user failed"
as_user perf evlist -i p.data 2>/dev/null | grep -qx "cpu-clock:u" || fail "perf did not fall back to cpu-clock:u"

as_user perf report -i w.data --stdio --no-children -g none --sort dso,sym -n -t $'\x1f' \
	> perf.txt 2>/dev/null || fail "perf report cannot read the user's recording"
"$VMPROF" report w.data > vmprof.txt 2>/dev/null || fail "vmprof report failed"
python3 "$TOP/test/perf_agree.py" perf.txt vmprof.txt || fail "perf and vmprof disagree"
for f in w1 w2 w4; do
	grep -q "weights  *\[\.\] $f\$" vmprof.txt || { cat vmprof.txt; fail "no row for $f"; }
done
awk '!/^#/ && NF && $0 !~ / \[\.\] / { exit 1 }' vmprof.txt || fail "samples outside user space"

# what still needs privileges fails with the reason, and writes nothing
set +e
as_user "$WORK/vmprof" record -e cpu-clock:k -o k.data -- "$WORK/weights" 1 > out 2> err
st=$?
set -e
expect_eq "exit status for cpu-clock:k" "$st" 1
grep -q "event 'cpu-clock:k': not permitted: perf_event_paranoid is 2" err || { cat err; fail "no reason for :k"; }
[ ! -e k.data ] && [ ! -e k.data.partial ] || fail "a refused recording left a file"
set +e
as_user "$WORK/vmprof" record -a -e cpu-clock -o a.data -- "$WORK/weights" 1 > out 2> err
st=$?
set -e
expect_eq "exit status for -a" "$st" 1
grep -q "not permitted: perf_event_paranoid is 2; run as root or set it to 0" err ||
	{ cat err; fail "no reason for -a"; }
[ ! -e a.data ] || fail "a refused -a recording left a file"
echo ok
