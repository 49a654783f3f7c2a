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
# measure NAME CMD...: best wall time of RUNS runs (default 3) and the peak RSS
# of that run; sets NAME_wall and NAME_rss. Wall time from the shell's
# microsecond clock (time(1) rounds to 10 ms, too coarse for cat).
measure() {
	local name=$1; shift
	local best="" rss=0 w r t0 t1
	for _ in $(seq "${RUNS:-3}"); do
		t0=$EPOCHREALTIME
		/usr/bin/time -f "%M" -o "$tmp/time" "$@" >/dev/null 2>"$tmp/err" ||
			{ cat "$tmp/err" >&2; say "bench: '$*' failed"; exit 1; }
		t1=$EPOCHREALTIME
		w=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')
		read -r r < "$tmp/time"
		if [ -z "$best" ] || awk -v a="$w" -v b="$best" 'BEGIN { exit !(a < b) }'; then
			best=$w rss=$r
		fi
	done
	printf '  %-40s wall %7.3f s   peak RSS %8d kB\n' "$name" "$best" "$rss"
	printf -v "${name//[^a-zA-Z0-9]/_}_wall" '%s' "$best"
	printf -v "${name//[^a-zA-Z0-9]/_}_rss" '%s' "$rss"
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b <= 0) b = 0.001; printf "%.1f", a / b }'; }
goal() {	# goal TEXT RATIO TARGET [le]: one verdict line
	local ok
	if [ "${4:-ge}" = le ]; then ok=$(awk -v r="$2" -v g="$3" 'BEGIN { print (r <= g) ? "met" : "NOT met" }')
	else ok=$(awk -v r="$2" -v g="$3" 'BEGIN { print (r >= g) ? "met" : "NOT met" }'); fi
	printf '  => %-58s %6s  (goal %s %s): %s\n' "$1" "$2" "${4:-ge}" "$3" "$ok"
}
mb() { echo $(( $(stat -c %s "$1") / 1048576 )); }
samples() { perf report -i "$1" --stdio --sort dso -n -g none --no-children 2>/dev/null |
	awk '!/^#/ && NF { s += $2 } END { print s }'; }

say "vmprof bench: $(nproc) CPUs, kernel $(uname -r), $(perf version)"
gcc -O1 -g -fno-omit-frame-pointer -o "$tmp/weights" "$top/test/workloads/weights.c"
g++ -O1 -g -fno-omit-frame-pointer -std=c++17 -o "$tmp/cxx" "$top/test/workloads/cxx_names.cc"
workload="'$tmp/weights' 40000000; '$tmp/cxx' 60; '$tmp/weights' 40000000"

# Recordings made by perf itself (system-wide cpu-clock at 50 kHz per CPU), then
# grown to the target size by repeating their data with shifted timestamps
# (scripts/perfdata-repeat.py): the same code and symbols, N times the samples.
grow() {	# grow BASE OUT MB
	local k=$(( $3 / ($(mb "$1") + 1) + 1 ))
	python3 "$top/scripts/perfdata-repeat.py" "$1" "$2" "$k"
}
say ""
say "== recording with perf"
perf record -q -a -e cpu-clock -c 20000 -o "$tmp/flat.data" -- sh -c "$workload" >/dev/null 2>&1
perf record -q -a -g -e cpu-clock -c 20000 -o "$tmp/g.data" -- sh -c "$workload" >/dev/null 2>&1
say "  perf record: flat $(mb "$tmp/flat.data") MB, -g $(mb "$tmp/g.data") MB"
grow "$tmp/flat.data" "$tmp/big.data" "$target_mb"
grow "$tmp/g.data" "$tmp/bigg.data" "$target_mb"
half_k=$(( target_mb / 2 / ($(mb "$tmp/flat.data") + 1) + 1 ))
python3 "$top/scripts/perfdata-repeat.py" "$tmp/flat.data" "$tmp/half.data" "$half_k"

