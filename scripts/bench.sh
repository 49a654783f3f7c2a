#!/usr/bin/env bash
# make bench: vmprof against the real perf, measured in the same run on the
# same files. Prints raw figures, ratios and a verdict per goal; asserts
# nothing (speed goals are reported, never tested). Big files live in a
# temporary directory that is removed at exit.
# Usage: scripts/bench.sh [VMPROF]   (env BENCH_MB: size of the big files, default 300)
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
vmprof=${1:-$top/build/vmprof}
target_mb=${BENCH_MB:-300}
tmp=$(mktemp -d "${TMPDIR:-/var/tmp}/vmprof-bench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
export LC_ALL=C HOME=$tmp	# no perf build-id cache: both tools read the same binaries

say() { printf '%s\n' "$*"; }
mb() { echo $(( $(stat -c %s "$1") / 1048576 )); }
samples() { perf report -i "$1" --stdio --sort dso -n -g none --no-children 2>/dev/null |
	awk '!/^#/ && NF { s += $2 } END { print s }'; }

say "vmprof bench: $(nproc) CPUs, kernel $(uname -r), $(perf version)"
gcc -O1 -g -fno-omit-frame-pointer -o "$tmp/weights" "$top/test/workloads/weights.c"
g++ -O1 -g -fno-omit-frame-pointer -std=c++17 -o "$tmp/cxx" "$top/test/workloads/cxx_names.cc"
once="'$tmp/weights' 40000000; '$tmp/cxx' 60; '$tmp/weights' 40000000"
# The base recordings hold at least BENCH_RECORD_S seconds of it (default 3):
# a fast machine ran it once in 0.46 s, and a file grown 150 times from that
# repeated every mmap, comm and fork as often as its samples, which no long
# recording does (the "flat in samples" memory goal then measured them).
record_s=${BENCH_RECORD_S:-3}
workload="end=\$(( \${EPOCHREALTIME/./} + $record_s * 1000000 ))
while :; do $once; [ \${EPOCHREALTIME/./} -lt \$end ] || break; done"

# Recordings made by perf itself (system-wide cpu-clock at 50 kHz per CPU), then
# grown to the target size by repeating their data with shifted timestamps
# (scripts/perfdata-repeat.py): the same code and symbols, N times the samples.
grow() {	# grow BASE OUT MB
	local k=$(( $3 / ($(mb "$1") + 1) + 1 ))
	python3 "$top/scripts/perfdata-repeat.py" "$1" "$2" "$k"
}
say ""
say "== recording with perf"
perf record -q -a -e cpu-clock -c 20000 -o "$tmp/flat.data" -- bash -c "$workload" >/dev/null 2>&1
perf record -q -a -g -e cpu-clock -c 20000 -o "$tmp/g.data" -- bash -c "$workload" >/dev/null 2>&1
say "  perf record (the workload for ${record_s} s or once): flat $(mb "$tmp/flat.data") MB, -g $(mb "$tmp/g.data") MB"
grow "$tmp/flat.data" "$tmp/big.data" "$target_mb"
grow "$tmp/g.data" "$tmp/bigg.data" "$target_mb"
half_k=$(( target_mb / 2 / ($(mb "$tmp/flat.data") + 1) + 1 ))
python3 "$top/scripts/perfdata-repeat.py" "$tmp/flat.data" "$tmp/half.data" "$half_k"

# ---- the report goals: alternating pairs ----
# pairs NAME A-CMD -- B-CMD: BENCH_PAIRS (default 5) pairs of runs, which of A
# and B goes first alternating (A B, B A, ...); keeps each run's wall time
# and peak RSS in $tmp/NAME.a and $tmp/NAME.b, one line per pair.
# The stopwatch (scripts/bench-run.c) times the command alone, fork to exit,
# and takes `taskset -c CPUS` as its own -c: the 2.5 ms a run that starting
# /usr/bin/time and taskset took were inside every figure before.
gcc -O2 -o "$tmp/bench-run" "$top/scripts/bench-run.c"
run() {	# run [taskset -c CPUS] CMD...: "WALL RSS" of one run, its output discarded
	local cpus=()
	if [ "$1" = taskset ] && [ "$2" = -c ]; then cpus=(-c "$3"); shift 3; fi
	"$tmp/bench-run" -o "$tmp/time" "${cpus[@]}" -- "$@" 2>"$tmp/err" ||
		{ cat "$tmp/err" >&2; say "bench: '$*' failed"; exit 1; }
	cat "$tmp/time"
}
# pair NAME I A-CMD -- B-CMD: the I-th pair of NAME (odd I: A first).
pair() {
	local name=$1 i=$2 a=() b=()
	shift 2
	while [ "$1" != -- ]; do a+=("$1"); shift; done
	shift
	b=("$@")
	if [ $((i % 2)) = 1 ]; then
		run "${a[@]}" >> "$tmp/$name.a"
		run "${b[@]}" >> "$tmp/$name.b"
	else
		run "${b[@]}" >> "$tmp/$name.b"
		run "${a[@]}" >> "$tmp/$name.a"
	fi
}
# The noisiest figures take 2n-1 pairs (section_pairs=$wide pairs ...): in six runs
# the -g speed's pairs ranged 7.2-17.2, compare's 1.72-2.55.
wide=$((2 * ${BENCH_PAIRS:-5} - 1))
unset section_pairs
pairs() {
	local name=$1 i
	shift
	: > "$tmp/$name.a"
	: > "$tmp/$name.b"
	for i in $(seq "${section_pairs:-${BENCH_PAIRS:-5}}"); do
		pair "$name" "$i" "$@"
	done
}
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
# col NAME SIDE COLUMN: that column (1 wall, 2 RSS) of one side's runs
col() { awk -v c="$3" '{ print $c }' "$tmp/$1.$2"; }
# ratios NAME COLUMN [inverse]: per pair A/B (B/A with inverse) of a column
ratios() { paste "$tmp/$1.a" "$tmp/$1.b" | awk -v c="$2" -v inv="${3:-}" \
	'{ a = $c; b = $(c + 2); if (inv) { t = a; a = b; b = t } print (b > 0 ? a / b : 0) }'; }
# show NAME A-LABEL B-LABEL: the median wall and RSS of each side
show() {
	printf '  %-44s wall median %7.3f s (min %.3f, max %.3f)   peak RSS median %7.1f MB\n' \
		"$2" "$(col "$1" a 1 | median)" "$(col "$1" a 1 | sort -g | head -1)" \
		"$(col "$1" a 1 | sort -g | tail -1)" "$(col "$1" a 2 | median | awk '{ print $1 / 1024 }')"
	printf '  %-44s wall median %7.3f s (min %.3f, max %.3f)   peak RSS median %7.1f MB\n' \
		"$3" "$(col "$1" b 1 | median)" "$(col "$1" b 1 | sort -g | head -1)" \
		"$(col "$1" b 1 | sort -g | tail -1)" "$(col "$1" b 2 | median | awk '{ print $1 / 1024 }')"
}
# verdict TEXT NAME COLUMN [inverse] TARGET [le]: the median of the pairs' ratios, min, max
verdict() {
	local text=$1 name=$2 c=$3 inv=$4 target=$5 how=${6:-ge} m lo hi ok
	m=$(ratios "$name" "$c" "$inv" | median)
	lo=$(ratios "$name" "$c" "$inv" | sort -g | head -1)
	hi=$(ratios "$name" "$c" "$inv" | sort -g | tail -1)
	ok=$(awk -v r="$m" -v g="$target" -v how="$how" \
		'BEGIN { print ((how == "le") ? (r <= g) : (r >= g)) ? "met" : "NOT met" }')
	printf '  => %-54s median %6.2f (min %.2f, max %.2f)  goal %s %s: %s\n' "$text" "$m" "$lo" "$hi" \
		"$how" "$target" "$ok"
	printf '%s|%.2f|%.2f|%.2f|%s %s|%s\n' "$text" "$m" "$lo" "$hi" "$how" "$target" "$ok" >> "$tmp/summary"
}
# warm FILE...: into the page cache before a section's pairs, as the figures are
# for files read from it: a machine's reclaim may take out pages idle a while
# (DAMON's pageout on the bench machine: idle 60 s), and perf's runs before
# a section can take minutes.
warm() { cat "$@" > /dev/null; }
: > "$tmp/summary"
say ""
say "Each goal: ${BENCH_PAIRS:-5} pairs ($wide for the noisiest: -g speed, cores, compare of two big"
say "files), alternating which command runs first; the figure is the median of the pairs' ratios,"
say "with their min and max. Files read from the page cache."

say ""
say "== report, system-wide cpu-clock: $(mb "$tmp/big.data") MB, $(samples "$tmp/big.data") samples"
say "  the same table: perf report --stdio --sort sym  and  vmprof report --sort sym"
warm "$tmp/big.data"
pairs flat perf report -i "$tmp/big.data" --stdio --sort sym -- "$vmprof" report --sort sym "$tmp/big.data"
show flat "perf report --stdio --sort sym" "vmprof report --sort sym"
verdict "report speed: perf wall / vmprof wall" flat 1 "" 10
verdict "report memory: perf peak RSS / vmprof peak RSS" flat 2 "" 4

say ""
say "== report with callchains (-g): $(mb "$tmp/bigg.data") MB, $(samples "$tmp/bigg.data") samples"
say "  the same table: perf report --stdio --no-children -g none --sort sym  and  vmprof report --sort sym"
say "  (perf's default on -g data is the children table, another one)"
warm "$tmp/bigg.data"
section_pairs=$wide pairs gdata perf report -i "$tmp/bigg.data" --stdio --no-children -g none --sort sym -- \
	"$vmprof" report --sort sym "$tmp/bigg.data"
show gdata "perf report --no-children -g none --sort sym" "vmprof report --sort sym"
verdict "report speed on -g data: perf wall / vmprof wall" gdata 1 "" 10
verdict "report memory on -g data: perf RSS / vmprof RSS" gdata 2 "" 4

say ""
say "== throughput: cat FILE > /dev/null (page cache warm) against vmprof report"
warm "$tmp/big.data"
pairs tput cat "$tmp/big.data" -- "$vmprof" report --sort sym "$tmp/big.data"
show tput "cat FILE" "vmprof report --sort sym"
verdict "throughput: vmprof MB/s / cat MB/s (= cat wall / vmprof wall)" tput 1 "" 0.25

say ""
ncpu=$(nproc)
all="0-$((ncpu - 1))"
say "== cores: vmprof report on one CPU (taskset -c 0) against all $ncpu (taskset -c $all)"
# The ceiling: a job that divides perfectly (scripts/bench-ceiling.c: fixed
# chunks from one queue, no memory traffic, nothing serial), its pairs run in
# turn with vmprof's, so both see the same minutes of this machine: a virtual
# machine's CPUs need not each run at full speed while the others run.
gcc -O2 -pthread -o "$tmp/ceiling" "$top/scripts/bench-ceiling.c"
ceiling=("$tmp/ceiling" 400)
# A noisy figure (a pair's ratio ranged 1.28-2.15 in one run): 2n-1 pairs.
warm "$tmp/big.data" "$tmp/bigg.data"
# A second ceiling reads the file the way vmprof does and does nothing else
# (bench-ceiling --read): what reading the page cache gives from more CPUs.
for name in cores ceil coresg ceilg readf readg; do : > "$tmp/$name.a"; : > "$tmp/$name.b"; done
# The host's share of these minutes: a virtual machine's CPUs are taken
# from it now and then (steal, /proc/stat), and a run on 2 CPUs waits for
# whichever is taken; the figures below are only as steady as this.
steal() { awk '/^cpu / { print $9 }' /proc/stat; }
steal0=$(steal) t_steal0=$(date +%s%N)
for i in $(seq "$wide"); do
	pair cores "$i" taskset -c 0 "$vmprof" report --sort sym "$tmp/big.data" -- \
		taskset -c "$all" "$vmprof" report --sort sym "$tmp/big.data"
	pair ceil "$i" taskset -c 0 "${ceiling[@]}" -- taskset -c "$all" "${ceiling[@]}"
	pair coresg "$i" taskset -c 0 "$vmprof" report --sort sym "$tmp/bigg.data" -- \
		taskset -c "$all" "$vmprof" report --sort sym "$tmp/bigg.data"
	pair ceilg "$i" taskset -c 0 "${ceiling[@]}" -- taskset -c "$all" "${ceiling[@]}"
	pair readf "$i" taskset -c 0 "$tmp/ceiling" --read "$tmp/big.data" -- \
		taskset -c "$all" "$tmp/ceiling" --read "$tmp/big.data"
	pair readg "$i" taskset -c 0 "$tmp/ceiling" --read "$tmp/bigg.data" -- \
		taskset -c "$all" "$tmp/ceiling" --read "$tmp/bigg.data"
done
steal1=$(steal) t_steal1=$(date +%s%N)
steal_pct=$(awk -v s="$((steal1 - steal0))" -v hz="$(getconf CLK_TCK)" -v ns="$((t_steal1 - t_steal0))" \
	-v n="$ncpu" 'BEGIN { printf "%.1f", 100 * (s / hz) / (ns / 1e9 * n) }')
say "  the host took ${steal_pct}% of this machine's CPU time during these pairs (steal in /proc/stat)"
show cores "one CPU" "$ncpu CPUs"
verdict "cores: one CPU wall / $ncpu CPUs wall (-g data below)" cores 1 "" 1.8
verdict "cores on -g data: one CPU wall / $ncpu CPUs wall" coresg 1 "" 1.8
cat "$tmp/ceil.a" "$tmp/ceilg.a" > "$tmp/ceilall.a"
cat "$tmp/ceil.b" "$tmp/ceilg.b" > "$tmp/ceilall.b"
show ceilall "the ceiling job, one CPU" "the ceiling job, $ncpu CPUs"
of_ceiling() { paste <(ratios "$1" 1) <(ratios "$2" 1) | awk '{ print $1 / $2 }' | median; }
c_med=$(ratios ceilall 1 | median)
c_lo=$(ratios ceilall 1 | sort -g | head -1)
c_hi=$(ratios ceilall 1 | sort -g | tail -1)
of_flat=$(of_ceiling cores ceil | awk '{ printf "%.2f", $1 }')
of_g=$(of_ceiling coresg ceilg | awk '{ printf "%.2f", $1 }')
printf '  ceiling: a perfectly parallel job gains %.2f (min %.2f, max %.2f) from %d CPUs in the same minutes;\n' \
	"$c_med" "$c_lo" "$c_hi" "$ncpu"
printf '  vmprof reaches %s of it on the flat file and %s on the -g file (medians of the pairs'"'"' quotients)\n' \
	"$of_flat" "$of_g"
printf '%s|%.2f|%.2f|%.2f|-|%s\n' "cores ceiling here: a perfectly parallel job" "$c_med" "$c_lo" "$c_hi" \
	"vmprof at $of_flat, $of_g; steal ${steal_pct}%" >> "$tmp/summary"
cat "$tmp/readf.a" "$tmp/readg.a" > "$tmp/readall.a"
cat "$tmp/readf.b" "$tmp/readg.b" > "$tmp/readall.b"
show readall "reading the file alone, one CPU" "reading the file alone, $ncpu CPUs"
r_med=$(ratios readall 1 | median)
r_lo=$(ratios readall 1 | sort -g | head -1)
r_hi=$(ratios readall 1 | sort -g | tail -1)
printf '  reading the files alone (pread 256 KiB at a time into a 2 MiB buffer per thread) gains %.2f (min %.2f, max %.2f)\n' \
	"$r_med" "$r_lo" "$r_hi"
printf '%s|%.2f|%.2f|%.2f|-|%s\n' "cores, reading the file alone (bench-ceiling --read)" "$r_med" "$r_lo" \
	"$r_hi" "the page cache's share" >> "$tmp/summary"

say ""
say "== the same tables whatever the threads: --threads 1 against all CPUs (cmp)"
for f in big bigg half; do
	"$vmprof" report --sort sym --threads 1 "$tmp/$f.data" > "$tmp/$f.t1" 2> "$tmp/$f.e1"
	"$vmprof" report --sort sym "$tmp/$f.data" > "$tmp/$f.tn" 2> "$tmp/$f.en"
	if cmp -s "$tmp/$f.t1" "$tmp/$f.tn" && cmp -s "$tmp/$f.e1" "$tmp/$f.en"; then
		say "  $f.data: identical (table and warnings)"
	else
		say "  $f.data: DIFFERENT"
		echo "tables identical, 1 thread and all|-|-|-|=|NOT met" >> "$tmp/summary"
	fi
done

say ""
say "== memory flat in the number of samples: half the samples against all"
warm "$tmp/half.data" "$tmp/big.data"
pairs flatmem "$vmprof" report --sort sym "$tmp/half.data" -- "$vmprof" report --sort sym "$tmp/big.data"
say "  $(samples "$tmp/half.data") -> $(samples "$tmp/big.data") samples"
show flatmem "vmprof report, half the samples" "vmprof report, all"
verdict "RSS all / RSS half (when samples double)" flatmem 2 inverse 1.10 le
# With several threads the peak is the kernel symbols' load (about 14 MB while
# read) meeting the readers' windows, which the shorter file's count may
# finish before: one thread shows what grows with the file itself.
pairs flatmem1 "$vmprof" report --threads 1 --sort sym "$tmp/half.data" -- \
	"$vmprof" report --threads 1 --sort sym "$tmp/big.data"
say "  (one thread, for comparison: RSS all / half median $(ratios flatmem1 2 inverse | median |
	awk '{ printf "%.2f", $1 }'), peak RSS $(col flatmem1 a 2 | median | awk '{ printf "%.1f", $1 / 1024 }')" \
	"-> $(col flatmem1 b 2 | median | awk '{ printf "%.1f", $1 / 1024 }') MB)"

