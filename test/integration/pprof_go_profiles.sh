#!/usr/bin/env bash
# Go's own CPU profiles into vmprof: a Go program of known weights, built
# here, profiles itself with runtime/pprof; vmprof report's samples and
# periods per function equal `go tool pprof -top`'s flat ones, gzipped or
# not; two such profiles compare, and the comparison agrees with
# `go tool pprof -diff_base` (raw and -normalize). Damaged and hostile
# profiles (cut, a gzip bomb) fail cleanly, naming the file.
source "$(dirname "$0")/../lib.sh"
command -v go >/dev/null || fail "go is not installed (make deps installs golang-go)"
# offline and self-contained: GOPATH mode, no module proxy, caches in $WORK
export HOME=$WORK GOCACHE=$WORK/gocache GOPATH=$WORK/gopath GO111MODULE=off GOPROXY=off GOFLAGS=
cd "$WORK"
go build -o go_weights "$TOP/test/workloads/go_weights.go" || fail "cannot build the Go workload"
# host: h1 h2 h4 five times each (1:2:4); guest: h1 three times as often
./go_weights host.pb.gz 40000000 5 5 5 || fail "go_weights failed"
./go_weights guest.pb.gz 40000000 15 5 5 || fail "go_weights failed"
TOPFLAGS=(-top -nodecount=1000000 -nodefraction=0 -edgefraction=0)

for side in host guest; do
	go tool pprof "${TOPFLAGS[@]}" -sample_index=samples $side.pb.gz > $side.top 2>/dev/null ||
		fail "go tool pprof cannot read $side.pb.gz"
	go tool pprof "${TOPFLAGS[@]}" -sample_index=cpu -unit=ns $side.pb.gz > $side.ns.top 2>/dev/null
	"$VMPROF" report --format csv --top 0 $side.pb.gz > $side.csv 2>$side.err ||
		{ cat $side.err; fail "vmprof report cannot read $side.pb.gz"; }
	python3 "$TOP/test/pprof_agree.py" flat $side.top --vmprof $side.csv ||
		fail "$side: samples per function differ from go tool pprof's"
	python3 "$TOP/test/pprof_agree.py" flat $side.ns.top --vmprof $side.csv --value period ||
		fail "$side: cpu time per function differs from go tool pprof's"
	# the same profile uncompressed
	gunzip -c $side.pb.gz > $side.pb
	"$VMPROF" report --format csv --top 0 $side.pb | cmp -s - $side.csv ||
		fail "$side: the uncompressed profile reads differently"
done
head -1 host.csv | grep -q '^event,' || fail "no CSV header"
grep -q '^"cpu",' host.csv || fail "the table is not named after the profile's period type (cpu)"

# the workload's known weights (1:2:4) show, so the agreement is not vacuous
samples() { awk -F, -v f="\"$2\"" '$2 == f { gsub(/"/, "", $5); s += $5 } END { print s + 0 }' "$1"; }
h1=$(samples host.csv main.h1) h2=$(samples host.csv main.h2) h4=$(samples host.csv main.h4)
total=$(awk -F, 'NR > 1 { gsub(/"/, "", $5); s += $5 } END { print s }' host.csv)
note "host: h1 $h1, h2 $h2, h4 $h4 of $total samples"
[ "$h1" -gt 0 ] && [ "$h1" -lt "$h2" ] && [ "$h2" -lt "$h4" ] || fail "weights 1:2:4 not seen: $h1 $h2 $h4"
[ $((h1 + h2 + h4)) -ge $((total * 8 / 10)) ] || fail "h1+h2+h4 under 80% of the samples"

# two Go profiles compare; pprof's diff of the same two agrees
"$VMPROF" compare --format csv --top 0 --value samples -o cmp.xml host.pb.gz guest.pb.gz > cmp.csv 2>cmp.err ||
	{ cat cmp.err; fail "vmprof compare of two Go profiles failed"; }
go tool pprof "${TOPFLAGS[@]}" -sample_index=samples -diff_base host.pb.gz guest.pb.gz > diff.top 2>/dev/null
python3 "$TOP/test/pprof_agree.py" diff diff.top --compare cmp.csv ||
	fail "compare's guest - host samples differ from go tool pprof -diff_base"
go tool pprof "${TOPFLAGS[@]}" -sample_index=samples -normalize -diff_base host.pb.gz guest.pb.gz \
	> ndiff.top 2>/dev/null
go tool pprof -raw guest.pb.gz > guest.raw 2>/dev/null
python3 "$TOP/test/pprof_agree.py" diff ndiff.top --compare cmp.csv --normalized guest.raw ||
	fail "compare's deltas differ from go tool pprof -normalize -diff_base"
g1=$(awk -F, '$2 == "\"main.h1\"" { gsub(/"/, "", $8); print $8 }' cmp.csv)
note "h1: host $h1, guest $g1 samples (runs 3x as often)"
[ "$g1" -ge $((2 * h1)) ] && [ "$g1" -le $((5 * h1)) ] || fail "guest's h1 is not about 3x the host's"

# damaged and hostile profiles: exit 1, the file named
head -c 300 host.pb.gz > cut.pb.gz
expect_status 1 "$VMPROF_SAN" report cut.pb.gz
grep -q "'cut.pb.gz': truncated gzip data" "$WORK/err" || fail "cut gzip: $(cat "$WORK/err")"
head -c 200 host.pb > cut.pb
expect_status 1 "$VMPROF_SAN" report cut.pb
grep -q "'cut.pb':" "$WORK/err" || fail "cut protobuf: $(cat "$WORK/err")"
expect_status 1 "$VMPROF_SAN" compare -o x.xml host.pb.gz cut.pb.gz
grep -q "'cut.pb.gz'" "$WORK/err" || fail "compare with a cut side: $(cat "$WORK/err")"
# a real profile's head, then one 300 MiB string: 300 KB on disk
python3 - host.pb bomb.pb.gz <<'EOF'
import sys, zlib
head = open(sys.argv[1], "rb").read()
n = 300 << 20
varint = bytearray()
while n >= 0x80:
    varint.append(n & 0x7f | 0x80)
    n >>= 7
varint.append(n)
z = zlib.compressobj(9, zlib.DEFLATED, 31)
with open(sys.argv[2], "wb") as f:
    f.write(z.compress(head + b"\x32" + bytes(varint)))
    block = b"a" * (1 << 20)
    for _ in range(300):
        f.write(z.compress(block))
    f.write(z.flush())
EOF
[ "$(stat -c %s bomb.pb.gz)" -lt 1000000 ] || fail "the bomb is not small"
expect_status 1 "$VMPROF_SAN" report bomb.pb.gz
grep -q "'bomb.pb.gz': decompresses to more than 256 MiB" "$WORK/err" || fail "gzip bomb: $(cat "$WORK/err")"
echo "ok"
