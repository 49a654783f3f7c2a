#!/usr/bin/env python3
"""Simulate the same kernel on another boot (KASLR): move every kernel
address in a perf.data file by DELTA - kernel sample IPs, the kernel map's
start and its pgoff (the _text address perf stores there).
Usage: shift_kernel.py IN.data OUT.data DELTA"""
import struct
import sys

SAMPLE, MMAP, MMAP2 = 9, 1, 10
IDENTIFIER, IP = 1 << 16, 1 << 0

data = bytearray(open(sys.argv[1], "rb").read())
delta = int(sys.argv[3], 0) % 2**64
attr_size, attrs_off = struct.unpack_from("<QQ", data, 16)
data_off, data_size = struct.unpack_from("<QQ", data, 40)
sample_type = struct.unpack_from("<Q", data, attrs_off + 24)[0]
assert sample_type & IP, "samples carry no IP"
ip_at = 8 + (8 if sample_type & IDENTIFIER else 0)

off, end, moved = data_off, data_off + data_size, 0
while off < end:
    rtype, misc, size = struct.unpack_from("<IHH", data, off)
    if rtype == SAMPLE and misc & 7 == 1:  # PERF_RECORD_MISC_KERNEL
        ip = struct.unpack_from("<Q", data, off + ip_at)[0]
        struct.pack_into("<Q", data, off + ip_at, (ip + delta) & (2**64 - 1))
        moved += 1
    elif rtype in (MMAP, MMAP2) and struct.unpack_from("<i", data, off + 8)[0] == -1:
        start, length, pgoff = struct.unpack_from("<QQQ", data, off + 16)
        name = data[off + (40 if rtype == MMAP else 72):off + size].split(b"\0")[0]
        if name.startswith(b"[kernel.kallsyms]"):
            struct.pack_into("<QQQ", data, off + 16, (start + delta) % 2**64, length, (pgoff + delta) % 2**64)
    off += size
open(sys.argv[2], "wb").write(data)
print(moved)
