#!/usr/bin/env python3
"""Make a perf.data file claim another kernel: every record of the host
kernel's build-id (the HEADER_BUILD_ID section, build-id records in the data)
gets BUILD_ID and the recorded release (HEADER_OSRELEASE, in the header or as
a pipe stream's feature record) gets RELEASE; samples are untouched. Tests use
it to simulate "recorded on another kernel" on any machine. File and pipe
formats; the release must fit where the old one was.
Usage: set_kernel_id.py IN.data OUT.data BUILD_ID_HEX RELEASE
Prints how many build-id and release records it changed, e.g. "1 1"."""
import struct
import sys

BUILD_ID, OSRELEASE = 2, 4                 # feature bits
REC_BUILD_ID, REC_FEATURE = 67, 80         # user record types
data = bytearray(open(sys.argv[1], "rb").read())
new_id = bytes.fromhex(sys.argv[3])
release = sys.argv[4].encode()
assert 0 < len(new_id) <= 20
changed = [0, 0]


def build_id_record(off):
    """Patch one perf_record_header_build_id at off if it is the host kernel's."""
    misc, size = struct.unpack_from("<HH", data, off + 4)
    name = data[off + 36:off + size].split(b"\0")[0]
    if misc & 7 == 1 and name == b"[kernel.kallsyms]":
        data[off + 12:off + 33] = new_id.ljust(20, b"\0") + bytes([len(new_id)])
        changed[0] += 1


def header_string(off, limit):
    """Overwrite the perf header string (u32 len, bytes) at off."""
    n = struct.unpack_from("<I", data, off)[0]
    assert len(release) < n and off + 4 + n <= limit, "release does not fit"
    data[off + 4:off + 4 + n] = release.ljust(n, b"\0")
    changed[1] += 1


def records(off, end, pipe):
    while off + 8 <= end:
        rtype, _, size = struct.unpack_from("<IHH", data, off)
        if size < 8:
            break
        if rtype == REC_BUILD_ID:
            build_id_record(off)
        elif pipe and rtype == REC_FEATURE:
            if struct.unpack_from("<Q", data, off + 8)[0] == OSRELEASE:
                header_string(off + 16, off + size)
        off += size


if struct.unpack_from("<Q", data, 8)[0] == 16:          # pipe format
    records(16, len(data), True)
else:
    data_off, data_size = struct.unpack_from("<QQ", data, 40)
    records(data_off, data_off + data_size if data_size else len(data), False)
    bits = int.from_bytes(data[72:104], "little")
    table = data_off + data_size
    k = 0
    for bit in range(256):
        if not bits >> bit & 1:
            continue
        sec_off, sec_size = struct.unpack_from("<QQ", data, table + 16 * k)
        k += 1
        if bit == BUILD_ID:
            off = sec_off
            while off + 36 <= sec_off + sec_size:
                size = struct.unpack_from("<H", data, off + 6)[0]
                build_id_record(off)
                off += size
        elif bit == OSRELEASE:
            header_string(sec_off, sec_off + sec_size)
open(sys.argv[2], "wb").write(data)
print(*changed)
