#!/usr/bin/env python3
"""IPv6 network boot (issue #36, test 4): an IPv6-only network, no IPv4
server at all. The network is tests/e2e/netpeer.py in its v6 mode on
QEMU's dgram netdev (each Ethernet frame one UDP datagram to that process
on 127.0.0.1: nothing leaves the machine): it advertises 2001:db8:36::/64,
from which the kernel makes the guest's address itself (SLAAC), answers
DHCPv6 Information-Requests with the boot file URL
tftp://[2001:db8:36::2]/pxelinux.0 (RFC 5970) and serves the pxelinux
tree over TFTP on IPv6. Nothing is configured on the guest (network =
auto) and there is no disk.

Why not QEMU's user network, which has ipv6=on and a DHCPv6 boot file
URL: QEMU 7.2's libslirp drops every UDP datagram over IPv6 under
restrict=on (udp6_input), DHCPv6 and TFTP included, and without
restrict=on its DHCPv6 answer has no Server Identifier, which busybox's
udhcpc6 requires ("no server ID, ignoring packet")."""
import os
import re
import shutil
import socket
import subprocess
import sys

sys.path.insert(0, os.path.dirname(__file__))
from pxetree import tftp_tree  # noqa: E402
from qemu import Qemu, check, need  # noqa: E402
from screen import BOOTED, RESTARTED  # noqa: E402

B = os.path.abspath(sys.argv[1])
EFI = os.path.join(B, "bootmenu.efi")
W = os.path.join(B, "e2e-net6")
PEER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "netpeer.py")
MAC = "52:54:00:12:34:66"
ESC_RE = re.compile(r"\x1b(\[[0-9;?>]*[@-~]|[()][0-9A-Za-z]|[78DEMc=>])")


def free_ports(n):
    """@n UDP ports of 127.0.0.1 that were just free."""
    socks = []
    for _ in range(n):
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        s.bind(("127.0.0.1", 0))
        socks.append(s)
    ports = [s.getsockname()[1] for s in socks]
    for s in socks:
        s.close()
    return ports


def boot_file_url_boots():
    """The DHCPv6 boot file URL's pxelinux tree boots, found by the
    card's MAC name (pxelinux.cfg/01-<mac>): `default` names another
    entry, so the one booted shows the MAC name was looked for first, as
    pxelinux does, over IPv6. The menu's group is labelled with the
    server [2001:db8:36::2] and the address the kernel made from the
    advertised prefix; the server saw an Information-Request and served
    the config and the kernel over TFTP, and no IPv4 address shows
    anywhere."""
    d = tftp_tree(B, W, "url", {"default": "net6-wrong-default",
                                "01-" + MAC.replace(":", "-"): "net6-mac"})
    mine, qemu = free_ports(2)
    log_path = os.path.join(W, "netpeer-v6.log")
    log = open(log_path, "w")
    peer = subprocess.Popen([sys.executable, PEER, str(mine), str(qemu), d, "v6"],
                            stderr=log)
    try:
        nic = ["-netdev", "dgram,id=n0,local.type=inet,local.host=127.0.0.1,"
               "local.port=%d,remote.type=inet,remote.host=127.0.0.1,"
               "remote.port=%d" % (qemu, mine), "-device", "e1000e,netdev=n0,mac=" + MAC]
        q = Qemu(B, "net6-boot-file-url", kernel=need(EFI), extra=nic)
        try:
            got = q.expect(BOOTED, 400).group(1)
            out = q.output()
        finally:
            q.close()
    finally:
        peer.kill()
        peer.wait()
        log.close()
        shutil.rmtree(d, ignore_errors=True)
    with open(log_path) as f:
        served = f.read()
    if re.search(RESTARTED, out):
        raise AssertionError("/init restarted bootmenu")
    if got != "net6-mac":
        raise AssertionError("booted %s, not net6-mac (pxelinux.cfg/01-<mac> "
                             "over IPv6)" % got)
    # the server answers TFTP on 2001:db8:36::2 alone
    for want in ("dhcp6 information-request",
                 "tftp pxelinux.cfg/01-" + MAC.replace(":", "-"), "tftp vmlinuz"):
        if want not in served:
            raise AssertionError("the server's log has no \"%s\"" % want)
    plain = ESC_RE.sub("", out)
    # the menu's 80 columns cut the label inside the server's address
    label = re.search(r"eth0  tftp  %s (\S+) from (\S+)" % MAC, plain)
    if not label or not label.group(2).startswith("[2001:db8:36:"):
        raise AssertionError("the menu names no network from [2001:db8:36::2]: %s" %
                             (label.group(0) if label else "none"))
    if not label.group(1).startswith("2001:db8:36:"):
        raise AssertionError("the link's address is %s, not one made from "
                             "the advertised 2001:db8:36::/64" % label.group(1))
    if re.search(r"\b10\.0\.\d+\.\d+", plain):
        raise AssertionError("an IPv4 address appears on an IPv6-only network")
    print("  booted %s; %s" % (got, label.group(0)))


ok = check("e2e.net6.boot_file_url_boots", boot_file_url_boots)
sys.exit(0 if ok else 1)
