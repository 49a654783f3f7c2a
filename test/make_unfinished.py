#!/usr/bin/env python3
"""Make the file a killed recorder leaves: header data size 0, no feature
sections, the data cut at CUT bytes into the data section (default: all of it).
Prints how many whole sample records (type 9) remain, counted independently.
Usage: make_unfinished.py GOOD.data OUT.data [CUT]"""
import struct
import sys

data = bytearray(open(sys.argv[1], "rb").read())
data_off, data_size = struct.unpack_from("<QQ", data, 40)
cut = int(sys.argv[3]) if len(sys.argv) > 3 else data_size
body = data[data_off:data_off + min(cut, data_size)]
struct.pack_into("<Q", data, 48, 0)            # data.size: never written
struct.pack_into("<32x", data, 72)             # adds_features: none
open(sys.argv[2], "wb").write(bytes(data[:data_off]) + bytes(body))

samples = off = 0
while off + 8 <= len(body):
    rtype, misc, size = struct.unpack_from("<IHH", body, off)
    if size < 8 or off + size > len(body):
        break
    samples += rtype == 9
    off += size
print(samples)
