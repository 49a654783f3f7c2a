#!/usr/bin/env bash
# --pid, --tid, --comm and --time choose the samples that enter a profile as
# perf's options do, judged by perf on a file recorded now: vmprof report's
# per-symbol counts and event totals equal perf report's with the same filter
# (thread filters under --percentage relative and with sort keys that split
# threads and names, where perf's per-row filter holds for every sample);
# convert folded equals perf script's stacks, convert pprof go tool pprof's
# flat counts of perf's; compare filters both sides.
# Process ids and times come from perf script of the same file.
source "$(dirname "$0")/../lib.sh"
need_perf
export HOME=$WORK	# no perf build-id cache: both tools read the same files
cd "$WORK"
gcc -O1 -g -fno-omit-frame-pointer -o weights "$TOP/test/workloads/weights.c"
gcc -O1 -g -fno-omit-frame-pointer -pthread -o pingpong "$TOP/examples/workloads/pingpong.c"
# a shell (whose children are "sh" until they exec), two programs at once,
# one of them with two threads
run='./weights 15000000 & ./pingpong 40000; ./weights 5000000 2 1 1; wait'
perf record -q -g -o t.data -e cpu-clock,page-faults -F 2000 -- sh -c "$run" >/dev/null 2>rec.err ||
	{ cat rec.err; fail "perf record failed"; }
perf script -i t.data -F comm,pid,tid,time --ns > ids.txt 2>/dev/null || fail "perf script failed"

# ids: the pingpong process, its second thread, the first weights process
pp=$(awk '$1 == "pingpong" { split($2, a, "/"); print a[1]; exit }' ids.txt)
ponger=$(awk '$1 == "pingpong" { split($2, a, "/"); if (a[1] != a[2]) { print a[2]; exit } }' ids.txt)
w=$(awk '$1 == "weights" { split($2, a, "/"); print a[1]; exit }' ids.txt)
[ -n "$pp" ] && [ -n "$ponger" ] && [ -n "$w" ] || fail "perf script shows no pingpong threads or weights: $(head -3 ids.txt)"

