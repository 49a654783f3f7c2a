#!/usr/bin/env bash
# A hostile map count: a million one-page maps arriving downwards (each one
# lands in front of all the others). The map list must take it in
# O(log n) per map: a sorted array took ~11 s for 200,000 and minutes for
# a million. The decoys belong to another process, so the table must be
# exactly the one of the file without them.
source "$(dirname "$0")/../lib.sh"

python3 "$TOP/test/make_many_maps.py" "$TOP/test/fixtures/pipe.data" "$WORK/many.data" 1000000
"$VMPROF" report --sort dso,sym "$TOP/test/fixtures/pipe.data" | tail -n +2 > "$WORK/plain.txt"
for bin in "$VMPROF" "$VMPROF_SAN"; do
	set +e
	timeout 120 "$bin" report --sort dso,sym "$WORK/many.data" > "$WORK/many.txt" 2> "$WORK/err"
	rc=$?
	set -e
	[ "$rc" -eq 0 ] || { cat "$WORK/err"; fail "$bin: exit $rc with a million maps (124: timed out)"; }
	! grep -q "AddressSanitizer\|runtime error" "$WORK/err" || fail "sanitizer report"
	tail -n +2 "$WORK/many.txt" | diff -u "$WORK/plain.txt" - || fail "the decoy maps changed the table"
done
echo "ok: a million maps downwards, same table"
