#!/usr/bin/env bash
# The executable does not load libxml2 or cairo (their 25 libraries cost every
# run ~2-4 ms at start): what needs them is vmprof-formats.so, found next to
# the executable or, as make install lays it out, in ../lib/vmprof. Without
# the module a table from perf.data is the same; what needs it stops with a
# message naming it, exit 1, and nothing half-written; a broken module is
# named with the loader's reason.
source "$(dirname "$0")/../lib.sh"
F=$TOP/test/fixtures
S=(--symfs "$F/symfs" --kallsyms "$F/kallsyms")
cd "$WORK"

for exe in "$VMPROF" "$VMPROF_SAN"; do
	needed=$(readelf -d "$exe" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
	[ -n "$needed" ] || fail "readelf listed no libraries of $exe"
	! grep -E '^lib(xml2|cairo)' <<<"$needed" ||
		fail "$exe links libxml2 or cairo: $(tr '\n' ' ' <<<"$needed")"
	[ -f "$(dirname "$exe")/vmprof-formats.so" ] || fail "no vmprof-formats.so next to $exe"
done

# the table without the module: as with it, byte for byte
mkdir lone
cp "$VMPROF_SAN" lone/vmprof
"$VMPROF_SAN" report "${S[@]}" "$F/weights.data" > with.txt 2>/dev/null || fail "report"
lone/vmprof report "${S[@]}" "$F/weights.data" > without.txt 2>err || { cat err; fail "report without the module"; }
grep -q weights with.txt || fail "the table has no row of the workload (vacuous)"
cmp -s with.txt without.txt || fail "the table differs without the module"
"$VMPROF_SAN" report --format csv "${S[@]}" "$F/weights.data" > with.csv 2>/dev/null
lone/vmprof report --format csv "${S[@]}" "$F/weights.data" > without.csv 2>/dev/null ||
	fail "report --format csv without the module"
cmp -s with.csv without.csv || fail "the CSV differs without the module"

# what needs it: exit 1 naming it, before any output
missing() {
	grep -q "vmprof-formats.so" "$WORK/err" || fail "$1: the error does not name the module: $(cat "$WORK/err")"
	[ ! -s "$WORK/out" ] || fail "$1: wrote to standard output: $(head -3 "$WORK/out")"
}
expect_status 1 lone/vmprof report --format xml "${S[@]}" "$F/weights.data"
missing "report --format xml"
expect_status 1 lone/vmprof compare -o saved.xml "${S[@]}" "$F/weights.data" "$F/cxx.data"
missing compare
[ ! -e saved.xml ] || fail "compare without the module left saved.xml"
ls -a | grep -q 'saved.xml' && fail "compare without the module left a temporary file: $(ls -a)"
expect_status 1 lone/vmprof chart -o charts "${S[@]}" "$F/weights.data" "$F/cxx.data"
missing chart
[ ! -e charts ] || fail "chart without the module made charts/"
"$VMPROF_SAN" report --format xml "${S[@]}" "$F/weights.data" > w.xml 2>/dev/null || fail "report --format xml"
expect_status 1 lone/vmprof report w.xml
missing "report of an XML input"

# a module cut short, or not one: named with the reason, exit 1
for bad in cut text; do
	case $bad in
	cut) head -c 4096 "$(dirname "$VMPROF_SAN")/vmprof-formats.so" > lone/vmprof-formats.so ;;
	text) echo "not a library" > lone/vmprof-formats.so ;;
	esac
	expect_status 1 lone/vmprof compare -o saved.xml "${S[@]}" "$F/weights.data" "$F/cxx.data"
	grep -q "cannot load '.*lone/vmprof-formats.so'" err || fail "$bad module not named: $(cat err)"
	[ ! -e saved.xml ] || fail "compare with a $bad module left saved.xml"
done

# a module from another build, which calls a vp_ function this executable
# lacks: named at load, as the build's module binds its own references then
# (-z now) while its libraries bind lazily
for exe in "$VMPROF" "$VMPROF_SAN"; do
	readelf -d "$(dirname "$exe")/vmprof-formats.so" | grep -q 'FLAGS.*BIND_NOW' ||
		fail "$(dirname "$exe")/vmprof-formats.so is not linked -z now"
done
printf 'int vp_not_in_this_build(void);\nint vp_chart_entry(void) { return vp_not_in_this_build(); }\n' > other.c
cc -shared -fPIC -Wl,-z,now -o lone/vmprof-formats.so other.c || fail "cc of a module from another build"
expect_status 1 lone/vmprof compare -o saved.xml "${S[@]}" "$F/weights.data" "$F/cxx.data"
grep -q "cannot load '.*lone/vmprof-formats.so': .*undefined symbol: vp_not_in_this_build" err ||
	fail "a module from another build not named with its missing symbol: $(cat err)"
[ ! -e saved.xml ] || fail "compare with a module from another build left saved.xml"

# make install's layout: bin/vmprof finds lib/vmprof/vmprof-formats.so
# (from the optimised build, which make check builds: the rule's own)
make -s -C "$TOP" install PREFIX="$WORK/inst" BUILD="$BUILD" >/dev/null ||
	fail "make install PREFIX=$WORK/inst"
[ -f inst/lib/vmprof/vmprof-formats.so ] || fail "make install put no lib/vmprof/vmprof-formats.so"
inst/bin/vmprof compare --top 0 --format csv -o inst.xml "${S[@]}" "$F/weights.data" "$F/cxx.data" \
	> inst.csv 2>err || { cat err; fail "installed compare"; }
"$BUILD/vmprof" compare --top 0 --format csv -o build.xml "${S[@]}" "$F/weights.data" "$F/cxx.data" \
	> build.csv 2>/dev/null || fail "compare"
cmp -s inst.csv build.csv && cmp -s inst.xml build.xml || fail "the installed compare differs from the build's"
inst/bin/vmprof chart --format svg,png -o inst-charts inst.xml 2>err || { cat err; fail "installed chart"; }
ls inst-charts/*.svg inst-charts/*.png >/dev/null 2>&1 || fail "installed chart wrote no SVG and PNG: $(ls inst-charts)"
note "$(wc -l < "$WORK/with.txt") table lines alike without the module; install layout works"