if "$vmprof" compare --help >/dev/null 2>&1; then
	say ""
	say "== compare: two big files vs one report"
	# two files of the target size: the flat one and a second growth of the same recording
	grow "$tmp/flat.data" "$tmp/big2.data" "$target_mb"
	say "  compare A B against vmprof report A, in pairs"
	warm "$tmp/big.data" "$tmp/big2.data"
	section_pairs=$wide pairs cmpbig "$vmprof" compare -o "$tmp/cmp.xml" "$tmp/big.data" "$tmp/big2.data" -- \
		"$vmprof" report --sort sym "$tmp/big.data"
	show cmpbig "vmprof compare A B" "vmprof report A"
	verdict "compare of two big files / one report" cmpbig 1 "" 2 le
else
	say ""
	say "== compare: not built yet (vmprof compare missing); skipped"
fi

# ---- compare of sides of runs: 2 sides x 10 runs against reading the 20 files ----
run_mb=${BENCH_RUN_MB:-30}
# The runs are copies of two growths of a recording (the bytes of a side's
# runs are the same: the work of reading them is not); both commands read
# them from the page cache. Pairs alternate which command goes first, and
# the median of the pairs' ratios is the figure. On -g recordings compare
# also builds each side's call-path tree (its flame graphs), which report's
# table does not: the same goal, more work on one side.
copies() {	# copies BASE MB: repeats of BASE closest to MB, or the part of it
	local size k	# (the -g recording came out 69 MB in one run, 17-19 in others)
	size=$(stat -c %s "$1")
	if [ "$size" -gt $(($2 * 1048576)) ]; then
		awk -v m="$2" -v s="$size" 'BEGIN { printf "%.3f", m * 1048576 / s }'
	else
		k=$(( ($2 * 1048576 + size / 2) / size ))
		echo "$k"
	fi
}
wall() {	# wall CMD...: seconds the command took (its output discarded)
	local t0 t1
	t0=$EPOCHREALTIME
	"$@" > /dev/null 2> "$tmp/err" || { cat "$tmp/err" >&2; say "bench: '$*' failed"; exit 1; }
	t1=$EPOCHREALTIME
	awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }'
}
reports() { for f in "$1"/*.data "$2"/*.data; do "$vmprof" report --sort sym "$f" || return 1; done; }
cmp_runs() { "$vmprof" compare -o "$tmp/runs.cmp.xml" "$1" "$2"; }
runs_goal() {	# runs_goal NAME BASE TEXT
	local name=$1 base=$2 a=$tmp/$1-A b=$tmp/$1-B i c r
	say ""
	say "== compare of 2 sides x 10 runs ($3, ~$run_mb MB each) vs vmprof report of the same 20 files, one after the other"
	python3 "$top/scripts/perfdata-repeat.py" "$base" "$tmp/$name-runA.data" "$(copies "$base" "$run_mb")"
	python3 "$top/scripts/perfdata-repeat.py" "$base" "$tmp/$name-runB.data" \
		"$(copies "$base" $((run_mb + run_mb / 5)))"
	mkdir -p "$a" "$b"
	for k in $(seq 10); do
		cp "$tmp/$name-runA.data" "$a/run-$k.data"
		cp "$tmp/$name-runB.data" "$b/run-$k.data"
	done
	warm "$a"/*.data "$b"/*.data
	say "  runs: $(mb "$tmp/$name-runA.data") and $(mb "$tmp/$name-runB.data") MB," \
		"$(samples "$tmp/$name-runA.data") samples in a side-A run"
	# cmp_runs and reports are shell functions, which run (time(1)) cannot start:
	# the pairs are kept by hand in the files verdict reads ("WALL RSS", RSS 0).
	: > "$tmp/$name.a"
	: > "$tmp/$name.b"
	for i in $(seq "${BENCH_PAIRS:-5}"); do
		if [ $((i % 2)) = 1 ]; then
			c=$(wall cmp_runs "$a" "$b"); r=$(wall reports "$a" "$b")
		else
			r=$(wall reports "$a" "$b"); c=$(wall cmp_runs "$a" "$b")
		fi
		printf '  pair %d: compare %s s, 20 reports %s s\n' "$i" "$c" "$r"
		echo "$c 0" >> "$tmp/$name.a"
		echo "$r 0" >> "$tmp/$name.b"
	done
	verdict "compare 2 sides x 10 runs ($3) / reports of the 20 files" "$name" 1 "" 1 le
	rm -rf "$a" "$b"
}
runs_goal runs "$tmp/flat.data" "flat"
runs_goal runsg "$tmp/g.data" "-g"

# ---- chart: 10 events x bar and circle x SVG and PNG ----
if "$vmprof" chart --help >/dev/null 2>&1; then
	say ""
	say "== chart: 10 events x 2 chart types x svg+png from a saved comparison"
	# a comparison CSV with 10 events of 200 rows each, C++-length names, values over 6 decades
	python3 - "$tmp/chart.csv" <<'PY'
import csv, sys
w = csv.writer(open(sys.argv[1], "w", newline=""))
w.writerow("event,symbol,dso,domain,host_samples,host_period,host_share,guest_samples,guest_period,guest_share,ratio,delta".split(","))
for e in range(10):
    rows = [(f"ns{e}::detail::Worker<std::vector<int>, {i}>::step_{i}(int, char const*)",
             (i * 7919) % 1000003 + 1, (i * 104729) % 999983 + (i % 5 == 0) * 10**6) for i in range(200)]
    H, G = sum(r[1] for r in rows), sum(r[2] for r in rows)
    for s, h, g in rows:
        w.writerow([f"event{e}", s, "/usr/bin/app", ".", h, h * 1000, h / H, g, g * 1000, g / G,
                    f"{g / h:.6f}", f"{100 * (g / G - h / H):.6f}"])
PY
	# a goal in seconds: the B side of each "pair" is 1 s, so the ratios are the times
	: > "$tmp/chart.a"
	: > "$tmp/chart.b"
	for _ in $(seq "${BENCH_PAIRS:-5}"); do
		rm -rf "$tmp/charts"
		run "$vmprof" chart --format svg,png -o "$tmp/charts" "$tmp/chart.csv" >> "$tmp/chart.a"
		echo "1 0" >> "$tmp/chart.b"
	done
	say "  files: $(ls "$tmp/charts" | wc -l), peak RSS median $(col chart a 2 | median | awk '{ printf "%.1f", $1 / 1024 }') MB"
	verdict "chart (40 files) wall time, seconds" chart 1 "" 1 le
else
	say ""
	say "== chart: not built yet (vmprof chart missing); skipped"
fi

say ""
say "== record overhead: the workload alone, under perf record and under vmprof record (-F 10000 -a)"
wl=("$tmp/weights" 20000000 4 4 4)
t0=$EPOCHREALTIME; "${wl[@]}" > /dev/null; t1=$EPOCHREALTIME
printf '  %-44s wall %7.3f s\n' "workload alone (once)" "$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')"
# (no "--" before the workload: pair cuts its two commands at the first "--")
pairs rec perf record -q -a -F 10000 -e cpu-clock -o "$tmp/rec-perf.data" "${wl[@]}" -- \
	"$vmprof" record -a -F 10000 -e cpu-clock -o "$tmp/rec-vmprof.data" "${wl[@]}"
show rec "under perf record" "under vmprof record"
lost_perf=$(perf report -i "$tmp/rec-perf.data" --stdio 2>/dev/null | sed -n 's/^# Total Lost Samples: //p' | head -1)
lost_vmprof=$("$vmprof" report "$tmp/rec-vmprof.data" 2>/dev/null | awk '/^# Samples:/ { s += $NF } END { print s + 0 }')
say "  lost in the last pair: perf ${lost_perf:-?}, vmprof $lost_vmprof"
verdict "record: vmprof wall / perf wall (same workload, settings)" rec 1 inverse 1.05 le

say ""
say "== summary (each goal: the median of its pairs' ratios, min, max)"
awk -F'|' '{ printf "  %-62s %6s (%s-%s)  %-8s %s\n", $1, $2, $3, $4, $5, $6 }' "$tmp/summary"
