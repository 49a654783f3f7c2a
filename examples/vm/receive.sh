#!/usr/bin/env bash
# Receive the guest's files from its data port and check them.
# Usage: receive.sh CONSOLE_LOG DATA_PORT_FILE OUTDIR
# The console says "vmprof-guest: done SIZE SHA256" once the guest has sent
# everything; the data port holds "VMPROF-BEGIN SIZE SHA256", the gzip'ed tar
# in base64, "VMPROF-END". Size and checksum must agree on both channels and
# with what arrived, and every file must match the guest's own sha256
# MANIFEST; only then do the files go to OUTDIR (replacing those a previous
# run's MANIFEST listed). Exits 1 with the reason otherwise.
set -euo pipefail
console=${1:?usage: receive.sh CONSOLE_LOG DATA_PORT_FILE OUTDIR} port=${2:?data port file} out=${3:?outdir}
die() { echo "vm: $*" >&2; exit 1; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/vmprof-receive.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
tr -d '\r' < "$console" > "$tmp/console"
grep -q '^vmprof-guest: FAILED' "$tmp/console" &&
	die "the guest failed: $(grep -m1 '^vmprof-guest: FAILED' "$tmp/console" | sed 's/^vmprof-guest: FAILED: //')"
done_line=$(grep -m1 '^vmprof-guest: done ' "$tmp/console" || true)
[ -n "$done_line" ] || die "the guest stopped without finishing (no 'done' line); console log: $console"
read -r _ _ csize csum _ <<<"$done_line"

[ -s "$port" ] || die "nothing arrived on the data port"
tr -d '\r' < "$port" > "$tmp/data"
tag= size= sum=
read -r tag size sum _ < "$tmp/data" || true
[ "$tag" = VMPROF-BEGIN ] || die "the data port does not start with VMPROF-BEGIN"
[[ "$size" =~ ^[0-9]+$ && "$sum" =~ ^[0-9a-f]{64}$ ]] || die "the data port header is malformed: '$(head -n 1 "$tmp/data")'"
[ "$size" = "$csize" ] && [ "$sum" = "$csum" ] ||
	die "the data port header ($size $sum) differs from the console's ($csize $csum)"
[ "$(grep -cx VMPROF-END "$tmp/data")" = 1 ] || die "the data port stream is cut short (no VMPROF-END)"
sed -n '2,/^VMPROF-END$/p' "$tmp/data" | sed '$d' > "$tmp/body"
# Only the base64 alphabet: a stray byte is damage, not something to skip.
if LC_ALL=C grep -q '[^A-Za-z0-9+/=]' "$tmp/body"; then
	die "the data port's base64 holds foreign characters (damaged in transit)"
fi
base64 -d < "$tmp/body" > "$tmp/out.tgz" 2>/dev/null || die "the data port's base64 does not decode"
got_size=$(stat -c %s "$tmp/out.tgz")
got_sum=$(sha256sum "$tmp/out.tgz" | cut -d' ' -f1)
[ "$got_size" = "$size" ] || die "received $got_size bytes, the guest sent $size"
[ "$got_sum" = "$sum" ] || die "checksum mismatch: received $got_sum, the guest sent $sum"
mkdir -p "$tmp/files"
tar -C "$tmp/files" -xzf "$tmp/out.tgz" || die "the guest's tar does not unpack"
[ -s "$tmp/files/MANIFEST" ] || die "the guest's tar has no MANIFEST"
# Names are plain file names (no paths) and exactly the files present.
awk '{ print $2 }' "$tmp/files/MANIFEST" | grep -q '/' && die "the MANIFEST names paths, not plain files"
diff <(awk '{ print $2 }' "$tmp/files/MANIFEST" | LC_ALL=C sort) \
	<(cd "$tmp/files" && ls -A | grep -vx MANIFEST | LC_ALL=C sort) >/dev/null ||
	die "the guest's tar and its MANIFEST list different files"
( cd "$tmp/files" && sha256sum -c --quiet --strict MANIFEST ) >&2 || die "files differ from the guest's MANIFEST"

# Everything checked: the files take their place.
mkdir -p "$out"
if [ -s "$out/MANIFEST" ]; then
	awk '{ print $2 }' "$out/MANIFEST" | grep -v / | while read -r f; do rm -f "$out/$f"; done
fi
for f in "$tmp"/files/*; do
	[ "$(basename "$f")" = MANIFEST ] || mv -f "$f" "$out/"
done
mv -f "$tmp/files/MANIFEST" "$out/MANIFEST"
echo "vm: received $size bytes from the guest; $(wc -l < "$out/MANIFEST") files checked against its sha256 manifest, in $out" >&2
