"""net-capture.py BUILD LEASE_DIR TFTP_DIR - make-real.sh's network part.

Boots bootmenu (BUILD/bootmenu.efi, QEMU TCG) to its rescue shell with two
restricted user networks (nothing leaves QEMU): n0 serves a pxelinux tree
over TFTP with a host name (option 12), n1 another subnet naming a GRUB
image. `bootmenu --list` asks DHCP on both (udhcpc with our script) and
TFTP for the configs; the leases our script wrote are printed and kept as
fuzz_lease seeds, and QEMU's filter-dump of n0 gives the TFTP server's
packets (UDP from port 69 and the ports it answers from) as fuzz_tftp
seeds: the first of each opcode (DATA, ERROR, OACK) and of each ERROR
code."""
import os
import re
import shutil
import struct
import sys
import tempfile

from guest import shell  # noqa: E402 (it puts tests/e2e on the path)
from pxetree import tftp_tree  # noqa: E402

UUID = "8a4c1e2f6d3b4a5c9e0f1a2b3c4d5e6f"  # the client UUID sent as option 97


def udp_payloads(pcap):
    """(src port, dst port, payload) of each IPv4 UDP packet in @pcap."""
    with open(pcap, "rb") as f:
        data = f.read()
    off, out = 24, []
    while off + 16 <= len(data):
        incl = struct.unpack_from("<I", data, off + 8)[0]
        pkt = data[off + 16:off + 16 + incl]
        off += 16 + incl
        if len(pkt) < 42 or pkt[12:14] != b"\x08\x00" or pkt[23] != 17:
            continue
        ihl = (pkt[14] & 15) * 4
        u = 14 + ihl
        sport, dport, ulen = struct.unpack_from(">HHH", pkt, u)
        out.append((sport, dport, pkt[u + 8:u + ulen]))
    return out


def main(build, lease_dir, tftp_dir):
    w = tempfile.mkdtemp()
    try:
        d0 = tftp_tree(build, w, "n0", {"default": "seed-default"})
        d1 = os.path.join(w, "n1")
        os.makedirs(os.path.join(d1, "grub"))
        with open(os.path.join(d1, "grub", "grub.cfg"), "w") as f:
            f.write("menuentry seed-grub {\n  linux /vmlinuz\n}\n")
        pcap = os.path.join(w, "n0.pcap")
        extra = ["-netdev", "user,id=n0,restrict=on,hostname=seed-client,tftp=%s,"
                 "bootfile=pxelinux.0" % d0, "-device", "e1000e,netdev=n0",
                 "-object", "filter-dump,id=f0,netdev=n0,file=" + pcap,
                 "-netdev", "user,id=n1,restrict=on,net=10.0.3.0/24,tftp=%s,"
                 "bootfile=grub/grubx64.efi" % d1,
                 "-device", "e1000e,netdev=n1,mac=52:54:00:12:34:57"]
        # bootmenu removes its leases when it ends: udhcpc is run again on
        # each link with the script bootmenu left and dhcp.c's options
        out = shell(build, "seed-net",
                    "bootmenu --list >/dev/null 2>&1; for i in eth0 eth1; do "
                    "BOOTMENU_LEASE=/tmp/$i.lease udhcpc -f -q -n -i $i "
                    "-s /run/bootmenu/net/udhcpc.sh -t 3 -T 2 "
                    "-V PXEClient:Arch:00000:UNDI:003016 -x 0x5d:0000 -O tftp "
                    "-O bootfile -O pxeconffile -O pxepathprefix -O reboottime "
                    "-x 0x61:00%s >/dev/null 2>&1; echo LEASE-BEGIN; cat /tmp/$i.lease; "
                    "echo LEASE-END; done; echo ALL-\"\"DONE\n" % UUID, r"ALL-DONE\s",
                    extra=extra)
        leases = re.findall(r"^LEASE-BEGIN\n(.*?)^LEASE-END$", out, re.S | re.M)
        if not leases:
            sys.exit("net-capture: no lease printed; see the serial log")
        for text in leases:
            ifname = re.search(r"^interface=(\S+)", text, re.M).group(1)
            with open(os.path.join(lease_dir, "real-" + ifname), "w") as f:
                f.write(text)
        kept = set()
        for sport, dport, p in udp_payloads(pcap):
            if sport in (67, 68) or len(p) < 4 or dport == 69:
                continue
            op, code = struct.unpack_from(">HH", p)
            name = {3: "data", 5: "error%d" % code, 6: "oack"}.get(op)
            if name and name not in kept and sport != 68:
                kept.add(name)
                with open(os.path.join(tftp_dir, "real-" + name), "wb") as f:
                    f.write(p)
        if not kept:
            sys.exit("net-capture: no TFTP answer in " + pcap)
    finally:
        shutil.rmtree(w, ignore_errors=True)


if __name__ == "__main__":
    main(*sys.argv[1:])
