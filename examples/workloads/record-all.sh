#!/bin/sh
# Record every example workload with vmprof, the same way on the host and
# inside the guest (this script runs under bash and under busybox sh).
# Usage: record-all.sh VMPROF BINDIR OUTDIR LABEL
# Each workload runs VP_RUNS times (default 3; vmprof record --repeat), the
# runs of one side: OUTDIR/NAME.data is the first run's recording and
# OUTDIR/NAME.run-K.data the K-th's (plain file names: the guest's files
# travel as such), OUTDIR/NAME.out what the runs printed (their own counts,
# run after run), for NAME in matmul memwalk pingpong appio. Sizes can be
# overridden through the environment (VP_MATMUL_N, ...).
set -eu
vmprof=$1 bin=$2 out=$3 label=$4
runs=${VP_RUNS:-3}
mkdir -p "$out"

step() { echo "record-all: $label: $*" >&2; }
run() {	# run NAME EVENTS [RECORD-OPTIONS...] -- WORKLOAD ARGS...
	name=$1 events=$2
	shift 2
	step "$name ($events), $runs runs"
	rm -rf "$out/$name.runs"
	if ! "$vmprof" record --label "$label" -r "$runs" -o "$out/$name.runs" -e "$events" "$@" \
		>"$out/$name.out" 2>"$out/$name.err"; then
		cat "$out/$name.err" >&2
		echo "record-all: $label: recording $name failed" >&2
		exit 1
	fi
	k=1
	while [ $k -le "$runs" ]; do
		f=$out/$name.run-$k.data
		[ $k = 1 ] && f=$out/$name.data
		mv "$out/$name.runs/run-$k.data" "$f" || exit 1
		[ -s "$f" ] || { echo "record-all: $label: $f is empty" >&2; exit 1; }
		k=$((k + 1))
	done
	rmdir "$out/$name.runs"
}

# cpu-clock: the PAPI-V timing experiment, time per function.
run matmul cpu-clock -- "$bin/matmul" "${VP_MATMUL_N:-400}"
# Faults stand in for dTLB counters where no PMU exists.
run memwalk cpu-clock,page-faults,minor-faults -- "$bin/memwalk" "${VP_MEMWALK_MIB:-32}" "${VP_MEMWALK_ROUNDS:-2}"
# Two switches a round; cpu-clock shows where the kernel spends them.
run pingpong cpu-clock,context-switches -- "$bin/pingpong" "${VP_PINGPONG_ROUNDS:-5000}"
# Every read and write: its 'ret' is bytes, summed per function by report --weight ret.
run appio syscalls:sys_exit_read,syscalls:sys_exit_write -- "$bin/appio" "$out" "${VP_APPIO_SCALE:-200}"
step "done"
