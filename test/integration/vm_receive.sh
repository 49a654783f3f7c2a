#!/usr/bin/env bash
# The guest's files are only accepted when they arrived whole: receive.sh
# (the host side of the demo's data port) on a good stream and on streams
# damaged in every way it claims to catch; a rejected stream leaves nothing
# in the output directory.
source "$(dirname "$0")/../lib.sh"
recv=$TOP/examples/vm/receive.sh

# make_stream DIR: DIR/console and DIR/port as the guest writes them, from
# the files in DIR/files (MANIFEST made here unless already there).
make_stream() {
	local d=$1
	[ -f "$d/files/MANIFEST" ] || ( cd "$d/files" && sha256sum $(ls) > "$d/MANIFEST.tmp" && mv "$d/MANIFEST.tmp" MANIFEST )
	tar -C "$d/files" -czf "$d/out.tgz" .
	local size sum
	size=$(stat -c %s "$d/out.tgz"); sum=$(sha256sum "$d/out.tgz" | cut -d' ' -f1)
	{ echo "VMPROF-BEGIN $size $sum"; base64 "$d/out.tgz"; echo "VMPROF-END"; } > "$d/port"
	printf 'boot noise\r\nvmprof-guest: sending %s bytes over ttyS1\r\nvmprof-guest: done %s %s\r\n' "$size" "$size" "$sum" > "$d/console"
}
new_case() {	# new_case NAME: a fresh directory with two payload files
	local d=$WORK/$1
	mkdir -p "$d/files"
	head -c 200000 /dev/urandom > "$d/files/guest.data"
	printf 'iorw: write_blocks write 4096 bytes 1 calls\n' > "$d/files/iorw.out"
	echo "$d"
}
rejects() {	# rejects DIR MESSAGE: receive.sh fails saying MESSAGE, output untouched
	local d=$1 msg=$2
	expect_status 1 "$recv" "$d/console" "$d/port" "$d/out"
	grep -q -- "$msg" "$WORK/err" || fail "$(basename "$d"): want '$msg', got: $(cat "$WORK/err")"
	[ ! -e "$d/out" ] || [ -z "$(ls -A "$d/out")" ] || fail "$(basename "$d"): rejected files reached the output"
}

# A good stream arrives, byte for byte.
d=$(new_case good); make_stream "$d"
expect_status 0 "$recv" "$d/console" "$d/port" "$d/out"
cmp "$d/files/guest.data" "$d/out/guest.data" || fail "guest.data changed in transit"
cmp "$d/files/iorw.out" "$d/out/iorw.out" || fail "iorw.out changed in transit"
# A second run replaces what the first run's MANIFEST listed.
d2=$(new_case again); rm "$d2/files/iorw.out"; make_stream "$d2"
expect_status 0 "$recv" "$d2/console" "$d2/port" "$d/out"
[ ! -e "$d/out/iorw.out" ] || fail "a file of the earlier run survived"
cmp "$d2/files/guest.data" "$d/out/guest.data" || fail "the second run's guest.data"

d=$(new_case cut); make_stream "$d"; sed -i '$d' "$d/port"
rejects "$d" "cut short"
d=$(new_case truncated); make_stream "$d"; sed -i '3d' "$d/port"
rejects "$d" "received .* bytes, the guest sent\|does not decode\|checksum mismatch"
d=$(new_case flipped); make_stream "$d"
sed -i '5s/^\(.\)\(.\)/\2\1/' "$d/port"	# still base64, different bytes
[ "$(sed -n 5p "$d/port" | cut -c1)" != "$(sed -n 5p "$d/port" | cut -c2)" ] || sed -i '5s/^./A/;5s/^AA/BA/' "$d/port"
rejects "$d" "checksum mismatch"
d=$(new_case foreign); make_stream "$d"; sed -i '4s/^./\x01/' "$d/port"
rejects "$d" "foreign characters"
# the first digit of the console's checksum changed (to 0, or to 1 when it was 0:
# a fixed replacement left one stream in 16 undamaged)
d=$(new_case header); make_stream "$d"
sed -i -e 's/^vmprof-guest: done \([0-9]*\) 0/vmprof-guest: done \1 1/;t' \
	-e 's/^vmprof-guest: done \([0-9]*\) ./vmprof-guest: done \1 0/' "$d/console"
rejects "$d" "differs from the console"
d=$(new_case nodone); make_stream "$d"; sed -i '/vmprof-guest: done/d' "$d/console"
rejects "$d" "no 'done' line"
d=$(new_case failed); make_stream "$d"; echo "vmprof-guest: FAILED: record-all.sh" >> "$d/console"
rejects "$d" "the guest failed: record-all.sh"
d=$(new_case empty); make_stream "$d"; : > "$d/port"
rejects "$d" "nothing arrived"
d=$(new_case manifest); ( cd "$d/files" && sha256sum $(ls) > MANIFEST ); echo changed >> "$d/files/iorw.out"; make_stream "$d"
rejects "$d" "differ from the guest's MANIFEST"
d=$(new_case extra); ( cd "$d/files" && sha256sum $(ls) > MANIFEST ); echo x > "$d/files/stowaway"; make_stream "$d"
rejects "$d" "list different files"
echo "ok: a good stream arrives intact; 10 kinds of damage are refused"
