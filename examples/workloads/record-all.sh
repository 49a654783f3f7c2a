#!/bin/sh
# Record every example workload with vmprof, the same way on the host and
# inside the guest (this script runs under bash and under busybox sh).
# Usage: record-all.sh VMPROF BINDIR OUTDIR LABEL
# Writes OUTDIR/NAME.data (the recording) and OUTDIR/NAME.out (what the
# workload printed: its own counts) for NAME in matmul memwalk pingpong appio.
# Every recording says where the command's time went (vmprof-record(1) Time):
# matmul computes, pingpong and appio wait.
# Sizes can be overridden through the environment (VP_MATMUL_N, ...).
set -eu
vmprof=$1 bin=$2 out=$3 label=$4
mkdir -p "$out"

step() { echo "record-all: $label: $*" >&2; }
run() {	# run NAME EVENTS [RECORD-OPTIONS...] -- WORKLOAD ARGS...
	name=$1 events=$2
	shift 2
	step "$name ($events)"
	if ! "$vmprof" record --label "$label" -o "$out/$name.data" -e "$events" "$@" \
		>"$out/$name.out" 2>"$out/$name.err"; then
		cat "$out/$name.err" >&2
		echo "record-all: $label: recording $name failed" >&2
		exit 1
	fi
	[ -s "$out/$name.data" ] || { echo "record-all: $label: $name.data is empty" >&2; exit 1; }
}

# cpu-clock: the PAPI-V timing experiment, time per function.
run matmul cpu-clock -- "$bin/matmul" "${VP_MATMUL_N:-400}"
# Faults stand in for dTLB counters where no PMU exists.
run memwalk cpu-clock,page-faults,minor-faults -- "$bin/memwalk" "${VP_MEMWALK_MIB:-32}" "${VP_MEMWALK_ROUNDS:-2}"
# Two switches a round; cpu-clock shows where the kernel spends them, and
# offcpu-time where each thread waits for the other.
run pingpong cpu-clock,context-switches --off-cpu -- "$bin/pingpong" "${VP_PINGPONG_ROUNDS:-5000}"
# Every read and write (--io): report --io counts them per function as appio
# does, and each exit's 'ret' is bytes, summed by report --weight ret.
run appio cpu-clock --io --off-cpu -- "$bin/appio" "$out" "${VP_APPIO_SCALE:-200}"
step "done"
