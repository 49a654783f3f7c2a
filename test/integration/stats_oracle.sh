#!/usr/bin/env bash
# The statistics of lib/compare/stats (ratio of means and its interval, delta
# of shares and its interval, p, Benjamini-Hochberg q, the A/A floor) equal an
# independent implementation with scipy (test/stats_oracle.py) to 1e-9
# relative, on seeded generated events: rows absent in some runs or on a side,
# zero variance, one-run sides, unequal run counts. The driver is the build's
# own (ASan+UBSan under check-integration, optimised under -opt).
source "$(dirname "$0")/../lib.sh"
driver="$(dirname "$VMPROF")/test/drivers/stats_driver"
[ -x "$driver" ] || fail "no $driver (make builds it with check)"
# Debian's scipy is for Debian's python3; an interpreter earlier in PATH may lack it
py=
for p in python3 /usr/bin/python3; do
	if "$p" -c 'import numpy, scipy' 2>/dev/null; then py=$p; break; fi
done
[ -n "$py" ] || fail "no python3 with numpy and scipy (scripts/deps.sh installs them)"
for seed in 18 1995; do
	"$py" -W ignore "$TOP/test/stats_oracle.py" check-driver "$driver" --seed $seed --events 250 ||
		fail "statistics differ from the scipy oracle (seed $seed)"
done
