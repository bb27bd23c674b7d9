#!/usr/bin/env python3
"""One HTTP/1.0 answer on stdin/stdout: QEMU's guestfwd=...-cmd: starts
this once for each connection the guest makes. GET of a file under the
directory argv[1] gives it with its Content-Length; anything else is a
404; "/huge.img" announces 4 GiB and sends zeros until the guest
hangs up. Hostile answers (issue #36): "/endless-header" sends header
lines until the guest hangs up, "/garbage-length" a Content-Length of -1,
"/short/NAME" NAME's Content-Length and half of its bytes, then closes.
Nothing here listens on a socket of the host."""
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

def hostile(what):
    """The hostile answers; False when @what is not one of them."""
    if what == "/endless-header":
        out.write(b"HTTP/1.0 200 OK\r\n")
        n = 0
        while True:
            n += 1
            out.write(b"X-Pad-%d: %s\r\n" % (n, b"a" * 64))
    if what == "/garbage-length":
        out.write(b"HTTP/1.0 200 OK\r\nContent-Length: -1\r\n\r\n" + bytes(4096))
        return True
    if what.startswith("/short/"):
        with open(os.path.join(root, os.path.basename(what)), "rb") as f:
            data = f.read()
        out.write(b"HTTP/1.0 200 OK\r\nContent-Length: %d\r\n\r\n" % len(data) +
                  data[:len(data) // 2])
        return True
    return False


try:
    if len(request) > 1 and hostile(request[1]):
        out.flush()
        sys.exit(0)
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
