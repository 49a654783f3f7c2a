#!/usr/bin/env bash
# Recordings are private (mode 0600, as perf writes them: they hold kernel
# addresses that kptr_restrict hides from other users), while the recorder
# runs (FILE.partial) and once done, whatever the umask; every other output
# (comparisons, tables, charts) keeps the umask.
source "$(dirname "$0")/../lib.sh"
cd "$WORK"
F=$TOP/test/fixtures
gcc -O1 -o hold -x c - <<'C'
/* Says it runs (a line on fd 3), then waits for a line on stdin. */
#include <stdio.h>
#include <unistd.h>
int main(void) { char c; if (write(3, "r\n", 2) != 2) return 1; return read(0, &c, 1) < 0; }
C
mkfifo ready go

umask 022
: > r.data && chmod 644 r.data	# an older recording of another mode is replaced
exec 4<>go	# read-write: opening it blocks neither side
"$VMPROF_SAN" record -e cpu-clock -o r.data -- ./hold 3>ready <go >/dev/null 2>err &
rec=$!
read -r line < ready	# the command runs: the recorder is past its header
expect_eq "mode of r.data.partial while recording" "$(stat -c %a r.data.partial)" 600
echo >&4
exec 4>&-
wait "$rec" || { cat err; fail "record failed"; }
expect_eq "mode of r.data" "$(stat -c %a r.data)" 600
expect_eq "mode of the older recording, kept as r.data.old" "$(stat -c %a r.data.old)" 644

umask 000
"$VMPROF_SAN" record -e cpu-clock -o open.data -- true 2>/dev/null || fail "record failed"
expect_eq "mode of a recording under umask 000" "$(stat -c %a open.data)" 600

# other outputs follow the umask
S=(--symfs "$F/symfs" --kallsyms "$F/kallsyms")
for mask in 022 027; do
	umask $mask
	want=$(printf '%o' $((0666 & ~0$mask)))
	rm -rf cmp.xml charts tables
	"$VMPROF" compare "${S[@]}" -o cmp.xml "$F/weights.data" "$F/cxx.data" >/dev/null 2>&1 ||
		fail "compare failed"
	"$VMPROF" chart --format svg cmp.xml 2>/dev/null || fail "chart failed"
	"$VMPROF" report "${S[@]}" --split tables "$F/multi.data" >/dev/null 2>&1 || fail "report --split failed"
	for f in cmp.xml charts/cpu-clock-bar.svg tables/cpu-clock.csv; do
		expect_eq "mode of $f under umask $mask" "$(stat -c %a "$f")" "$want"
	done
done
echo ok
