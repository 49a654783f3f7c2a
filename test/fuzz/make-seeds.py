#!/usr/bin/env python3
"""Build the fuzz seeds that are not plain fixture files.

perfdata/tracepoints-small.data: test/fixtures/tracepoints.data cut to its first
records, with its tracing data trimmed to the formats its samples use (the
original is 330 KB, mostly formats and kallsyms text).
tracedata/: the tracing data section of test/fixtures/tracepoints.data followed by
raw tracepoint payloads taken from that file's samples, in fuzz_tracedata's
input layout (u32 length, tracing data, then u16 length + payload per sample).
Usage: test/fuzz/make-seeds.py  (writes under test/fuzz/corpus/)
"""
import os
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(HERE))
FEAT_TRACING_DATA = 1

# perf_event_attr.sample_type bits
IP, TID, TIME, ADDR, READ, CALLCHAIN, ID, CPU, PERIOD, STREAM_ID, RAW = (
    1 << 0, 1 << 1, 1 << 2, 1 << 3, 1 << 4, 1 << 5, 1 << 6, 1 << 7, 1 << 8, 1 << 9, 1 << 10)
IDENTIFIER = 1 << 16


def read_perfdata(path):
    b = open(path, 'rb').read()
    magic, hsize, attr_size = struct.unpack_from('<8sQQ', b, 0)
    assert magic == b'PERFILE2' and hsize == 104, path
    a_off, a_size, d_off, d_size = struct.unpack_from('<QQQQ', b, 24)
    feats = int.from_bytes(b[72:104], 'little')
    sample_types = [struct.unpack_from('<Q', b, a_off + i * attr_size + 24)[0]
                    for i in range(a_size // attr_size)]
    # feature sections follow the data, one (offset, size) per set bit in bit order
    sections, k = {}, 0
    for bit in range(256):
        if feats >> bit & 1:
            sections[bit] = struct.unpack_from('<QQ', b, d_off + d_size + 16 * k)
            k += 1
    return b, sample_types, (d_off, d_size), sections


def raw_payloads(b, st, data):
    # every event of the fixture has the same sample_type (perf requires it for ids)
    off, end = data[0], data[0] + data[1]
    while off + 8 <= end:
        typ, misc, size = struct.unpack_from('<IHH', b, off)
        if size < 8:
            break
        if typ == 9:
            p = off + 8
            for bit in (IDENTIFIER, IP, TID, TIME, ADDR, ID, STREAM_ID, CPU, PERIOD):
                if st & bit:
                    p += 8
            assert not st & READ
            if st & CALLCHAIN:
                nr, = struct.unpack_from('<Q', b, p)
                p += 8 + 8 * nr
            if st & RAW:
                rs, = struct.unpack_from('<I', b, p)
                yield b[p + 4:p + 4 + rs]
        off += size


def main():
    b, sts, data, sections = read_perfdata(os.path.join(TOP, 'test/fixtures/tracepoints.data'))
    toff, tsize = sections[FEAT_TRACING_DATA]
    td = b[toff:toff + tsize]
    seen, raws = set(), []
    for raw in raw_payloads(b, sts[0], data):
        key = raw[:2]	# common_type: one payload per event kind
        if key not in seen:
            seen.add(key)
            raws.append(raw)
    out = os.path.join(HERE, 'corpus/tracedata')
    os.makedirs(out, exist_ok=True)
    # the tracing data of the fixture holds every format on the machine: keep only
    # the systems the samples use, so the seed stays small
    small = trim_tracing_data(td, {'sched', 'syscalls'}, raws)
    for i, raw in enumerate(raws):
        with open(os.path.join(out, 'tracepoints-%d' % i), 'wb') as f:
            f.write(struct.pack('<I', len(small)) + small + struct.pack('<H', len(raw)) + raw)
    print('%d seeds of %d bytes of tracing data' % (len(raws), len(small)), file=sys.stderr)
    small_perfdata(b, data, sections, small, os.path.join(HERE, 'corpus/perfdata/tracepoints-small.data'))


def small_perfdata(b, data, sections, tracing, out, keep=48 * 1024):
    """The same file with a shorter data section and new tracing data."""
    d_off, d_size = data
    off, end = d_off, d_off + d_size
    while off + 8 <= end:
        size, = struct.unpack_from('<H', b, off + 6)
        if off + size - d_off > keep:
            break
        off += size
    new_size = off - d_off
    head = bytearray(b[:d_off])
    struct.pack_into('<QQ', head, 40, d_off, new_size)
    body = b[d_off:off]
    bits = sorted(sections)
    table_at = d_off + new_size
    at = table_at + 16 * len(bits)
    table, blobs = bytearray(), bytearray()
    for bit in bits:
        so, ss = sections[bit]
        blob = tracing if bit == FEAT_TRACING_DATA else b[so:so + ss]
        table += struct.pack('<QQ', at, len(blob))
        blobs += blob
        at += len(blob)
    with open(out, 'wb') as f:
        f.write(bytes(head) + body + bytes(table) + bytes(blobs))


def trim_tracing_data(td, systems, raws):
    """Keep the header, ftrace formats, and only the formats of the sampled events."""
    ids = {struct.unpack_from('<H', r, 0)[0] for r in raws}
    p = 10
    end = td.index(b'\0', p) + 1
    p = end + 2 + 4		# version string, endian, long size, page size
    out = bytearray(td[:p])
    for _ in range(2):	# header_page, header_event: name, u64 size, blob
        e = td.index(b'\0', p) + 1
        n, = struct.unpack_from('<Q', td, e)
        out += td[p:e + 8 + n]
        p = e + 8 + n
    n, = struct.unpack_from('<I', td, p)	# ftrace formats: dropped
    p += 4
    for _ in range(n):
        s, = struct.unpack_from('<Q', td, p)
        p += 8 + s
    out += struct.pack('<I', 0)
    nsys, = struct.unpack_from('<I', td, p)
    p += 4
    kept = []
    for _ in range(nsys):
        e = td.index(b'\0', p) + 1
        name = td[p:e - 1].decode()
        p = e
        cnt, = struct.unpack_from('<I', td, p)
        p += 4
        fmts = []
        for _ in range(cnt):
            s, = struct.unpack_from('<Q', td, p)
            fmt = td[p + 8:p + 8 + s]
            p += 8 + s
            for line in fmt.split(b'\n'):
                if line.startswith(b'ID: ') and int(line[4:]) in ids:
                    fmts.append(fmt)
        if name in systems and fmts:
            kept.append((name, fmts))
    out += struct.pack('<I', len(kept))
    for name, fmts in kept:
        out += name.encode() + b'\0' + struct.pack('<I', len(fmts))
        for fmt in fmts:
            out += struct.pack('<Q', len(fmt)) + fmt
    return bytes(out)


if __name__ == '__main__':
    main()
