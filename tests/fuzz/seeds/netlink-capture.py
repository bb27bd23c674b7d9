"""netlink-capture.py DIR - make-real.sh's rtnetlink part (run it inside
`unshare -n`: a network namespace of its own, with only its loopback).
Listens on an rtnetlink socket for link messages (RTMGRP_LINK) while `ip`
adds a veth pair, a bridge and a macvlan on the veth, brings them up (the
veth's carrier comes with its peer), one down, changes an MTU, puts a veth
in the bridge, and deletes them; also asks for a dump of
every link (RTM_GETLINK). Each buffer one recv() gave, as the kernel sent
it, is a fuzz_netlink seed: DIR/real-<n>-<what the messages are>."""
import os
import select
import socket
import struct
import subprocess
import sys

RTMGRP_LINK = 1
NAMES = {3: "done", 16: "new", 17: "del"}


def drain(s, out, wait=0.5):
    while select.select([s], [], [], wait)[0]:
        out.append(s.recv(65536))


def kinds(buf):
    off, k = 0, []
    while off + 16 <= len(buf):
        n, t = struct.unpack_from("<IH", buf, off)
        k.append(NAMES.get(t, str(t)))
        if n < 16:
            break
        off += (n + 3) & ~3
    return k


def main(d):
    s = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, socket.NETLINK_ROUTE)
    s.bind((0, RTMGRP_LINK))
    got = []
    for cmd in ("link add seed0 type veth peer name seed1", "link add seedbr type bridge",
                "link add link seed0 name seedmv type macvlan",
                "link set seed0 up", "link set seed1 up", "link set seedbr up",
                "link set seedmv up", "link set seed1 down", "link set seed0 mtu 9000",
                "link set seed1 master seedbr", "link del seedbr", "link del seed0"):
        subprocess.run(["ip"] + cmd.split(), check=True)
        drain(s, got, 0.3)
    d_s = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, socket.NETLINK_ROUTE)
    subprocess.run(["ip", "link", "add", "seed2", "type", "veth", "peer", "name", "seed3"],
                   check=True)
    # RTM_GETLINK, NLM_F_REQUEST | NLM_F_DUMP, an ifinfomsg of zeros
    d_s.send(struct.pack("<IHHII", 32, 18, 0x301, 1, 0) + bytes(16))
    drain(d_s, got)
    for i, b in enumerate(got):
        k = "-".join(kinds(b))
        with open(os.path.join(d, "real-%02d-%s" % (i, k[:40])), "wb") as f:
            f.write(b)


if __name__ == "__main__":
    main(*sys.argv[1:])
