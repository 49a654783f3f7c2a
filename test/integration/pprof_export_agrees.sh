#!/usr/bin/env bash
# vmprof convert pprof, judged by Go's own `go tool pprof` against perf on the
# same perf.data: flat samples per function equal perf report's (a workload
# of known weights, a C++ one, a -g one whose cum shares equal perf's
# --children); pprof's -diff_base of two exports agrees with vmprof compare of
# the two recordings; an export reads back into vmprof report as the same
# table as the recording, every event of it (-o DIR/); exports merged by
# `go tool pprof -proto` read back with the sums. Bad inputs fail cleanly.
source "$(dirname "$0")/../lib.sh"
need_perf
command -v go >/dev/null || fail "go is not installed (make deps installs golang-go)"
export HOME=$WORK GOCACHE=$WORK/gocache GOPATH=$WORK/gopath GO111MODULE=off GOPROXY=off GOFLAGS=
cd "$WORK"
gcc -O1 -g -fno-omit-frame-pointer -o weights "$TOP/test/workloads/weights.c"
g++ -O1 -g -fno-omit-frame-pointer -std=c++17 -o cxx "$TOP/test/workloads/cxx_names.cc"
TOPFLAGS=(-top -nodecount=1000000 -nodefraction=0 -edgefraction=0 -sample_index=samples)
PERF_FLAT=(--stdio --no-children -g none --sort dso,sym -n -t $'\x1f')
agree=$TOP/test/pprof_agree.py

export_top() {	# export_top NAME [convert options...]: NAME.data -> NAME.pb.gz -> NAME.top
	local name=$1; shift
	"$VMPROF" convert pprof "$@" $name.data -o $name.pb.gz 2>$name.err ||
		{ cat $name.err; fail "$name: vmprof convert pprof failed"; }
	go tool pprof "${TOPFLAGS[@]}" $name.pb.gz > $name.top 2>$name.gerr ||
		{ cat $name.gerr; fail "$name: go tool pprof cannot read the export"; }
	! grep -qi "symbolization\|fail\|error" $name.gerr || fail "$name: go tool pprof: $(cat $name.gerr)"
}
flat_agrees() {	# flat_agrees NAME: pprof's flat samples = perf report's
	perf report -i $1.data "${PERF_FLAT[@]}" > $1.perf 2>/dev/null || fail "$1: perf report failed"
	python3 "$agree" flat $1.top --perf $1.perf || fail "$1: go tool pprof's flat samples differ from perf's"
}
flat_of() { awk -v f="$2" '$NF == f && $2 ~ /%$/ { print $1 }' "$1.top"; }

# known weights 1:2:4
perf record -q -o w.data -e cpu-clock -F 2000 -- ./weights 20000000 >/dev/null 2>&1
export_top w
flat_agrees w
w1=$(flat_of w w1) w2=$(flat_of w w2) w4=$(flat_of w w4)
note "weights: w1 $w1, w2 $w2, w4 $w4"
[ "${w1:-0}" -gt 0 ] && [ "$w1" -lt "$w2" ] && [ "$w2" -lt "$w4" ] || fail "weights 1:2:4 not seen in pprof"
grep -q '^File: weights$' w.top || fail "pprof does not see weights as the main binary: $(head -1 w.top)"

# C++: names as perf prints them (templates, operators, overloads as one)
perf record -q -o c.data -e cpu-clock -F 2000 -- ./cxx 60 >/dev/null 2>&1
export_top c
flat_agrees c
grep -q 'vp_fixture::Box<double, 64>::sum$' c.top || fail "no C++ template name (test is vacuous)"

# callchains: flat as perf's self, cum as perf's --children share
perf record -q -g -o g.data -e cpu-clock,page-faults -F 2000 -- sh -c "./weights 10000000; ./cxx 40" \
	>/dev/null 2>&1
export_top g
grep -q "holds 2 events; converting 'cpu-clock'" g.err || fail "the event chosen is not said: $(cat g.err)"
perf report -i g.data "${PERF_FLAT[@]}" > g.perf 2>/dev/null
python3 "$agree" flat g.top --perf g.perf --event cpu-clock || fail "-g: flat samples differ from perf's"
perf report -i g.data --stdio --children -g none --sort sym -n -t $'\x1f' > g.children 2>/dev/null
python3 "$agree" cum g.top --perf-children g.children --event cpu-clock ||
	fail "-g: cum shares differ from perf's --children"
# stacks carried: a caller with no samples of its own holds half or more of
# them (which caller depends on gcc: it keeps no frame in a leaf such as w4,
# so the stacks through it skip main and name __libc_start_call_main)
awk '$2 ~ /%$/ && $1 == 0 && $5 + 0 >= 50 { ok = 1 } END { exit !ok }' g.top ||
	fail "no caller holds the samples: stacks missing (test is vacuous)"

# host vs guest: pprof's diff of the exports = vmprof compare of the recordings
perf record -q -o host.data -e cpu-clock -F 2000 -- ./weights 15000000 1 1 1 >/dev/null 2>&1
perf record -q -o guest.data -e cpu-clock -F 2000 -- ./weights 15000000 3 1 1 >/dev/null 2>&1
export_top host
export_top guest
"$VMPROF" compare --format csv --top 0 --value samples -o cmp.xml host.data guest.data > cmp.csv 2>cmp.err ||
	{ cat cmp.err; fail "vmprof compare failed"; }
