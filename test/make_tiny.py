#!/usr/bin/env python3
"""Cut a perf.data down to a small file perf still reads: the header, attrs and
ids as they are, the first records of the data section up to KEEP bytes (whole
records), and only a few small feature sections (osrelease, nrcpus, event_desc).
Prints how many sample records it kept.
Usage: make_tiny.py GOOD.data OUT.data [KEEP]"""
import struct
import sys

FEATS = {3, 6, 12}
b = open(sys.argv[1], "rb").read()
keep = int(sys.argv[3]) if len(sys.argv) > 3 else 1024
d_off, d_size = struct.unpack_from("<QQ", b, 40)
feats = int.from_bytes(b[72:104], "little")
sections, k = {}, 0
for bit in range(256):
    if feats >> bit & 1:
        sections[bit] = struct.unpack_from("<QQ", b, d_off + d_size + 16 * k)
        k += 1

off = d_off
samples = 0
while off + 8 <= d_off + d_size:
    rtype, misc, size = struct.unpack_from("<IHH", b, off)
    if size < 8 or off + size - d_off > keep:
        break
    samples += rtype == 9
    off += size
new_size = off - d_off
bits = sorted(bit for bit in sections if bit in FEATS)
head = bytearray(b[:d_off])
struct.pack_into("<QQ", head, 40, d_off, new_size)
head[72:104] = sum(1 << bit for bit in bits).to_bytes(32, "little")
at = d_off + new_size + 16 * len(bits)
table, blobs = bytearray(), bytearray()
for bit in bits:
    so, ss = sections[bit]
    table += struct.pack("<QQ", at, ss)
    blobs += b[so:so + ss]
    at += ss
open(sys.argv[2], "wb").write(bytes(head) + b[d_off:off] + bytes(table) + bytes(blobs))
print(samples)
