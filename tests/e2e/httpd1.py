#!/usr/bin/env python3
"""One HTTP/1.0 answer on stdin/stdout: QEMU's guestfwd=...-cmd: starts
this once for each connection the guest makes. GET of a file under the
directory argv[1] gives it with its Content-Length; anything else is a
404; "/huge.img" announces 4 GiB and sends zeros until the guest
hangs up. Nothing here listens on a socket of the host."""
import os
import sys

root = os.path.realpath(sys.argv[1])
inp, out = sys.stdin.buffer, sys.stdout.buffer
request = inp.readline().decode("latin-1").split()
while inp.readline() not in (b"\r\n", b"\n", b""):
    pass
if len(request) > 1 and request[1] == "/huge.img":
    out.write(b"HTTP/1.0 200 OK\r\nContent-Length: %d\r\n\r\n" % (4 << 30))
    try:
        while True:
            out.write(bytes(65536))
    except (BrokenPipeError, ConnectionResetError):
        sys.exit(0)
path = os.path.realpath(os.path.join(root, request[1].lstrip("/"))) if len(request) > 1 else ""
if len(request) > 1 and request[0] == "GET" and path.startswith(root + "/") and os.path.isfile(path):
    with open(path, "rb") as f:
        data = f.read()
    out.write(b"HTTP/1.0 200 OK\r\nContent-Length: %d\r\n\r\n" % len(data) + data)
else:
    out.write(b"HTTP/1.0 404 Not Found\r\nContent-Length: 0\r\n\r\n")
out.flush()
