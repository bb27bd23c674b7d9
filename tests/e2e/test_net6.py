#!/usr/bin/env python3
"""IPv6 network boot (issue #36, test 4): an IPv6-only network, no IPv4
server at all: a pxelinux tree over TFTP, GRUB's name for an IPv6
client, a kernel and initrd over HTTP, and server names looked up in
DNS. The network is tests/e2e/netpeer.py in its v6 mode on
QEMU's dgram netdev (each Ethernet frame one UDP datagram to that process
on 127.0.0.1: nothing leaves the machine): it advertises 2001:db8:36::/64,
from which the kernel makes the guest's address itself (SLAAC), answers
DHCPv6 Information-Requests with the boot file URL
tftp://[2001:db8:36::2]/pxelinux.0 (RFC 5970, or the case's own) and
serves the tree over TFTP and HTTP on IPv6. Nothing is configured on the guest (network =
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
from pxetree import CON, tftp_tree  # noqa: E402
from qemu import Qemu, check, need  # noqa: E402
from screen import BOOTED, RESTARTED, screens_show  # noqa: E402

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


GUEST6 = "2001:db8:36:0:5054:ff:fe12:3466"  # SLAAC: the prefix and MAC's EUI-64


def v6_boot(case, d, url=None):
    """Boot the guest on the IPv6-only network of netpeer.py serving the
    tree @d (@url: the boot file URL, else netpeer's pxelinux.0): the
    entry booted, the serial output, the server's log."""
    mine, qemu = free_ports(2)
    log_path = os.path.join(W, "netpeer-%s.log" % case)
    log = open(log_path, "w")
    peer = subprocess.Popen([sys.executable, PEER, str(mine), str(qemu), d, "v6"] +
                            ([url] if url else []), stderr=log)
    try:
        nic = ["-netdev", "dgram,id=n0,local.type=inet,local.host=127.0.0.1,"
               "local.port=%d,remote.type=inet,remote.host=127.0.0.1,"
               "remote.port=%d" % (qemu, mine), "-device", "e1000e,netdev=n0,mac=" + MAC]
        q = Qemu(B, "net6-" + case, kernel=need(EFI), extra=nic)
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
    return got, out, served


def server_saw(served, wants):
    for want in wants:
        if want not in served:
            raise AssertionError("the server's log has no \"%s\"" % want)


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
    got, out, served = v6_boot("url", d)
    if got != "net6-mac":
        raise AssertionError("booted %s, not net6-mac (pxelinux.cfg/01-<mac> "
                             "over IPv6)" % got)
    # the server answers TFTP on 2001:db8:36::2 alone
    server_saw(served, ("dhcp6 information-request",
                        "tftp pxelinux.cfg/01-" + MAC.replace(":", "-"), "tftp vmlinuz"))
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


def grub_cfg(entry):
    """A grub.cfg whose default boots the target with demo.entry=@entry."""
    return ("set timeout=1\nset default=0\n"
            "menuentry '%s' {\n  linux /vmlinuz %s demo.entry=%s target.poweroff\n"
            "  initrd /initrd.gz\n}\n" % (entry, CON, entry))


def grub_names_its_ipv6_address():
    """A GRUB boot file over TFTP on IPv6 (tftp://[...]/grubnetx64.efi, so
    its prefix is /grub, as Debian's netboot image has it beside grub/):
    GRUB looks for grub.cfg-01-<mac>, then grub.cfg-<its IPv6 address in
    its own text, ':' made '-'>, then grub.cfg (grub_net_search_config_file
    on an IPv6 interface); the server has the second and the last, and the
    entry of the second boots. The address is the one SLAAC made from the
    prefix and the MAC."""
    name = "grub.cfg-" + GUEST6.replace(":", "-")
    d = tftp_tree(B, W, "grub", {})
    os.makedirs(os.path.join(d, "grub"))
    for f, entry in ((name, "net6-grub-ip6"), ("grub.cfg", "net6-grub-wrong")):
        with open(os.path.join(d, "grub", f), "w") as fh:
            fh.write(grub_cfg(entry))
    with open(os.path.join(d, "grubnetx64.efi"), "wb") as fh:
        fh.write(b"placeholder: only its name matters\n")
    got, out, served = v6_boot("grub", d, "tftp://[2001:db8:36::2]/grubnetx64.efi")
    if got != "net6-grub-ip6":
        raise AssertionError("booted %s, not net6-grub-ip6 (grub/%s)" % (got, name))
    server_saw(served, ("tftp grub/grub.cfg-01-" + MAC.replace(":", "-"),
                        "tftp grub/" + name))
    print("  booted %s from grub/%s" % (got, name))


def http_kernel_and_initrd_over_ipv6():
    """The per-MAC pxelinux config (over TFTP on IPv6) names its kernel
    and initrd as http://[2001:db8:36::2]/...: both come over HTTP on
    IPv6 (busybox wget with a bracketed address, netpeer's TCP), each
    loading line shows the bar with the total the server gave, and the
    entry boots."""
    d = tftp_tree(B, W, "http", {})
    srv = "http://[2001:db8:36::2]"
    with open(os.path.join(d, "pxelinux.cfg", "01-" + MAC.replace(":", "-")), "w") as f:
        f.write("DEFAULT net6-http\nTIMEOUT 10\nLABEL net6-http\n"
                "  KERNEL %s/vmlinuz\n  APPEND initrd=%s/initrd.gz %s "
                "demo.entry=net6-http target.poweroff\n" % (srv, srv, CON))
    sizes = {n: os.path.getsize(os.path.join(d, n)) for n in ("vmlinuz", "initrd.gz")}
    got, out, served = v6_boot("http", d)
    if got != "net6-http":
        raise AssertionError("booted %s, not net6-http" % got)
    server_saw(served, ("http GET /vmlinuz", "http GET /initrd.gz"))
    if re.search(r"tftp (vmlinuz|initrd\.gz)", served):
        raise AssertionError("the kernel or initrd came over TFTP, not HTTP")
    for name, size in sizes.items():
        total = "%.1f" % (size / 1048576.0)
        lines = screens_show(out, r"Loading [^\n]*?%s: [^\n]*" % re.escape(name))
        want = r"\[[#.]{20}\] +\d+%%  %s: [0-9.]+ of %s MiB at [0-9.]+ MiB/s" % (
            re.escape(name), re.escape(total))
        if not any(re.search(want, ln) for ln in lines):
            raise AssertionError("the loading line of %s never showed the bar with "
                                 "the total %s MiB: %s" % (name, total, lines or "no line"))
        print("  %s (%s MiB): %s" % (name, total, lines[-1].strip()))


def names_looked_up():
    """The boot file URL names its server (tftp://boot.test/pxelinux.0)
    and so do the config's kernel and initrd (http://boot.test/...): the
    DHCPv6 answer's DNS server (option 23, netpeer) is asked, bootmenu
    looks the name up for the config lookups and busybox's wget for the
    HTTP fetches (through the resolv.conf bootmenu writes for its leases),
    and the per-MAC entry boots."""
    d = tftp_tree(B, W, "dns", {})
    with open(os.path.join(d, "pxelinux.cfg", "01-" + MAC.replace(":", "-")), "w") as f:
        f.write("DEFAULT net6-dns\nTIMEOUT 10\nLABEL net6-dns\n"
                "  KERNEL http://boot.test/vmlinuz\n  APPEND initrd=http://boot.test/"
                "initrd.gz %s demo.entry=net6-dns target.poweroff\n" % CON)
    got, out, served = v6_boot("dns", d, "tftp://boot.test/pxelinux.0")
    if got != "net6-dns":
        raise AssertionError("booted %s, not net6-dns" % got)
    server_saw(served, ("dns AAAA boot.test found",
                        "tftp pxelinux.cfg/01-" + MAC.replace(":", "-"),
                        "http GET /vmlinuz", "http GET /initrd.gz"))
    plain = ESC_RE.sub("", out)
    # the menu's 80 columns may cut the label inside the server's address
    if not re.search(r"eth0  tftp  %s \S+ from \[2001:db8:36:" % MAC, plain):
        raise AssertionError("the menu's network is not labelled with the "
                             "looked-up server [2001:db8:36::2]")
    print("  booted %s; %d DNS answers" % (got, served.count("netpeer: dns ")))


ok = True
for name, fn in (("boot_file_url_boots", boot_file_url_boots),
                 ("grub_names_its_ipv6_address", grub_names_its_ipv6_address),
                 ("http_kernel_and_initrd_over_ipv6", http_kernel_and_initrd_over_ipv6),
                 ("names_looked_up", names_looked_up)):
    if len(sys.argv) > 2 and sys.argv[2] not in name:
        continue
    ok = check("e2e.net6." + name, fn) and ok
sys.exit(0 if ok else 1)
