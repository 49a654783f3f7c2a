#!/usr/bin/env python3
"""Write a copy of a perf.data file recorded by vmprof (one that carries its
portable symbols) whose names are hostile to a web page: the portable symbols
w4, w2 and w1 renamed to markup and script, the host name and the hypervisor
too. The names travel inside the file, as a guest's would. Prints the new
names, one per line, symbols first (as the file maps w4, w2, w1).
Usage: make_hostile_names.py VMPROF-RECORDED.data OUT.data"""
import struct
import sys

SYMS = {
    b"w4": b"</script><script>alert(1)</script>",
    b"w2": b'"><img src=x onerror=alert(1)>',
    b"w1": b"vp::cmp<int&, 'q'>::f\"<b>bold</b>\"",
}
HOST = b"<img src=x onerror=alert(3)>"
HYPERVISOR = b"KVM<script>alert(4)</script>"
FEAT_HOSTNAME, FEAT_VMPROF_META, FEAT_VMPROF_SYMS = 3, 250, 251

b = open(sys.argv[1], "rb").read()
d_off, d_size = struct.unpack_from("<QQ", b, 40)
feats = int.from_bytes(b[72:104], "little")
bits = [bit for bit in range(256) if feats >> bit & 1]
sections = {}
for k, bit in enumerate(bits):
    so, ss = struct.unpack_from("<QQ", b, d_off + d_size + 16 * k)
    sections[bit] = b[so:so + ss]
assert FEAT_VMPROF_SYMS in sections and FEAT_HOSTNAME in sections, "not a vmprof recording"

lines = sections[FEAT_VMPROF_SYMS].rstrip(b"\0").split(b"\n")
done = set()
for i, line in enumerate(lines):
    f = line.split(b" ", 3)
    if len(f) == 4 and f[3] in SYMS and f[0] != b"dso":
        lines[i] = b" ".join(f[:3] + [SYMS[f[3]]])
        done.add(f[3])
assert done == set(SYMS), f"symbols not found: {set(SYMS) - done}"
sections[FEAT_VMPROF_SYMS] = b"\n".join(lines) + b"\0"
meta = sections[FEAT_VMPROF_META].rstrip(b"\0").split(b"\n")
meta = [b"hypervisor=" + HYPERVISOR if m.startswith(b"hypervisor=") else m for m in meta]
sections[FEAT_VMPROF_META] = b"\n".join(meta) + b"\0"
# perf's string: u32 length (NUL and padding to 64 bytes included), the bytes
s = HOST + b"\0" * (64 - len(HOST))
sections[FEAT_HOSTNAME] = struct.pack("<I", len(s)) + s

# the sections again after the data, offsets recomputed
at = d_off + d_size + 16 * len(bits)
table, blobs = bytearray(), bytearray()
for bit in bits:
    table += struct.pack("<QQ", at, len(sections[bit]))
    blobs += sections[bit]
    at += len(sections[bit])
open(sys.argv[2], "wb").write(b[:d_off + d_size] + bytes(table) + bytes(blobs))
for k in (b"w4", b"w2", b"w1"):
    print(SYMS[k].decode())
print(HOST.decode())
print(HYPERVISOR.decode())
