#!/usr/bin/env python3
"""A DHCP and TFTP server that can misbehave, for one guest NIC on QEMU's
dgram network (-netdev dgram: every Ethernet frame is one UDP datagram
between QEMU and this process on 127.0.0.1, so nothing reaches any other
host). It answers ARP for its address, DHCP (DISCOVER -> OFFER, REQUEST
-> ACK, giving 10.0.3.15/24) and TFTP read requests for the files of a
directory (the blksize and tsize options, RFC 2347-2349).

    netpeer.py PORT PEER_PORT DIR MODE [URL]

PORT is this end, PEER_PORT QEMU's. MODE:
  liar     a normal lease naming pxelinux.0; a file whose name ends in
           "-liar" is announced (tsize) at half its size, then sent whole
  v6       IPv6 alone (no ARP, no DHCPv4): router advertisements of
           2001:db8:36::/64 (SLAAC), neighbour advertisements for its
           addresses, DHCPv6 Information-Requests answered with the boot
           file URL tftp://[2001:db8:36::2]/pxelinux.0 (RFC 5970) and a
           Server Identifier (which QEMU's own user network leaves out),
           TFTP over IPv6, HTTP over IPv6 on port 80 (a small TCP of
           its own, below; the answers are httpd1.py's), and DNS (it is
           the DHCPv6 answer's DNS server): boot.test is 2001:db8:36::2
           (AAAA; no A), any other name does not exist; URL, when given,
           is the boot file URL instead
  garbage  a lease whose options are hostile: a boot file with a terminal
           escape sequence in it, a host name of shell syntax,
           a TFTP server name (66) that is no address, a 100-byte path
           prefix (210), a config file (209) climbing out of the root,
           unknown options full of 0xff (well-formed options: busybox's
           udhcpc drops a malformed offer and asks again, so the content
           is what reaches bootmenu)
Runs until killed. Logs each request on stderr."""
import os
import socket
import struct
import subprocess
import sys
import time

MY_MAC = bytes.fromhex("525400aabb01")
MY_IP = bytes([10, 0, 3, 2])
YOUR_IP = bytes([10, 0, 3, 15])
BCAST_MAC = b"\xff" * 6
MY_IP6 = bytes.fromhex("20010db8003600000000000000000002")
MY_LL6 = bytes.fromhex("fe80000000000000505400fffeaabb01")
BOOT_URL6 = b"tftp://[2001:db8:36::2]/pxelinux.0"
ALL_NODES = bytes.fromhex("ff020000000000000000000000000001")
HTTPD = os.path.join(os.path.dirname(os.path.abspath(__file__)), "httpd1.py")
MSS = 1400  # below what the guest's 1500-byte link allows
TCP_FIN, TCP_SYN, TCP_RST, TCP_PSH, TCP_ACK = 1, 2, 4, 8, 16


