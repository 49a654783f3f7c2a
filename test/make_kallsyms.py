#!/usr/bin/env python3
"""A kallsyms file covering the kernel samples of perf.data files, so tests
name those samples the same way on any machine (perf and vmprof both take it
with --kallsyms). _text/_stext sit where the files' kernel map says; with
--from KALLSYMS (e.g. /proc/kallsyms when the files were just recorded here)
each sampled address gets the symbol covering it there, otherwise one made-up
symbol per 4 KiB page ("ksym_ffffffff81234000"). File and pipe formats.
Usage: make_kallsyms.py [--from KALLSYMS] FILE.data... > kallsyms"""
import bisect
import struct
import sys

SAMPLE, MMAP, MMAP2, HEADER_ATTR = 9, 1, 10, 64
IP, IDENTIFIER = 1 << 0, 1 << 16

args = sys.argv[1:]
source = None
if args[:1] == ["--from"]:
    source, args = args[1], args[2:]


def records(data):
    """(type, misc, offset, size) of every record, and the first attr's sample_type."""
    if struct.unpack_from("<Q", data, 8)[0] == 16:             # pipe
        off, end, sample_type = 16, len(data), None
    else:
        attrs_off = struct.unpack_from("<Q", data, 24)[0]
        sample_type = struct.unpack_from("<Q", data, attrs_off + 24)[0]
        off, size = struct.unpack_from("<QQ", data, 40)
        end = off + size if size else len(data)
    while off + 8 <= end:
        rtype, misc, size = struct.unpack_from("<IHH", data, off)
        if size < 8 or off + size > end:
            break
        if rtype == HEADER_ATTR and sample_type is None:
            sample_type = struct.unpack_from("<Q", data, off + 8 + 24)[0]
        yield rtype, misc, off, size, sample_type
        off += size


text, ips = None, set()
for path in args:
    data = open(path, "rb").read()
    for rtype, misc, off, size, st in records(data):
        if rtype == SAMPLE and misc & 7 == 1 and st & IP:
            ips.add(struct.unpack_from("<Q", data, off + 8 + (8 if st & IDENTIFIER else 0))[0])
        elif rtype in (MMAP, MMAP2) and struct.unpack_from("<i", data, off + 8)[0] == -1:
            name = data[off + (40 if rtype == MMAP else 72):off + size].split(b"\0")[0]
            if name.startswith(b"[kernel.kallsyms]") and text is None:
                text = struct.unpack_from("<Q", data, off + 32)[0]   # pgoff: _text

syms = {}
if text is not None:
    syms[text] = ["_stext", "_text"]
if source:
    real = []
    for line in open(source):
        f = line.split()
        if len(f) >= 3 and f[1] in "TtWw" and len(f) == 3:
            real.append((int(f[0], 16), f[2]))
    real.sort()
    starts = [a for a, _ in real]
    for ip in ips:
        i = bisect.bisect_right(starts, ip) - 1
        for a, n in real[max(i, 0):i + 2]:       # the symbol and the next, which ends it
            syms.setdefault(a, []).append(n)
else:
    for ip in ips:
        page = ip & ~0xfff
        syms.setdefault(page, []).append("ksym_%x" % page)
        syms.setdefault(page + 0x1000, []).append("ksym_%x" % (page + 0x1000))
for addr in sorted(syms):
    for name in sorted(set(syms[addr])):
        print("%016x %s %s" % (addr, "T", name))
