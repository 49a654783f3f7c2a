#!/usr/bin/env python3
"""Build a big perf.data from a recorded one: the data section repeated N
times, each copy's timestamps moved past the previous copy's, so the result
is what a recording N times as long would look like (same code, same
symbols, N times the samples). Feature sections are copied after the data.
N below 1 keeps the records up to the first FINISHED_ROUND past that part
of the data section: a recording stopped early.
Usage: perfdata-repeat.py IN.data OUT.data N"""
import struct
import sys

SAMPLE = 9
ST = {"IDENTIFIER": 1 << 16, "IP": 1, "TID": 2, "TIME": 4, "ADDR": 8, "ID": 64,
      "STREAM_ID": 512, "CPU": 128}

FINISHED_ROUND = 3
src, dst, part = sys.argv[1], sys.argv[2], float(sys.argv[3])
n = max(1, int(part))
data = open(src, "rb").read()
hdr = bytearray(data[:104])
attr_size, attrs_off = struct.unpack_from("<QQ", hdr, 16)
data_off, data_size = struct.unpack_from("<QQ", hdr, 40)
st = struct.unpack_from("<Q", data, attrs_off + 24)[0]
flags = struct.unpack_from("<Q", data, attrs_off + 40)[0]
sample_id_all = bool(flags >> 18 & 1)
assert st & ST["TIME"], "samples carry no time"
# TIME's position in a sample, and from the end of other records' trailer.
t_sample = 8 + 8 * sum(bool(st & ST[k]) for k in ("IDENTIFIER", "IP", "TID"))
t_trailer = 8 * (1 + sum(bool(st & ST[k]) for k in ("ID", "STREAM_ID", "CPU", "IDENTIFIER")))

body = data[data_off:data_off + data_size]
spots, first, last, off = [], None, 0, 0
while off < len(body):
    rtype, misc, size = struct.unpack_from("<IHH", body, off)
    if size < 8:
        raise SystemExit(f"{src}: bad record at {data_off + off}")
    at = None
    if rtype == SAMPLE:
        at = off + t_sample
    elif rtype < 64 and sample_id_all:
        at = off + size - t_trailer
    if at is not None:
        t = struct.unpack_from("<Q", body, at)[0]
        if t:
            spots.append(at)
            first = t if first is None else min(first, t)
            last = max(last, t)
    off += size
span = last - (first or 0) + 1000

feats = data[data_off + data_size:]
if part < 1:
    off = 0
    while off < len(body):
        rtype, misc, size = struct.unpack_from("<IHH", body, off)
        off += size
        if rtype == FINISHED_ROUND and off >= part * len(body):
            break
    body = body[:off]
    spots = [at for at in spots if at < off]
with open(dst, "wb") as out:
    grown = len(body) * n
    struct.pack_into("<Q", hdr, 48, grown)
    out.write(hdr)
    out.write(data[104:data_off])
    copy = bytearray(body)
    for k in range(n):
        if k:
            for at in spots:
                struct.pack_into("<Q", copy, at, struct.unpack_from("<Q", copy, at)[0] + span)
        out.write(copy)
    # Feature sections move by the added data; rewrite their offsets.
    nfeat = sum(bin(b).count("1") for b in struct.unpack_from("<4Q", hdr, 72))
    table = bytearray(feats[:16 * nfeat])
    for i in range(nfeat):
        o, s = struct.unpack_from("<QQ", table, 16 * i)
        struct.pack_into("<QQ", table, 16 * i, o + grown - data_size, s)
    out.write(table)
    out.write(feats[16 * nfeat:])
