#!/usr/bin/env python3
"""Append N MMAP records to a pipe-mode perf.data, each one page, going
downwards through the address space of one process (so a sorted-array map
list would move every map at each insert), and write the result.
Usage: make_many_maps.py PIPE.data OUT.data N"""
import struct
import sys

src, out, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
data = open(src, "rb").read()
assert data[:8] == b"PERFILE2" and struct.unpack_from("<Q", data, 8)[0] == 16, "not a pipe file"
name = b"/nonexistent/libdecoy.so\0"
name += b"\0" * (-len(name) % 8)
PERF_RECORD_MMAP, MISC_USER = 1, 2
recs = []
for i in range(n):
    start = 0x100000000000 - i * 0x2000
    body = struct.pack("<IIQQQ", 4242, 4242, start, 0x1000, 0) + name
    recs.append(struct.pack("<IHH", PERF_RECORD_MMAP, MISC_USER, 8 + len(body)) + body)
with open(out, "wb") as f:
    f.write(data)
    f.write(b"".join(recs))
