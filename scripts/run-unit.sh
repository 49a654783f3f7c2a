#!/usr/bin/env bash
# Run unit test binaries (cmocka); fail if any fails.
set -u
fail=0
for t in "$@"; do
	if out=$("$t" 2>&1); then
		printf 'PASS  unit %s\n' "${t##*/}"
	else
		printf 'FAIL  unit %s\n%s\n' "${t##*/}" "$out"
		fail=1
	fi
done
exit $fail
