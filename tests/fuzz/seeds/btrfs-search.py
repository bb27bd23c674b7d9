"""btrfs-search.py MNT DIR - make-real.sh's btrfs part: subvolumes on the
btrfs mounted at MNT, then scan/btrfs.c's three searches of the root tree
asked through BTRFS_IOC_TREE_SEARCH, each answer written to DIR as a
fuzz_btrfs_search seed (the item count in one byte, then the headers and
items the kernel copied out)."""
import fcntl
import os
import struct
import subprocess
import sys

SEARCH = 0xD0009411  # _IOWR(0x94, 17, struct btrfs_ioctl_search_args)
KEY = struct.Struct("<7Q4I4Q")  # btrfs_ioctl_search_key, 104 bytes
HDR = struct.Struct("<3Q2I")  # btrfs_ioctl_search_header
ROOT_TREE, DIR_ITEM, ROOT_BACKREF = 1, 84, 144
LAST_FREE = 2**64 - 256


def search(fd, minobj, maxobj, mintype, maxtype, minoff=0):
    key = KEY.pack(ROOT_TREE, minobj, maxobj, minoff, 2**64 - 1, 0, 2**64 - 1,
                   mintype, maxtype, 64, 0, 0, 0, 0, 0)
    buf = bytearray(key + bytes(4096 - KEY.size))
    fcntl.ioctl(fd, SEARCH, buf)
    n = struct.unpack_from("<I", buf, 64)[0]
    off = KEY.size
    last = None
    for _ in range(n):
        h = HDR.unpack_from(buf, off)
        last = h
        off += HDR.size + h[4]
    return bytes([n]) + bytes(buf[KEY.size:off]), last


def subvol(mnt, path, snap_of=None):
    cmd = ["btrfs", "-q", "subvolume"]
    cmd += ["snapshot", os.path.join(mnt, snap_of)] if snap_of else ["create"]
    subprocess.run(cmd + [os.path.join(mnt, path)], check=True)


def subvol_id(mnt, path):
    out = subprocess.run(["btrfs", "inspect-internal", "rootid", os.path.join(mnt, path)],
                         check=True, capture_output=True, text=True).stdout
    return int(out)


def main(mnt, d):
    fd = os.open(mnt, os.O_RDONLY | os.O_DIRECTORY)
    out = lambda name, b: open(os.path.join(d, "real-" + name), "wb").write(b)
    # mkfs's own "default" item, pointing at the top level
    out("default-mkfs", search(fd, 6, 6, DIR_ITEM, DIR_ITEM)[0])
    subvol(mnt, "@")
    subvol(mnt, "@/.snapshots")
    for n in (1, 2, 3):
        os.makedirs(os.path.join(mnt, "@/.snapshots/%d" % n))
        subvol(mnt, "@/.snapshots/%d/snapshot" % n, "@" if n > 1 else None)
    one = subvol_id(mnt, "@/.snapshots/1/snapshot")
    subprocess.run(["btrfs", "subvolume", "set-default", str(one), mnt], check=True)
    out("default-set", search(fd, 6, 6, DIR_ITEM, DIR_ITEM)[0])
    out("backref-snapshot", search(fd, one, one, ROOT_BACKREF, ROOT_BACKREF)[0])
    at = subvol_id(mnt, "@")
    out("backref-top", search(fd, at, at, ROOT_BACKREF, ROOT_BACKREF)[0])
    out("subvols", search(fd, 256, LAST_FREE, ROOT_BACKREF, ROOT_BACKREF)[0])
    for n in range(70):
        subvol(mnt, "@/.snapshots/s%02d" % n, "@")
    page, last = search(fd, 256, LAST_FREE, ROOT_BACKREF, ROOT_BACKREF)
    out("subvols-page1", page)
    # the next page starts after the last key (scan/btrfs.c's cursor)
    obj, off, typ = last[1], last[2], last[3]
    nxt = (obj, typ, off + 1) if off < 2**64 - 1 else (obj, typ + 1, 0)
    page2 = search(fd, nxt[0], LAST_FREE, nxt[1], ROOT_BACKREF, nxt[2])[0]
    out("subvols-page2", page2)
    os.close(fd)


if __name__ == "__main__":
    main(*sys.argv[1:])
