#!/usr/bin/env python3
"""volumes.py CASE FILE [ARG] - the byte patches of hostile/volumes.sh.

Each case edits a volume a real tool made (lvm2, mkfs.btrfs, mkfs.vfat)
and redoes the checksums its readers check, so the damage is what a
reader meets, not a checksum failure:
  lvm-past FILE    hvpast/past's segment starts at extent 9000
  lvm-loop FILE    hvloop's LVs a, b, self stacked on b, a, self
  md FILE EXT4     a 16 MiB md 1.2 member claiming 2^32-1 raid_disks
  btrfs FILE       every superblock copy's chunk_root at logical 1 PiB
  fat FILE SHOWFAT BOOTX64.EFI's chain looped, its size 32 MiB, and
                   grubx64.efi cross-linked onto it
Layouts: lvm2 lib/format_text/layout.h (mda_header, raw_locn) and
label.h; btrfs_super_block (btrfs_tree.h); the FAT BPB and FAT16
entries (Microsoft's FAT specification, sections 3 and 4)."""
import os
import re
import struct
import sys
import zlib

LVM_INITIAL_CRC = 0xF597A6CF
MDA_MAGIC = b" LVM2 x[5A%r0N*>"


def lvm_crc(buf, crc=LVM_INITIAL_CRC):
    # lvm2's calc_crc: the reflected CRC-32 without zlib's inversions
    return ~zlib.crc32(buf, ~crc & 0xFFFFFFFF) & 0xFFFFFFFF


def lvm_mda(img):
    """(offset, size) of the PV's first metadata area, from its label."""
    for s in range(4):
        sec = img[s * 512:(s + 1) * 512]
        if sec[:8] == b"LABELONE":
            break
    else:
        raise SystemExit("no LVM2 label")
    off = struct.unpack_from("<I", sec, 20)[0] + 40
    while struct.unpack_from("<Q", sec, off)[0]:  # data areas
        off += 16
    off += 16
    return struct.unpack_from("<QQ", sec, off)


def lvm_rewrite(path, edit):
    with open(path, "rb") as f:
        img = bytearray(f.read())
    start, size = lvm_mda(img)
    h = start
    if img[h + 4:h + 20] != MDA_MAGIC:
        raise SystemExit("no mda header at %d" % h)
    toff, tsize = struct.unpack_from("<QQ", img, h + 40)
    text = img[h + toff:h + toff + tsize].decode()
    seq = int(re.search(r"seqno = (\d+)", text).group(1))
    new = edit(text.replace("seqno = %d" % seq, "seqno = %d" % (seq + 1), 1))
    data = new.encode()
    noff = (toff + tsize + 511) // 512 * 512
    if noff + len(data) > size:
        noff = 512
    img[h + noff:h + noff + len(data)] = data
    struct.pack_into("<QQII", img, h + 40, noff, len(data), lvm_crc(data), 0)
    struct.pack_into("<I", img, h, lvm_crc(bytes(img[h + 4:h + 512])))
    with open(path, "r+b") as f:
        f.write(img)


def lv_area(text, lv, area):
    """Put LV @lv's first segment on @area (a PV or LV name, extent)."""
    m = re.search(r"\n\t*%s \{" % re.escape(lv), text)
    if not m:
        raise SystemExit("no LV %s" % lv)
    s = re.compile(r'stripes = \[\s*"[^"]+", \d+\s*\]')
    at = s.search(text, m.end())
    return text[:at.start()] + 'stripes = [\n"%s", %d\n]' % area + text[at.end():]


def lvm_past(path):
    lvm_rewrite(path, lambda t: lv_area(t, "past", ("pv0", 9000)))


def lvm_loop(path):
    def edit(t):
        for lv, on in (("a", "b"), ("b", "a"), ("self", "self")):
            t = lv_area(t, lv, (on, 0))
        return t
    lvm_rewrite(path, edit)


def md(path, ext4):
    here = os.path.dirname(os.path.abspath(__file__))
    sys.path.insert(0, os.path.join(here, "..", "..", "fixtures", "md"))
    import make  # noqa: E402 - the fixtures' writer of the documented layout
    data = os.path.getsize(ext4) // 512
    uuid = bytes(range(0xA0, 0xB0))
    sb = make.sb1(8, uuid, "hostile:huge", 1, 2**32 - 1, data, 2048, data,
                  0, [0], 20, max_dev=384)
    with open(path, "wb") as f:
        f.truncate(16 << 20)
        f.seek(4096)
        f.write(sb)
        with open(ext4, "rb") as e:
            f.seek(2048 * 512)
            f.write(e.read())


def crc32c(buf):
    table = []
    for i in range(256):
        c = i
        for _ in range(8):
            c = (c >> 1) ^ 0x82F63B78 if c & 1 else c >> 1
        table.append(c)
    c = 0xFFFFFFFF
    for b in buf:
        c = table[(c ^ b) & 0xFF] ^ (c >> 8)
    return c ^ 0xFFFFFFFF


def btrfs(path):
    size = os.path.getsize(path)
    done = 0
    with open(path, "r+b") as f:
        for at in (64 << 10, 64 << 20, 256 << 30):
            if at + 4096 > size:
                continue
            f.seek(at)
            sb = bytearray(f.read(4096))
            if sb[0x40:0x48] != b"_BHRfS_M":
                continue
            struct.pack_into("<Q", sb, 0x58, 1 << 50)  # chunk_root
            sb[0:32] = struct.pack("<I", crc32c(sb[32:])) + bytes(28)
            f.seek(at)
            f.write(sb)
            done += 1
    if not done:
        raise SystemExit("no btrfs superblock")
    print("btrfs: %d superblock copies patched" % done)


def fat(path, showfat):
    clusters = []
    for a, b in re.findall(r"<(\d+)(?:-(\d+))?>", showfat):
        clusters += range(int(a), int(b or a) + 1)
    if len(clusters) < 2:
        raise SystemExit("chain too short: " + showfat)
    with open(path, "r+b") as f:
        img = bytearray(f.read())
        bps, spc, rsv, nfat = struct.unpack_from("<HBHB", img, 11)
        fatsz = struct.unpack_from("<H", img, 22)[0]
        for i in range(nfat):
            base = (rsv + i * fatsz) * bps
            struct.pack_into("<H", img, base + 2 * clusters[-1], clusters[0])
        claim = 32 << 20
        for name in (b"BOOTX64 EFI", b"GRUBX64 EFI"):
            hits = [m.start() for m in re.finditer(re.escape(name), img)
                    if m.start() % 32 == 0]
            if len(hits) != 1:
                raise SystemExit("%d entries %s" % (len(hits), name))
            struct.pack_into("<H", img, hits[0] + 20, clusters[0] >> 16)
            struct.pack_into("<HI", img, hits[0] + 26, clusters[0] & 0xFFFF, claim)
        f.seek(0)
        f.write(img)


case = sys.argv[1]
if case == "lvm-past":
    lvm_past(sys.argv[2])
elif case == "lvm-loop":
    lvm_loop(sys.argv[2])
elif case == "md":
    md(sys.argv[2], sys.argv[3])
elif case == "btrfs":
    btrfs(sys.argv[2])
elif case == "fat":
    fat(sys.argv[2], sys.argv[3])
else:
    raise SystemExit("unknown case " + case)
