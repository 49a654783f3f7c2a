#!/usr/bin/env bash
# vmprof chart HOST GUEST builds its comparison as vmprof compare does: with
# each option that shapes a comparison (--key, --sort, --value, --labels, -e,
# the symbol sources, --guest-file-kallsyms, --guest-file-symfs), its SVG and
# PNG files are byte for byte those drawn from `vmprof compare ... -o X.xml`.
# The guest's own symbol sources take effect (names only they resolve are
# drawn) and -e keeps its events only.
source "$(dirname "$0")/../lib.sh"
F=$TOP/test/fixtures
S=(--symfs "$F/symfs" --kallsyms "$F/kallsyms")
cd "$WORK"

n=0
same() {	# same HOST GUEST OPTION...: chart HOST GUEST == chart of compare's saved file
	local host=$1 guest=$2 f
	shift 2
	n=$((n + 1))
	"$VMPROF" compare "$@" -o "cmp$n.xml" "$host" "$guest" >/dev/null 2>err ||
		{ cat err; fail "compare $*"; }
	"$VMPROF" chart --format svg,png -o "saved$n" "cmp$n.xml" 2>err || { cat err; fail "chart cmp$n.xml"; }
	"$VMPROF_SAN" chart "$@" --format svg,png -o "two$n" "$host" "$guest" 2>err ||
		{ cat err; fail "chart $* HOST GUEST"; }
	[ -n "$(ls "saved$n")" ] || fail "compare $*: nothing drawn"
	expect_eq "chart $*: files" "$(ls "two$n")" "$(ls "saved$n")"
	for f in "saved$n"/*; do
		cmp -s "$f" "two$n/${f##*/}" || fail "chart $* HOST GUEST: ${f##*/} differs from the saved comparison's"
	done
}

same "$F/weights.data" "$F/cxx.data" "${S[@]}"
same "$F/weights.data" "$F/callchain.data" "${S[@]}" --key sym,dso,domain --sort ratio
same "$F/multi.data" "$F/multi.data" "${S[@]}" -e task-clock,page-faults --value samples \
	--labels bare,vm --sort absdelta
expect_eq "-e keeps its events" "$(ls two3 | sed 's/-[a-z]*\.[a-z]*$//' | sort -u | tr '\n' ' ')" \
	"page-faults task-clock "
grep -q '>bare<\|bare' two3/task-clock-bar.svg || fail "--labels not drawn"

# the host's symfs finds nothing, the guest input's own finds the workload:
# its functions are drawn, on the guest side only
same "$F/weights.data" "$F/callchain.data" --symfs "$WORK/none" --kallsyms "$F/kallsyms" \
	--guest-file-symfs "$F/symfs" --guest-file-kallsyms "$F/kallsyms" --key sym,dso
grep -q 'w1' two4/cpu-clock-bar.svg || fail "--guest-file-symfs not used: no w1 in the chart"
"$VMPROF" compare --symfs "$WORK/none" --kallsyms "$F/kallsyms" --guest-file-symfs "$F/symfs" \
	--top 0 --format csv -o x.xml "$F/weights.data" "$F/callchain.data" > cmp.csv 2>/dev/null
python3 - cmp.csv <<'PY' || fail "w1 is not a guest-only row"
import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["symbol"] == "w1"]
assert rows and all(int(r["host_samples"]) == 0 and int(r["guest_samples"]) > 0 for r in rows), rows
PY

# the same failures as compare: an event neither side has, exit 1 naming it
expect_status 1 "$VMPROF_SAN" chart "${S[@]}" -e nosuch -o none "$F/weights.data" "$F/cxx.data"
grep -q "no event 'nosuch'" "$WORK/err" || fail "missing event not named: $(cat "$WORK/err")"
[ ! -e none ] || fail "charts written for a failed comparison"
expect_status 2 "$VMPROF" chart --key nosuch "$F/weights.data" "$F/cxx.data"
echo ok
