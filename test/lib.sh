# Shared helpers for integration tests (sourced). Each test runs in its own
# temporary directory, removed on exit.
set -euo pipefail
TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
VMPROF=${VMPROF:-$TOP/build/vmprof}
VMPROF_SAN=${VMPROF_SAN:-$VMPROF}
BUILD=${BUILD:-$TOP/build}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/vmprof-test.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
export NO_COLOR=1 LC_ALL=C

fail() { echo "FAIL: $*" >&2; exit 1; }
skip() { echo "$*"; exit 77; }
note() { echo "# $*"; }
# expect_eq WHAT GOT WANT
expect_eq() { [ "$2" == "$3" ] || fail "$1: got '$2', want '$3'"; }
# expect_fail STATUS CMD...: runs CMD, wants exit STATUS, stderr in $WORK/err
expect_status() {
	local want=$1; shift
	set +e; "$@" >"$WORK/out" 2>"$WORK/err"; local got=$?; set -e
	[ "$got" -eq "$want" ] || { cat "$WORK/err" >&2; fail "'$*' exited $got, want $want"; }
}
# need_tracefs SYSTEM: the tracepoints of SYSTEM (sched, syscalls), tracefs
# mounted where perf mounts it when it is not
need_tracefs() {
	[ -d "/sys/kernel/tracing/events/$1" ] || mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null || true
	[ -d "/sys/kernel/tracing/events/$1" ] || skip "no $1 tracepoints (tracefs)"
}
need_perf() {
	command -v perf >/dev/null || skip "perf is not installed"
	perf record -o "$WORK/.probe.data" -e cpu-clock -- true >/dev/null 2>&1 ||
		skip "perf cannot record here (perf_event_paranoid=$(cat /proc/sys/kernel/perf_event_paranoid))"
	rm -f "$WORK/.probe.data"
}
# py_with MODULE...: print a python3 that imports them all, or fail (Debian's
# modules are for Debian's /usr/bin/python3; one earlier in PATH may lack them)
py_with() {
	local p mods
	mods=$(IFS=,; echo "$*")
	for p in python3 /usr/bin/python3; do
		if "$p" -c "import $mods" 2>/dev/null; then echo "$p"; return 0; fi
	done
	return 1
}