say ""
say "== report: vmprof report --sort sym vs perf report --stdio --sort sym"
say "  file: $(mb "$tmp/big.data") MB, $(samples "$tmp/big.data") samples"
cat "$tmp/big.data" "$tmp/bigg.data" "$tmp/half.data" > /dev/null
measure "cat FILE (page cache warm)" cat "$tmp/big.data"
RUNS=1 measure "perf report" perf report -i "$tmp/big.data" --stdio --sort sym
measure "vmprof report" "$vmprof" report --sort sym "$tmp/big.data"
goal "report speed: perf report wall / vmprof report wall" "$(ratio "$perf_report_wall" "$vmprof_report_wall")" 10
goal "report memory: perf report RSS / vmprof report RSS" "$(ratio "$perf_report_rss" "$vmprof_report_rss")" 4
bps=$(awk -v s="$(stat -c %s "$tmp/big.data")" -v w="$vmprof_report_wall" 'BEGIN { printf "%.0f", s / 1048576 / w }')
cps=$(awk -v s="$(stat -c %s "$tmp/big.data")" -v w="$cat_FILE__page_cache_warm__wall" 'BEGIN { printf "%.0f", s / 1048576 / (w > 0 ? w : 0.01) }')
say "  throughput: vmprof report $bps MB/s, cat $cps MB/s"
goal "throughput: vmprof report / plain sequential read" "$(awk -v a="$bps" -v b="$cps" 'BEGIN { printf "%.2f", a / b }')" 0.1

say ""
say "== report with callchains (-g): $(mb "$tmp/bigg.data") MB, $(samples "$tmp/bigg.data") samples"
RUNS=1 measure "perf report (-g data)" perf report -i "$tmp/bigg.data" --stdio --sort sym
measure "vmprof report (-g data)" "$vmprof" report --sort sym "$tmp/bigg.data"
goal "report speed on -g data" "$(ratio "$perf_report___g_data__wall" "$vmprof_report___g_data__wall")" 5

say ""
say "== memory flat in the number of samples"
measure "vmprof report, half the samples" "$vmprof" report --sort sym "$tmp/half.data"
growth=$(awk -v a="$vmprof_report_rss" -v b="$vmprof_report__half_the_samples_rss" 'BEGIN { printf "%.1f", 100 * (a - b) / b }')
say "  $(samples "$tmp/half.data") -> $(samples "$tmp/big.data") samples: peak RSS $vmprof_report__half_the_samples_rss -> $vmprof_report_rss kB"
goal "RSS growth when samples double, percent" "$growth" 10 le

if "$vmprof" compare --help >/dev/null 2>&1; then
	say ""
	say "== compare: two big files vs one report"
	# two files of the target size: the flat one and a second growth of the same recording
	grow "$tmp/flat.data" "$tmp/big2.data" "$target_mb"
	measure "vmprof compare A B" "$vmprof" compare -o "$tmp/cmp.xml" "$tmp/big.data" "$tmp/big2.data"
	goal "compare time / one report's time" "$(ratio "$vmprof_compare_A_B_wall" "$vmprof_report_wall")" 2 le
else
	say ""
	say "== compare: not built yet (vmprof compare missing); skipped"
fi

# ---- compare of sides of runs: 2 sides x 10 runs against reading the 20 files ----
say ""
run_mb=${BENCH_RUN_MB:-30}
say "== compare of 2 sides x 10 runs (~$run_mb MB each) vs vmprof report of the same 20 files, one after the other"
# The runs are copies of two growths of the recording (the bytes of a side's
# runs are the same: the work of reading them is not); both commands read
# them from the page cache. Pairs alternate which command goes first, and
# the median of the pairs' ratios is the figure.
copies() {	# copies MB: repeats of flat.data closest to MB
	local size k
	size=$(stat -c %s "$tmp/flat.data")
	k=$(( ($1 * 1048576 + size / 2) / size ))
	echo $(( k > 0 ? k : 1 ))
}
python3 "$top/scripts/perfdata-repeat.py" "$tmp/flat.data" "$tmp/runA.data" "$(copies "$run_mb")"
python3 "$top/scripts/perfdata-repeat.py" "$tmp/flat.data" "$tmp/runB.data" "$(copies $((run_mb + run_mb / 5)))"
mkdir -p "$tmp/sideA" "$tmp/sideB"
for k in $(seq 10); do
	cp "$tmp/runA.data" "$tmp/sideA/run-$k.data"
	cp "$tmp/runB.data" "$tmp/sideB/run-$k.data"
