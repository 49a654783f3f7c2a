#!/usr/bin/env bash
# Damaged perf.data files: each gives "vmprof report: 'FILE': <what>" and exit 1,
# never a crash or a hang (run under ASan+UBSan too).
source "$(dirname "$0")/../lib.sh"

mkdir -p "$WORK/bad"
python3 "$TOP/test/make_bad_inputs.py" "$TOP/test/fixtures/weights.data" "$WORK/bad" > "$WORK/cases"
n=0
while IFS=$'\t' read -r name expect; do
	for bin in "$VMPROF" "$VMPROF_SAN"; do
		f="$WORK/bad/$name"
		set +e
		timeout 20 "$bin" report "$f" >"$WORK/out" 2>"$WORK/err"
		rc=$?
		set -e
		[ "$rc" -eq 1 ] || { cat "$WORK/err"; fail "$name: exit $rc, want 1"; }
		grep -q "^vmprof report: '$f': .*$expect" "$WORK/err" ||
			{ cat "$WORK/err"; fail "$name: stderr does not say '$expect'"; }
		! grep -q "AddressSanitizer\|runtime error" "$WORK/err" || fail "$name: sanitizer report"
		[ ! -s "$WORK/out" ] || fail "$name: printed a table for a broken file"
	done
	n=$((n + 1))
done < "$WORK/cases"
[ "$n" -ge 10 ] || fail "only $n cases were generated"

# A missing file and a directory are clear errors too.
expect_status 1 "$VMPROF" report "$WORK/none.data"
grep -q "'$WORK/none.data': .*No such file" "$WORK/err" || fail "missing file message"
expect_status 1 "$VMPROF" report "$WORK"
grep -q "is a directory" "$WORK/err" || fail "directory message"
# Usage errors are status 2.
expect_status 2 "$VMPROF" report --top x "$TOP/test/fixtures/weights.data"
expect_status 2 "$VMPROF" report --bogus
echo "ok: $n damaged files rejected cleanly"