go tool pprof "${TOPFLAGS[@]}" -diff_base host.pb.gz guest.pb.gz > diff.top 2>/dev/null
python3 "$agree" diff diff.top --compare cmp.csv || fail "go tool pprof -diff_base differs from compare"
go tool pprof "${TOPFLAGS[@]}" -normalize -diff_base host.pb.gz guest.pb.gz > ndiff.top 2>/dev/null
go tool pprof -raw guest.pb.gz > guest.raw 2>/dev/null
python3 "$agree" diff ndiff.top --compare cmp.csv --normalized guest.raw ||
	fail "go tool pprof -normalize -diff_base differs from compare's deltas"

# round trip: perf.data -> pprof -> vmprof report is the perf.data's table
for name in w c; do
	"$VMPROF" report --format csv --top 0 $name.data > $name.want.csv 2>/dev/null
	"$VMPROF" report --format csv --top 0 $name.pb.gz > $name.got.csv 2>/dev/null ||
		fail "$name: vmprof report cannot read its own export"
	cmp -s $name.want.csv $name.got.csv || { diff $name.want.csv $name.got.csv | head; fail "$name: round trip differs"; }
done
"$VMPROF_SAN" convert pprof g.data -o all/ 2>all.err || { cat all.err; fail "-o DIR/ failed"; }
for ev in cpu-clock page-faults; do
	[ -s all/$ev.pb.gz ] || fail "-o DIR/: no all/$ev.pb.gz"
	"$VMPROF" report --format csv --top 0 -e $ev g.data > g.$ev.want.csv 2>/dev/null
	"$VMPROF" report --format csv --top 0 all/$ev.pb.gz > g.$ev.got.csv 2>/dev/null
	cmp -s g.$ev.want.csv g.$ev.got.csv || { diff g.$ev.want.csv g.$ev.got.csv | head; fail "$ev: round trip differs"; }
done
# two attrs of one name stay apart, as report's tables do
perf record -q -o twice.data -e cpu-clock -e cpu-clock -F 1000 -- ./weights 5000000 >/dev/null 2>&1
"$VMPROF" convert pprof twice.data -o twice/ 2>/dev/null || fail "-o DIR/ of a file with one event twice"
"$VMPROF" report --format csv --top 0 twice.data > twice.csv 2>/dev/null
[ "$(grep -c '^"cpu-clock#2",' twice.csv)" -gt 0 ] || fail "twice: no second cpu-clock table (test is vacuous)"
for ev in cpu-clock 'cpu-clock#2'; do
	awk -F, -v e="\"$ev\"" 'NR == 1 || $1 == e' twice.csv > twice.want.csv
	"$VMPROF" report --format csv --top 0 "twice/$ev.pb.gz" > twice.got.csv 2>/dev/null ||
		fail "twice: no profile for $ev"
	cmp -s twice.want.csv twice.got.csv || fail "twice: $ev reads back differently"
done
# deterministic: the same file converts to the same bytes
"$VMPROF" convert pprof w.data -o w2.pb.gz 2>/dev/null
cmp -s w.pb.gz w2.pb.gz || fail "two conversions of one file differ"

# pprof's merge of two exports reads back as the sum of both
go tool pprof -proto host.pb.gz guest.pb.gz > merged.pb.gz 2>/dev/null || fail "go tool pprof -proto failed"
"$VMPROF" report --format csv --top 0 host.pb.gz > h.csv
"$VMPROF" report --format csv --top 0 guest.pb.gz > gu.csv
"$VMPROF" report --format csv --top 0 merged.pb.gz > m.csv 2>/dev/null || fail "vmprof cannot read pprof's merge"
python3 - h.csv gu.csv m.csv <<'EOF' || fail "the merge does not read back as the sums"
import csv, sys
from collections import Counter
def rows(p):
    s, per = Counter(), Counter()
    for r in csv.DictReader(open(p)):
        k = (r["event"], r["symbol"], r["dso"], r["domain"])
        s[k] += int(r["samples"]); per[k] += int(r["period"])
    return s, per
(hs, hp), (gs, gp), (ms, mp) = rows(sys.argv[1]), rows(sys.argv[2]), rows(sys.argv[3])
if hs + gs != ms or hp + gp != mp:
    bad = [k for k in set(ms) | set(hs) | set(gs) if hs[k] + gs[k] != ms[k] or hp[k] + gp[k] != mp[k]]
    sys.exit(f"{len(bad)} rows differ, e.g. {bad[:3]}")
print(f"{len(ms)} rows: merged = host + guest")
EOF

# bad inputs: exit 1, the file named, nothing left behind
expect_status 1 "$VMPROF_SAN" convert pprof -e no-such-event w.data -o out.pb.gz
grep -q "'w.data': no event 'no-such-event'" "$WORK/err" || fail "unknown event: $(cat "$WORK/err")"
[ ! -e out.pb.gz ] || fail "a failed convert left its output"
printf 'event,symbol,dso,domain,samples,period,share\n' > t.csv
expect_status 1 "$VMPROF_SAN" convert pprof t.csv -o out.pb.gz
grep -q "t.csv'" "$WORK/err" || fail "not named: $(cat "$WORK/err")"
head -c 3000 w.data > cut.data
expect_status 1 "$VMPROF_SAN" convert pprof cut.data -o out.pb.gz
[ ! -e out.pb.gz ] || fail "a failed convert left its output"
expect_status 2 "$VMPROF" convert pprof
echo "ok"