done
cat "$tmp"/side?/*.data > /dev/null
say "  runs: $(mb "$tmp/runA.data") and $(mb "$tmp/runB.data") MB, $(samples "$tmp/runA.data") samples in a side-A run"
wall() {	# wall CMD...: seconds the command took (its output discarded)
	local t0 t1
	t0=$EPOCHREALTIME
	"$@" > /dev/null 2> "$tmp/err" || { cat "$tmp/err" >&2; say "bench: '$*' failed"; exit 1; }
	t1=$EPOCHREALTIME
	awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }'
}
reports() { for f in "$tmp"/sideA/*.data "$tmp"/sideB/*.data; do "$vmprof" report --sort sym "$f" || return 1; done; }
cmp_runs() { "$vmprof" compare -o "$tmp/runs.cmp.xml" "$tmp/sideA" "$tmp/sideB"; }
pairs=${BENCH_PAIRS:-5}
: > "$tmp/pairs"
for i in $(seq "$pairs"); do
	if [ $((i % 2)) = 1 ]; then c=$(wall cmp_runs); r=$(wall reports); else r=$(wall reports); c=$(wall cmp_runs); fi
	printf '  pair %d: compare %s s, 20 reports %s s\n' "$i" "$c" "$r"
	echo "$c $r" >> "$tmp/pairs"
done
med() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
c_med=$(awk '{ print $1 }' "$tmp/pairs" | med)
r_med=$(awk '{ print $2 }' "$tmp/pairs" | med)
ratio_med=$(awk '{ print $1 / $2 }' "$tmp/pairs" | med)
printf '  median: compare %.3f s, 20 reports %.3f s; compare / reports, median of the pairs: %.2f (aim: 1 or less)\n' \
	"$c_med" "$r_med" "$ratio_med"

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
	measure "vmprof chart (40 files)" "$vmprof" chart --format svg,png -o "$tmp/charts" "$tmp/chart.csv"
	say "  files: $(ls "$tmp/charts" | wc -l)"
	goal "chart wall time, seconds" "$vmprof_chart__40_files__wall" 1 le
else
	say ""
	say "== chart: not built yet (vmprof chart missing); skipped"
fi

say ""
say "== record overhead: the workload alone, under perf record and under vmprof record (-F 10000 -a)"
wl() { "$tmp/weights" 20000000 4 4 4; }
t0=$EPOCHREALTIME; wl; t1=$EPOCHREALTIME
alone=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')
t0=$EPOCHREALTIME
perf record -q -a -F 10000 -e cpu-clock -o "$tmp/rec-perf.data" -- "$tmp/weights" 20000000 4 4 4 > /dev/null 2> "$tmp/rec-perf.err"
t1=$EPOCHREALTIME
under_perf=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')
t0=$EPOCHREALTIME
"$vmprof" record -a -F 10000 -e cpu-clock -o "$tmp/rec-vmprof.data" -- "$tmp/weights" 20000000 4 4 4 > /dev/null 2> "$tmp/rec-vmprof.err"
t1=$EPOCHREALTIME
under_vmprof=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')
lost_perf=$(perf report -i "$tmp/rec-perf.data" --stdio 2>/dev/null | sed -n 's/^# Total Lost Samples: //p' | head -1)
lost_vmprof=$("$vmprof" report "$tmp/rec-vmprof.data" 2>/dev/null | awk '/^# Samples:/ { s += $NF } END { print s + 0 }')
printf '  %-40s wall %7.3f s\n' "workload alone" "$alone"
printf '  %-40s wall %7.3f s   lost %s\n' "under perf record" "$under_perf" "${lost_perf:-?}"
printf '  %-40s wall %7.3f s   lost %s\n' "under vmprof record" "$under_vmprof" "$lost_vmprof"
goal "record: vmprof wall / perf wall (same workload, same settings)" \
	"$(awk -v a="$under_vmprof" -v b="$under_perf" 'BEGIN { printf "%.2f", a / b }')" 1.05 le
