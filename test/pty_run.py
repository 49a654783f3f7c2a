#!/usr/bin/env python3
"""Run a command with its standard error on a pseudo-terminal (as a user's
terminal would be) and standard output to a file; print what the terminal
received, as Python's repr, then the exit status. For the progress-line tests.
Usage: pty_run.py OUT CMD [ARGS...]"""
import os
import pty
import select
import subprocess
import sys

master, slave = pty.openpty()
with open(sys.argv[1], "wb") as out:
    p = subprocess.Popen(sys.argv[2:], stdin=subprocess.DEVNULL, stdout=out, stderr=slave)
    os.close(slave)
    got = b""
    while True:
        ready, _, _ = select.select([master], [], [], 1.0)
        if not ready:
            if p.poll() is not None:
                break
            continue
        try:
            chunk = os.read(master, 65536)
        except OSError:	# the other side closed: Linux says EIO
            break
        if not chunk:
            break
        got += chunk
    p.wait()
print(repr(got.decode(errors="replace")))
print("exit", p.returncode)
