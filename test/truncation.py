#!/usr/bin/env python3
"""Damaged copies of one small recording through `vmprof report`: the file cut
at every byte offset, its unfinished form (header data size 0, as a killed
recorder leaves it) cut at every offset of its data, and each byte of its
header and first records inverted. Every case must end within the timeout and
either read (exit 0; an unfinished file with the recovery warning) or fail with
exit 1 and a message naming the file; a sanitizer report, a signal, another
exit status or a hang fails the test.
Usage: truncation.py VMPROF GOOD.data WORKDIR [VMPROF ARGS...]"""
import concurrent.futures
import os
import struct
import subprocess
import sys

vmprof, good, work = sys.argv[1:4]
extra = sys.argv[4:]
TIMEOUT = 10
FLIP_BYTES = 640	# header, attrs, ids and the first records

data = open(good, "rb").read()
d_off, d_size = struct.unpack_from("<QQ", data, 40)
unfinished = bytearray(data[:d_off + d_size])
struct.pack_into("<Q", unfinished, 48, 0)
unfinished[72:104] = bytes(32)

cases = []	# (name, bytes, must_recover)
for cut in range(len(data)):
    cases.append(("cut %d" % cut, data[:cut], False))
for cut in range(d_off, len(unfinished) + 1):
    cases.append(("unfinished cut %d" % cut, bytes(unfinished[:cut]), True))
for i in range(min(FLIP_BYTES, len(data))):
    b = bytearray(data)
    b[i] ^= 0xff
    cases.append(("flip byte %d" % i, bytes(b), False))

env = dict(os.environ, ASAN_OPTIONS="detect_leaks=0:exitcode=86",
           UBSAN_OPTIONS="halt_on_error=1:exitcode=86", NO_COLOR="1")


def run(i):
    name, content, recover = cases[i]
    path = os.path.join(work, "case-%d.data" % i)
    with open(path, "wb") as f:
        f.write(content)
    try:
        p = subprocess.run([vmprof, "report", *extra, path], stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE, timeout=TIMEOUT, env=env)
    except subprocess.TimeoutExpired:
        return "%s: no answer in %d s (hang?)" % (name, TIMEOUT)
    finally:
        os.unlink(path)
    err = p.stderr.decode(errors="replace")
    if "Sanitizer" in err or "runtime error" in err:
        return "%s: sanitizer report:\n%s" % (name, err[-3000:])
    if p.returncode == 0:
        if recover and "not finished" not in err:
            return "%s: read without saying it recovered the file" % name
        return None
    if p.returncode != 1:
        return "%s: exit status %d:\n%s" % (name, p.returncode, err[-2000:])
    if "vmprof report: " not in err or "'%s'" % path not in err:
        return "%s: exit 1 without a message naming the file: %r" % (name, err[-500:])
    return None


failures = []
outcomes = {}
with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
    for i, msg in enumerate(pool.map(run, range(len(cases)))):
        if msg:
            failures.append(msg)
for msg in failures[:10]:
    print("FAIL:", msg, file=sys.stderr)
print("%d cases of %s (%d bytes), %d failed" % (len(cases), os.path.basename(good), len(data),
                                              len(failures)))
sys.exit(1 if failures else 0)
