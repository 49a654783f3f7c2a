#!/usr/bin/env python3
"""Write broken variants of a perf.data file into DIR, one per kind of damage,
and print "NAME<TAB>what the error must mention" for each.
Usage: make_bad_inputs.py GOOD.data DIR"""
import os
import struct
import sys

good, out = sys.argv[1], sys.argv[2]
data = open(good, "rb").read()
magic, hsize, attr_size = struct.unpack_from("<QQQ", data, 0)
attrs_off, attrs_size, data_off, data_size = struct.unpack_from("<QQQQ", data, 24)
assert magic == 0x32454C4946524550 and hsize == 104, "not a PERFILE2 file"


def put(name, blob, expect):
    with open(os.path.join(out, name), "wb") as f:
        f.write(blob)
    print(f"{name}\t{expect}")


put("empty.data", b"", "empty file")
put("magic.data", b"NOTPERF!" + data[8:], "bad magic")
put("header-cut.data", data[:50], "truncated in the file header")
put("attrs-cut.data", data[: attrs_off + attrs_size // 2], "truncated in the event attributes")
put("data-cut.data", data[: data_off + data_size // 2], "truncated")

b = bytearray(data)
struct.pack_into("<H", b, data_off + 6, 0)  # first record's size
put("record-size0.data", bytes(b), "record of size 0")

# A record whose size runs past the end of the data section.
b = bytearray(data)
off = data_off
last = None
while off < data_off + data_size:
    size = struct.unpack_from("<H", b, off + 6)[0]
    last, off = off, off + size
struct.pack_into("<H", b, last + 6, 0xFFF8)
put("record-too-big.data", bytes(b), "truncated record")

# An attr size perf never wrote (not a multiple of 8, and beyond the entry).
b = bytearray(data)
struct.pack_into("<I", b, attrs_off + 4, 4093)
put("attr-size.data", bytes(b), "attribute size")

b = bytearray(data)
struct.pack_into("<Q", b, 16, 12)
put("attr-entry.data", bytes(b), "attr entry size")

b = bytearray(data)
struct.pack_into("<Q", b, 8, 64)
put("header-size.data", bytes(b), "header size")