def csum(data):
    if len(data) % 2:
        data += b"\0"
    s = sum(struct.unpack("!%dH" % (len(data) // 2), data))
    while s >> 16:
        s = (s & 0xffff) + (s >> 16)
    return ~s & 0xffff


def ip_udp(src, dst, sport, dport, payload):
    """An IPv4 packet with a UDP datagram (UDP checksum 0: none)."""
    udp = struct.pack("!HHHH", sport, dport, 8 + len(payload), 0) + payload
    hdr = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(udp), 0, 0x4000, 64, 17, 0,
                      src, dst)
    return hdr[:10] + struct.pack("!H", csum(hdr)) + hdr[12:] + udp


def ip6(src, dst, nh, payload):
    """An IPv6 packet (hop limit 255, as neighbour discovery wants)."""
    return struct.pack("!IHBB16s16s", 0x60000000, len(payload), nh, 255, src, dst) + payload


def sum6(src, dst, nh, data):
    """The checksum over IPv6's pseudo-header and @data (UDP, ICMPv6)."""
    return csum(src + dst + struct.pack("!I3xB", len(data), nh) + data)


def ip6_udp(src, dst, sport, dport, payload):
    udp = struct.pack("!HHHH", sport, dport, 8 + len(payload), 0) + payload
    c = sum6(src, dst, 17, udp) or 0xffff
    return ip6(src, dst, 17, udp[:6] + struct.pack("!H", c) + udp[8:])


def icmp6(src, dst, body):
    c = sum6(src, dst, 58, body)
    return ip6(src, dst, 58, body[:2] + struct.pack("!H", c) + body[4:])


def eth(dst, kind, payload):
    return dst + MY_MAC + struct.pack("!H", kind) + payload


class Peer:
    def __init__(self, port, peer_port, root, mode, url=None):
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.sock.bind(("127.0.0.1", port))
        self.peer = ("127.0.0.1", peer_port)
        self.root, self.mode = os.path.realpath(root), mode
        self.url = url.encode() if url else BOOT_URL6
        self.transfers = {}  # (client port, our port) -> [data, blksize, last block]
        self.next_port = 40000
        self.conns = {}  # (client address, client port) -> a TCP connection

    def send(self, frame):
        self.sock.sendto(frame, self.peer)

    def log(self, *what):
        print("netpeer:", *what, file=sys.stderr, flush=True)

    def arp(self, src_mac, p):
        op, = struct.unpack("!H", p[6:8])
        if op == 1 and p[24:28] == MY_IP:
            reply = struct.pack("!HHBBH", 1, 0x0800, 6, 4, 2) + MY_MAC + MY_IP + \
                p[8:14] + p[14:18]
            self.send(eth(src_mac, 0x0806, reply))

    def dhcp_options(self, kind):
        o = bytes([53, 1, kind, 54, 4]) + MY_IP + bytes([51, 4, 0, 1, 0x51, 0x80,
                                                         1, 4, 255, 255, 255, 0])
        if self.mode == "garbage":
            # 308 bytes of options at most: udhcpc ignores a longer packet
            host = (b"$(reboot);`poweroff`|" * 3)[:60]
            o += bytes([67, 30]) + b"pxe\x1b]0;PWNED\x07linux.0\x1b[2J\x01\x02xx"
            o += bytes([12, len(host)]) + host
            o += bytes([66, 20]) + b"\xff\xfenot an address\x00\x00x"
            o += bytes([209, 30]) + b"../../../../../../etc/passwd\0x"
            o += bytes([210, 100]) + b"A" * 100
            o += bytes([150, 20]) + b"\xff" * 20
            return o + bytes([255])
        return o + bytes([67, 10]) + b"pxelinux.0" + bytes([255])

    def dhcp(self, p):
        if len(p) < 240 or p[0] != 1:
            return
        xid, chaddr = p[4:8], p[28:34]
        opts, i, kind = p[240:], 0, 0
        while i + 1 < len(opts) and opts[i] != 255:
            if opts[i] == 0:
                i += 1
                continue
            if opts[i] == 53:
                kind = opts[i + 2]
            i += 2 + opts[i + 1]
        answer = {1: 2, 3: 5}.get(kind)  # DISCOVER -> OFFER, REQUEST -> ACK
        if not answer:
            return
        self.log("dhcp", {1: "DISCOVER", 3: "REQUEST"}[kind], chaddr.hex(":"))
        bootp = struct.pack("!BBBB4sHH4s4s4s4s16s64s128s", 2, 1, 6, 0, xid, 0, 0x8000,
                            b"\0" * 4, YOUR_IP, MY_IP, b"\0" * 4, chaddr + b"\0" * 10,
                            b"", b"") + b"\x63\x82\x53\x63" + self.dhcp_options(answer)
        self.send(eth(BCAST_MAC, 0x0800, ip_udp(MY_IP, b"\xff" * 4, 67, 68, bootp)))

    def udp_out(self, mac, dst, sport, dport, payload):
        """A datagram from our address of @dst's family."""
        if len(dst) == 16:
            self.send(eth(mac, 0x86dd, ip6_udp(MY_IP6, dst, sport, dport, payload)))
        else:
            self.send(eth(mac, 0x0800, ip_udp(MY_IP, dst, sport, dport, payload)))

    def tftp_send(self, key, block):
        t = self.transfers[key]
        data, size = t["data"], t["blksize"]
        chunk = data[(block - 1) * size:block * size]
        t["block"] = block
        self.udp_out(t["mac"], t["ip"], key[1], key[0], struct.pack("!HH", 3, block) + chunk)

    def tftp_rrq(self, mac, src_ip, sport, p):
        parts = p[2:].split(b"\0")
        name = parts[0].decode("latin-1").lstrip("/")
        opts = {parts[i].decode().lower(): parts[i + 1].decode()
                for i in range(2, len(parts) - 1, 2) if parts[i]}
        self.next_port += 1
        key = (sport, self.next_port)
        path = os.path.realpath(os.path.join(self.root, name))

        def reply(payload):
            self.udp_out(mac, src_ip, key[1], sport, payload)
        if not path.startswith(self.root + "/") or not os.path.isfile(path):
            self.log("tftp", name, "not found")
            reply(struct.pack("!HH", 5, 1) + b"File not found\0")
            return
        with open(path, "rb") as f:
            data = f.read()
        told = len(data) // 2 if name.endswith("-liar") else len(data)
        self.log("tftp", name, opts, "told size", told)
        self.transfers[key] = {"data": data, "blksize": 512, "block": 0,
                               "mac": mac, "ip": src_ip}
        oack = b""
        if "blksize" in opts:
            size = max(8, min(int(opts["blksize"]), 1432))
            self.transfers[key]["blksize"] = size
            oack += b"blksize\0%d\0" % size
        if "tsize" in opts:
            oack += b"tsize\0%d\0" % told
        if oack:
            reply(struct.pack("!H", 6) + oack)  # the client's ACK 0 starts it
        else:
            self.tftp_send(key, 1)

    def tftp_ack(self, sport, dport, p):
        key = (sport, dport)
        t = self.transfers.get(key)
        if not t:
            return
        block, = struct.unpack("!H", p[2:4])
        if block == t["block"] and block * t["blksize"] > len(t["data"]):
            del self.transfers[key]  # the last block was taken
            return
        self.tftp_send(key, block + 1 if block == t["block"] else t["block"])

    def udp(self, mac, ip):
        ihl = (ip[0] & 15) * 4
        sport, dport = struct.unpack("!HH", ip[ihl:ihl + 4])
        payload = ip[ihl + 8:]
        if dport == 67:
            self.dhcp(payload)
            return
        if ip[16:20] != MY_IP:
            return
        self.tftp(mac, ip[12:16], sport, dport, payload)

    def tftp(self, mac, src_ip, sport, dport, payload):
        if len(payload) < 4:
            return
        op, = struct.unpack("!H", payload[:2])
        if dport == 69 and op == 1:
            self.tftp_rrq(mac, src_ip, sport, payload)
        elif op == 4:
            self.tftp_ack(sport, dport, payload)
        elif op == 5:
            self.transfers.pop((sport, dport), None)

    def icmp6_in(self, mac, src, p):
        """Router solicitations get the prefix; neighbour solicitations
        for our addresses our MAC."""
        if p[0] == 133:  # RS -> RA: 2001:db8:36::/64, on-link, autonomous
            ra = struct.pack("!BBHBBHII", 134, 0, 0, 64, 0, 1800, 0, 0)
            ra += struct.pack("!BBBBIII", 3, 4, 64, 0xc0, 86400, 14400, 0) + \
                MY_IP6[:8] + bytes(8)
            ra += bytes([1, 1]) + MY_MAC
            self.log("ra to", mac.hex(":"))
            self.send(eth(mac, 0x86dd, icmp6(MY_LL6, ALL_NODES, ra)))
        elif p[0] == 135 and len(p) >= 24 and p[8:24] in (MY_IP6, MY_LL6):
            if src == bytes(16):
                return  # duplicate address detection: not ours to answer
            na = struct.pack("!BBHI", 136, 0, 0, 0x60000000) + p[8:24] + \
                bytes([2, 1]) + MY_MAC
            self.send(eth(mac, 0x86dd, icmp6(p[8:24], src, na)))

    def dhcp6(self, mac, src, sport, p):
        """An Information-Request (11) -> Reply (7): the client's ID back,
        our ID (DUID-LL), the boot file URL (59) and a DNS server (23)."""
        if len(p) < 4 or p[0] != 11:
            return
        opts, i, client = p[4:], 0, b""
        while i + 4 <= len(opts):
            code, n = struct.unpack("!HH", opts[i:i + 4])
            if code == 1:
                client = opts[i:i + 4 + n]
            i += 4 + n
        duid = struct.pack("!HH", 3, 1) + MY_MAC
        reply = bytes([7]) + p[1:4] + client + struct.pack("!HH", 2, len(duid)) + duid + \
            struct.pack("!HH", 59, len(self.url)) + self.url + \
            struct.pack("!HH", 23, 16) + MY_IP6
        self.log("dhcp6 information-request from", mac.hex(":"))
        self.send(eth(mac, 0x86dd, ip6_udp(MY_LL6, src, 547, sport, reply)))

    # HTTP over IPv6: enough TCP for a client that fetches a file. Each
    # connection answers SYN on port 80 (any other port is refused with
    # RST), takes the request in order, runs httpd1.py on it for the
    # answer, and sends that in segments of MSS bytes, at most the
    # client's window (no scaling: it is not agreed) past what it has
    # acknowledged, FIN with the last. A segment that is not acknowledged
    # within 0.3 s is sent again from the first one missing (go back N).

    def tcp_out(self, c, flags, seq, payload=b"", opts=b""):
        hdr = struct.pack("!HHIIBBHHH", 80, c["port"], seq & 0xffffffff,
                          c["rcv"] & 0xffffffff, (5 + len(opts) // 4) << 4, flags,
                          65535, 0, 0) + opts
        seg = hdr + payload
        cs = sum6(MY_IP6, c["ip"], 6, seg)
        self.send(eth(c["mac"], 0x86dd,
                      ip6(MY_IP6, c["ip"], 6, seg[:16] + struct.pack("!H", cs) + seg[18:])))

    def tcp_push(self, c):
        """Send what the window allows of the answer, FIN after it."""
        if c["out"] is None:
            return
        base, end = c["iss"] + 1, c["iss"] + 1 + len(c["out"])
        limit = c["una"] + c["win"]
        while c["nxt"] <= end and c["nxt"] < limit:
            n = min(MSS, end - c["nxt"], limit - c["nxt"])
            flags = TCP_ACK | TCP_PSH
            if c["nxt"] + n == end:
                flags |= TCP_FIN
            off = c["nxt"] - base
            self.tcp_out(c, flags, c["nxt"], c["out"][off:off + n])
            c["nxt"] += n + (1 if flags & TCP_FIN else 0)
            if flags & TCP_FIN:
                break

    def tcp_in(self, mac, src, p):
        if len(p) < 20:
            return
        sport, dport, seq, ack, off, flags, win = struct.unpack("!HHIIBBH", p[:16])
        data, key = p[(off >> 4) * 4:], (src, sport)
        c = self.conns.get(key)
        if flags & TCP_RST:
            self.conns.pop(key, None)
            return
        if flags & TCP_SYN:
            c = {"mac": mac, "ip": src, "port": sport, "iss": 1000, "rcv": seq + 1,
                 "una": 1001, "nxt": 1001, "win": win, "req": b"", "out": None,
                 "at": time.time()}
            if dport != 80:
                self.log("tcp port", dport, "refused")
                self.tcp_out(c, TCP_RST | TCP_ACK, 0)
                return
            self.conns[key] = c
            self.tcp_out(c, TCP_SYN | TCP_ACK, c["iss"], opts=struct.pack("!BBH", 2, 4, MSS))
            return
        if not c:
            return
        c["win"] = win
        if flags & TCP_ACK and c["una"] < ack <= c["nxt"]:
            c["una"], c["at"] = ack, time.time()
        if data and seq == c["rcv"]:
            c["req"] += data
            c["rcv"] += len(data)
        if flags & TCP_FIN and seq + len(data) == c["rcv"]:
            c["rcv"] += 1
        if data or flags & TCP_FIN:
            self.tcp_out(c, TCP_ACK, c["nxt"])
        if c["out"] is None and b"\r\n\r\n" in c["req"]:
            line = c["req"].split(b"\r\n", 1)[0].decode("latin-1")
            c["out"] = subprocess.run([sys.executable, HTTPD, self.root], input=c["req"],
                                      stdout=subprocess.PIPE, check=False, timeout=20).stdout
            c["at"] = time.time()
            self.log("http", line, "answer", len(c["out"]), "bytes")
        self.tcp_push(c)
        if c["out"] is not None and c["una"] == c["iss"] + 2 + len(c["out"]):
            del self.conns[key]  # all sent and acknowledged, FIN too

    def tcp_timers(self):
        now = time.time()
        for c in list(self.conns.values()):
            if c["una"] < c["nxt"] and now - c["at"] > 0.3:
                c["nxt"], c["at"] = c["una"], now
                self.tcp_push(c)

    def dns(self, mac, src, sport, q):
        """A query for boot.test's AAAA gets our address; its A nothing
        (an IPv6-only network); any other name NXDOMAIN."""
        if len(q) < 17 or q[2] & 0x80:
            return
        labels, i = [], 12
        while i < len(q) and q[i]:
            labels.append(q[i + 1:i + 1 + q[i]].decode("latin-1"))
            i += 1 + q[i]
        if i + 5 > len(q):
            return
        name, qtype = ".".join(labels).lower(), struct.unpack("!H", q[i + 1:i + 3])[0]
        question = q[12:i + 5]
        known = name == "boot.test"
        answers = b""
        if known and qtype == 28:
            answers = struct.pack("!HHHIH", 0xc00c, 28, 1, 60, 16) + MY_IP6
        flags = 0x8180 if known else 0x8183
        reply = q[:2] + struct.pack("!HHHHH", flags, 1, 1 if answers else 0, 0, 0) + \
            question + answers
        self.log("dns", {1: "A", 28: "AAAA"}.get(qtype, qtype), name,
                 "found" if answers else "none")
        self.send(eth(mac, 0x86dd, ip6_udp(MY_IP6, src, 53, sport, reply)))

    def ipv6(self, mac, ip):
        nh, src, dst, p = ip[6], ip[8:24], ip[24:40], ip[40:]
        if nh == 58 and p:
            self.icmp6_in(mac, src, p)
        elif nh == 6 and dst == MY_IP6:
            self.tcp_in(mac, src, p)
        elif nh == 17 and len(p) >= 8:
            sport, dport = struct.unpack("!HH", p[:4])
            if dport == 547:
                self.dhcp6(mac, src, sport, p[8:])
            elif dst == MY_IP6 and dport == 53:
                self.dns(mac, src, sport, p[8:])
            elif dst == MY_IP6:
                self.tftp(mac, src, sport, dport, p[8:])

    def run(self):
        self.sock.settimeout(0.1)
        while True:
            self.tcp_timers()
            try:
                frame = self.sock.recv(65536)
            except socket.timeout:
                continue
            if len(frame) < 14:
                continue
            kind, = struct.unpack("!H", frame[12:14])
            if kind == 0x86dd and self.mode == "v6" and len(frame) >= 54:
                self.ipv6(frame[6:12], frame[14:])
            elif self.mode == "v6":
                continue  # IPv6 alone: no ARP, no DHCPv4
            elif kind == 0x0806:
                self.arp(frame[6:12], frame[14:])
            elif kind == 0x0800 and frame[14 + 9] == 17:
                self.udp(frame[6:12], frame[14:])


def main():
    port, peer_port, root, mode = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4]
    Peer(port, peer_port, root, mode, sys.argv[5] if len(sys.argv) > 5 else None).run()


if __name__ == "__main__":
    main()
