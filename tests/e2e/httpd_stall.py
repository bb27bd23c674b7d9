#!/usr/bin/env python3
"""One HTTP/1.0 answer that stalls, on stdin/stdout: QEMU's
guestfwd=...-cmd: starts this once for each connection the guest makes.
Whatever is asked, it sends headers announcing 4096 bytes and the first
512 of them, then nothing more: it waits for the guest to hang up (or
QEMU to end), at most 300 s. Nothing here listens on a socket of the
host."""
import signal
import sys

signal.alarm(300)
inp, out = sys.stdin.buffer, sys.stdout.buffer
while inp.readline() not in (b"\r\n", b"\n", b""):
    pass
out.write(b"HTTP/1.0 200 OK\r\nContent-Length: 4096\r\n\r\n" + b"#" * 511 + b"\n")
out.flush()
try:
    while inp.read(4096):
        pass
except (BrokenPipeError, ConnectionResetError):
    pass