relative=(--stdio --no-children -g none -n -t $'\x1f' --percentage relative)
agree() {	# agree NAME PERF_SORT "PERF FILTER" "VMPROF FILTER" [FILE]
	local name=${1//[^A-Za-z0-9_-]/_} sort=$2 pf=$3 vf=$4 file=${5:-t.data} extra=()
	[ "$sort" = dso,sym ] || extra=(--extra-keys)
	eval "perf report -i $file ${relative[*]@Q} --sort $sort $pf" > $name.perf 2>/dev/null ||
		fail "$name: perf report failed"
	eval "\"$VMPROF_SAN\" report $file $vf" > $name.vmprof 2>$name.err ||
		{ cat $name.err; fail "$name: vmprof report failed"; }
	# vmprof's warnings too: "kernel samples stay unresolved" says its kernel
	# symbols were unreadable then (kptr_restrict=2 set meanwhile, say)
	python3 "$TOP/test/perf_agree.py" $name.perf $name.vmprof --totals "${extra[@]}" > $name.cmp ||
		{ cat $name.cmp $name.err; fail "$name: vmprof and perf disagree"; }
	total=$(awk '/^# Samples:/ { n += $3 } END { print n + 0 }' $name.vmprof)
	note "$1: $(tail -1 $name.cmp), $total kept"
}
agree all dso,sym "" ""
all=$total
split=pid,comm,dso,sym
agree pid $split "--pid $pp" "--pid $pp"
agree tid $split "--tid $ponger,$w" "--tid $ponger --tid $w"
agree comm $split "--comms pingpong,weights" "--comm pingpong,weights"
# before its exec a child of the shell is "sh", as perf's comm key says
agree comm-sh $split "--comms sh" "--comm sh"
agree comm-tid $split "--comms pingpong --tid $ponger" "--comm pingpong --tid $ponger"
[ "$total" -gt 0 ] && [ "$total" -lt "$all" ] || fail "the filters kept $total of $all samples: vacuous"

# --time: first, last and two sample times in between, as perf script prints them
awk '{ print $NF }' ids.txt | tr -d : > times.txt
n=$(wc -l < times.txt)
first=$(head -1 times.txt); last=$(tail -1 times.txt)
a=$(sed -n "$((n / 3))p" times.txt); b=$(sed -n "$((2 * n / 3))p" times.txt)
for t in "$a," ",$a" "$a,$b" "$a,$a" ",$first" "$last," "$first,$a $b," \
	 10%/2 0%-25% 50% 100% 10%/1,10%/3 0%-10%,30%-40% 33.3%/3; do
	agree "time $t" dso,sym "--time '$t'" "--time '$t'"
done
agree time-and-comm $split "--time 20%-80% --comms pingpong" "--time 20%-80% --comm pingpong"

# A file without first and last sample time (perf record -B writes zeros):
# perf refuses percents there, vmprof finds the times in the samples. The
# judge: the same range in seconds, placed as perf's set_percent_time does,
# from perf script's first and last sample.
perf record -q -B -o nb.data -e cpu-clock -F 4000 -- ./weights 6000000 >/dev/null 2>rec.err ||
	{ cat rec.err; fail "perf record -B failed"; }
perf report -i nb.data --header-only 2>/dev/null | grep -q 'time of last sample : 0.000000' ||
	fail "perf record -B stored a last sample time: this check is vacuous"
perf report -i nb.data --stdio --time 50% >/dev/null 2>&1 &&
	note "perf places percents without the header's times now"
perf script -i nb.data -F time --ns 2>/dev/null | awk '{ print $NF }' | tr -d : > nb.times
for pct in "25%-75%" "10%/2"; do
	range=$(python3 - "$pct" nb.times <<-'EOF'
	import math, sys
	spec, times = sys.argv[1], open(sys.argv[2]).read().split()
	ns = lambda s: int(s.split(".")[0]) * 10**9 + int(s.split(".")[1].ljust(9, "0"))
	first, last = ns(times[0]), ns(times[-1])
	if "/" in spec:
	    p, i = spec.split("/"); p = float(p[:-1]) / 100
	    lo, hi = p * (int(i) - 1), p * int(i)
	else:
	    lo, hi = (float(x[:-1]) / 100 for x in spec.split("-"))
	rnd = lambda x: math.floor(x + 0.5)	# C's round() for x >= 0
	s, e = first + rnd(lo * (last - first)), first + rnd(hi * (last - first))
	if e > s and e != last:
	    e -= 1
	print(f"{s // 10**9}.{s % 10**9:09d},{e // 10**9}.{e % 10**9:09d}")
	EOF
	)
	agree "no-header $pct" dso,sym "--time $range" "--time $pct" nb.data
done

# vmprof record stores the first and last sample time as perf record does:
# perf places percents on its file as vmprof does
"$VMPROF" record -o v.data -F 4000 -- ./weights 15000000 >/dev/null 2>&1 || fail "vmprof record failed"
perf report -i v.data --header-only 2>/dev/null | grep -q 'time of last sample : [1-9]' ||
	fail "vmprof record stored no last sample time"
for t in 10%/2 25%-50%,75%-100%; do
	agree "vmprof-record $t" dso,sym "--time $t" "--time $t" v.data
done

# convert folded keeps the samples perf script keeps with the same options
perf script -i t.data -F comm,period,event,ip,sym,dso --comms pingpong --time 10%-90% \
	> fold.ps 2>/dev/null || fail "perf script failed"
python3 "$TOP/test/fold_perf_script.py" fold.ps cpu-clock > fold.want || fail "folding oracle failed"
"$VMPROF_SAN" convert folded -e cpu-clock --comm pingpong --time 10%-90% t.data -o fold.got \
	2>fold.err || { cat fold.err; fail "convert folded with filters failed"; }
cmp -s fold.want fold.got || { diff fold.want fold.got | head; fail "folded stacks differ from perf script's"; }
grep -qv '^pingpong;' fold.got && fail "folded: a stack of another command"
perf script -i t.data -F comm,period,event,ip,sym,dso --pid $w > fold2.ps 2>/dev/null
python3 "$TOP/test/fold_perf_script.py" fold2.ps cpu-clock > fold2.want || fail "folding oracle failed"
"$VMPROF" convert folded -e cpu-clock --pid $w t.data > fold2.got 2>/dev/null
cmp -s fold2.want fold2.got || { diff fold2.want fold2.got | head; fail "folded --pid differs from perf script's"; }
note "folded: $(wc -l < fold.got) and $(wc -l < fold2.got) stacks agree with perf script"

# convert pprof exports the same samples: go tool pprof's flat counts equal
# perf report's under the same filters (one comm: perf hides its column)
command -v go >/dev/null || fail "go is not installed (make deps installs golang-go)"
export GOCACHE=$WORK/gocache GOPATH=$WORK/gopath GO111MODULE=off GOPROXY=off GOFLAGS=
# the range lies inside weights' own samples (how long each program runs
# against the other depends on the machine): its 10th to 90th percentile
awk '$1 == "weights" { print $NF }' ids.txt | tr -d : > w.times
wn=$(wc -l < w.times)
wr="$(sed -n "$((wn / 10 + 1))p" w.times),$(sed -n "$((9 * wn / 10))p" w.times)"
"$VMPROF_SAN" convert pprof -e cpu-clock --comm weights --time "$wr" t.data -o f.pb.gz 2>f.err ||
	{ cat f.err; fail "convert pprof with filters failed"; }
go tool pprof -top -nodecount=1000000 -nodefraction=0 -edgefraction=0 -sample_index=samples \
	f.pb.gz > f.top 2>/dev/null || fail "go tool pprof cannot read the filtered export"
perf report -i t.data "${relative[@]}" --sort comm,dso,sym --comms weights --time "$wr" \
	> f.perf 2>/dev/null
python3 "$TOP/test/pprof_agree.py" flat f.top --perf f.perf --event cpu-clock ||
	{ cat f.err; fail "convert pprof --comm --time: go tool pprof's flat samples differ from perf's"; }
grep -q 'anon_pipe_read' f.top && fail "convert pprof --comm weights kept pingpong's anon_pipe_read"

# compare: the filter applies to both sides, judged by perf report of each
perf record -q -o g.data -e cpu-clock,page-faults -F 2000 -- sh -c "./weights 3000000 1 1 4 & ./pingpong 10000; wait" \
	>/dev/null 2>rec.err || { cat rec.err; fail "perf record failed"; }
side() {	# side FILE PERF_OPTIONS...: the table cmp_oracle.py reads
	local f=$1; shift
	perf report -i $f --stdio --no-children -g none --sort comm,sym -n --show-total-period \
		-t $'\x1f' --percentage relative "$@" 2>/dev/null
}
side t.data --comms weights > h.perf; side g.data --comms weights > g.perf
"$VMPROF_SAN" compare --top 0 --format csv -o c.xml --comm weights t.data g.data > c.csv 2>c.err ||
	{ cat c.err; fail "compare --comm failed"; }
python3 "$TOP/test/cmp_oracle.py" h.perf g.perf c.csv || fail "compare --comm: join differs from perf's"
# pingpong's pipe reads are there without the filter, gone with it
"$VMPROF" compare --top 0 --format csv -o c0.xml t.data g.data > c0.csv 2>/dev/null
grep -q '"anon_pipe_read"' c0.csv || fail "no anon_pipe_read row without --comm: vacuous"
grep -q '"anon_pipe_read"' c.csv && fail "compare --comm weights kept pingpong's anon_pipe_read"
# --time A:B (perf diff's): seconds for the first input, percent for the second
side t.data --time "$a," > h2.perf; side g.data --time 50%-100% > g2.perf
"$VMPROF" compare --top 0 --format csv -o c2.xml --time "$a,:50%-100%" t.data g.data > c2.csv 2>c.err ||
	{ cat c.err; fail "compare --time A:B failed"; }
python3 "$TOP/test/cmp_oracle.py" h2.perf g2.perf c2.csv || fail "compare --time A:B: join differs from perf's"
# chart HOST GUEST draws the comparison compare makes, filters and all
"$VMPROF" chart -o charts0 --format svg --kind bar -n 100 t.data g.data 2>/dev/null ||
	fail "chart HOST GUEST failed"
"$VMPROF" chart -o charts --format svg --kind bar -n 100 --comm weights t.data g.data 2>/dev/null ||
	fail "chart HOST GUEST --comm failed"
grep -q 'anon_pipe_read' charts0/*.svg || fail "no anon_pipe_read bar without --comm: vacuous"
grep -q 'anon_pipe_read' charts/*.svg && fail "chart --comm weights drew pingpong's anon_pipe_read"
note "compare: both sides filtered as perf filters each"

# A filter that keeps nothing says so; the tables are empty, not an error
"$VMPROF" report --comm no-such-name t.data > none.out 2>none.err || fail "an empty filter result is not an error"
grep -q "no sample passed" none.err || fail "no warning when the filters keep nothing"
grep -q '^# Samples: 0 ' none.out || fail "kept samples after --comm no-such-name"
# and a comparison of two sides that kept nothing is empty, not a crash
"$VMPROF_SAN" compare -o none.xml --comm no-such-name t.data g.data > none.cmp 2>none.err ||
	{ cat none.err; fail "compare of two empty sides failed"; }

# Bad values: usage errors (exit 2) that say what is wrong
bad() {	# bad "MESSAGE PART" ARGS...
	local want=$1; shift
	expect_status 2 "$VMPROF" "$@"
	grep -q -- "$want" "$WORK/err" || fail "'$*': message lacks '$want': $(cat "$WORK/err")"
}
bad "ends before it starts" report --time 5,3 t.data
bad "'x' is not a process id" report --pid x t.data
bad "outside 0%-100%" report --time 120% t.data
bad "not a percent range" report --time 10%/0 t.data
bad "not a time range" report --time 5 t.data
bad "overlap or are out of order" report --time "3,4 2,5" t.data
bad "is not a thread id" report --tid 1,,2 t.data
bad "empty command name" report --comm pingpong, t.data
bad "separates the times of the sides" report --time 1,2:3,4 t.data
bad "3 times separated by ':' for 2 inputs" compare --time 1,:2,:3, t.data g.data
bad "a saved comparison has none" chart --comm x c.xml
bad "apply to 'convert folded'" convert --pid 1 split t.data dir
# Inputs without samples: bad input (exit 1) naming the file
"$VMPROF" report --top 0 --format csv t.data > t.csv 2>/dev/null
expect_status 1 "$VMPROF" report --comm pingpong t.csv
grep -q "'t.csv': a CSV table has no samples to filter" "$WORK/err" || fail "CSV input: $(cat "$WORK/err")"
expect_status 1 "$VMPROF" compare --time 10%/2 -o x.xml t.data t.csv
grep -q "'t.csv'" "$WORK/err" || fail "compare with a CSV side: $(cat "$WORK/err")"
# a pipe has no first and last sample time: percents fail, seconds work
perf record -q -o - -e cpu-clock -F 2000 -- ./weights 2000000 2>/dev/null > p.stream
expect_status 1 "$VMPROF" report --time 10%/2 - < p.stream
grep -q "a pipe carries no first and last sample time" "$WORK/err" || fail "pipe percents: $(cat "$WORK/err")"
expect_status 0 "$VMPROF" report --time "$first," - < p.stream
echo "ok"
