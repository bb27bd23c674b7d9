"""tests/e2e/disks.py - disk images the e2e tests make and check."""
import hashlib
import os
import shutil
import subprocess


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def fill_tree(root, files):
    """A fresh directory @root holding @files ({path in fs: host file to
    copy, or str content})."""
    shutil.rmtree(root, ignore_errors=True)
    for name, src in files.items():
        dst = os.path.join(root, name.lstrip("/"))
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        if src.startswith("/") and os.path.isfile(src):
            shutil.copy(src, dst)
        else:
            with open(dst, "w") as f:
                f.write(src)


def dirty_ext4(path, root, files, label="dirty", uuid=None):
    """A 16 MB ext4 at @path holding @files ({path in fs: host file or
    str content}), built from scratch dir @root, with its journal marked as
    needing recovery (what an unclean shutdown leaves)."""
    fill_tree(root, files)
    if os.path.exists(path):
        os.unlink(path)
    cmd = ["mke2fs", "-q", "-F", "-t", "ext4", "-L", label]
    if uuid:
        cmd += ["-U", uuid]
    subprocess.run(cmd + ["-d", root, path, "16M"], check=True)
    subprocess.run(["debugfs", "-w", "-R", "feature needs_recovery", path],
                   check=True, capture_output=True)
    out = subprocess.run(["dumpe2fs", "-h", path], capture_output=True, text=True).stdout
    if "needs_recovery" not in out:
        raise AssertionError("could not mark the journal as needing recovery")


def stick_ext4(path, root, files, label="stick", size="16M", big=None):
    """A whole-disk ext4 for a USB stick at @path holding @files ({path in
    fs: host file or str content}), built from scratch dir @root. @big,
    (path in fs, MiB), appends that many MiB of pseudo-random bytes
    (incompressible, so QEMU has to move every byte) to that file, made
    when it is not in @files: it is read slowly."""
    fill_tree(root, files)
    if big:
        dst = os.path.join(root, big[0].lstrip("/"))
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        with open(dst, "ab") as f:
            h = hashlib.sha256(b"stick")
            for _ in range(big[1] * 1024 * 1024 // 32):
                d = h.digest()
                f.write(d)
                h = hashlib.sha256(d)
    if os.path.exists(path):
        os.unlink(path)
    subprocess.run(["mke2fs", "-q", "-F", "-t", "ext4", "-L", label,
                    "-d", root, path, size], check=True, stdout=subprocess.DEVNULL)


def ext4_image(path, root, files, label, size_mib):
    """A plain ext4 of @size_mib MiB at @path holding @files."""
    fill_tree(root, files)
    if os.path.exists(path):
        os.unlink(path)
    subprocess.run(["mke2fs", "-q", "-F", "-t", "ext4", "-L", label, "-d", root,
                    path, "%dM" % size_mib], check=True, stdout=subprocess.DEVNULL)


def put_at(dst, src, offset):
    """Copy file @src into file @dst at byte @offset, in place."""
    with open(src, "rb") as s, open(dst, "r+b") as d:
        d.seek(offset)
        shutil.copyfileobj(s, d, 1 << 20)


LVM_CONF = ('devices{filter=["a|^/dev/loop|","r|.*|"] use_devicesfile=0 '
            'obtain_device_list_from_udev=0} '
            'activation{udev_sync=0 udev_rules=0 monitoring=0}')


def _lvm(*args):
    """One lvm2 command that needs no device-mapper driver."""
    env = dict(os.environ, LVM_SUPPRESS_FD_WARNINGS="1")
    r = subprocess.run(list(args) + ["--driverloaded", "n", "--config", LVM_CONF],
                       capture_output=True, text=True, env=env)
    if r.returncode != 0:
        raise AssertionError("%s failed: %s" % (args[0], r.stderr.strip()))
    return r.stdout


def lvm_disk(path, vg, lvs, size_mib=64):
    """A whole disk at @path that is one LVM2 physical volume of volume
    group @vg, written by Debian's lvm2 on a loop device without a
    device-mapper driver. @lvs: [(name, MiB, ext4 image or None)]; each
    image is copied in at its LV's first extent (every LV here is one
    linear run). Needs root and /dev/loop-control."""
    steps = [("create", name, mib) for name, mib, _ in lvs]
    images = {name: image for name, _, image in lvs if image}
    runs = lvm_disks([path], vg, steps, images, size_mib)
    return {name: r[0][1] for name, r in runs.items()}


def lvm_disks(paths, vg, steps, images, size_mib=64):
    """Whole disks at @paths, the physical volumes of volume group @vg in
    that order, written by lvm2 as lvm_disk() does. @steps: [("create" or
    "extend", LV name, MiB)] run in order, so an LV extended after another
    was created lies in several runs, and one larger than what is left on
    a PV goes on to the next; "striped" creates an LV striped over every PV
    with 64 KiB chunks (lvcreate -i N -I 64k). @images: {LV name: ext4
    image}, each written across its LV's runs in the LV's order (a
    striped LV's chunks round its stripes). Returns {LV: [(path, byte
    offset, bytes)]}, the runs in order (a striped LV's: its stripes)."""
    devs = {}
    for path in paths:
        if os.path.exists(path):
            os.unlink(path)
        with open(path, "wb") as f:
            f.truncate(size_mib << 20)
    try:
        for path in paths:
            devs[subprocess.run(["losetup", "-f", "--show", path], check=True,
                                capture_output=True, text=True).stdout.strip()] = path
        for dev in devs:
            _lvm("pvcreate", "--metadatasize", "1m", "--dataalignment", "1m", dev)
        _lvm("vgcreate", "-s", "1m", vg, *devs)
        for op, name, mib in steps:
            if op == "create":
                _lvm("lvcreate", "-an", "-Zn", "-L", "%dM" % mib, "-n", name, vg)
            elif op == "striped":
                _lvm("lvcreate", "-an", "-Zn", "-i", str(len(devs)), "-I", "64k",
                     "-L", "%dM" % mib, "-n", name, vg)
            else:
                _lvm("lvextend", "-L", "+%dM" % mib, "%s/%s" % (vg, name))
        pe_start = int(_lvm("pvs", "--noheadings", "--units", "b", "--nosuffix",
                            "-o", "pe_start", next(iter(devs))).split()[0])
        segs, striped = [], set()
        for line in _lvm("lvs", "--segments", "--noheadings", "-o",
                         "lv_name,seg_start_pe,seg_pe_ranges", vg).splitlines():
            name, start, *ranges = line.split()
            for i, r in enumerate(ranges):  # a striped segment: each stripe
                dev, pes = r.rsplit(":", 1)
                first, last = (int(x) for x in pes.split("-"))
                segs.append((name, int(start) + i, devs[dev],
                             pe_start + first * (1 << 20), (last - first + 1) << 20))
            if len(ranges) > 1:
                striped.add(name)
    finally:
        for dev in devs:
            subprocess.run(["losetup", "-d", dev], check=False)
    runs = {}
    for name, _, path, off, size in sorted(segs, key=lambda t: (t[0], t[1])):
        runs.setdefault(name, []).append((path, off, size))
    for name, image in images.items():
        with open(image, "rb") as src:
            if name in striped:
                _write_striped(src, runs[name], 64 << 10)
                continue
            for path, off, size in runs[name]:
                with open(path, "r+b") as d:
                    d.seek(off)
                    d.write(src.read(size))
    return runs


def _write_striped(src, stripes, chunk):
    """The bytes of @src round @stripes [(path, offset, size)] @chunk at a
    time, as dm-stripe reads them."""
    i = 0
    while True:
        data = src.read(chunk)
        if not data:
            return
        path, off, size = stripes[i % len(stripes)]
        at = (i // len(stripes)) * chunk
        if at + len(data) > size:
            raise AssertionError("the image is larger than the striped LV")
        with open(path, "r+b") as d:
            d.seek(off + at)
            d.write(data)
        i += 1


def md_member(path, image, version, index, uuid, name="e2e:boot",
              roles=(0, 1), events=20):
    """Member @index of a two-disk md RAID1 at @path, written from the
    documented superblock layout (tests/fixtures/md/make.py), holding the
    bytes of @image as the array's data. @version "1.2" (superblock 4 KiB
    in, data at 1 MiB) or "0.90" (superblock in the last 64 KiB-aligned
    64 KiB, data at 0)."""
    import importlib.util
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location(
        "md_make", os.path.join(here, "..", "fixtures", "md", "make.py"))
    mk = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mk)
    data = os.path.getsize(image)
    if version == "1.2":
        doff, dsize = 2048, data // 512
        dev = (doff + dsize) * 512
        sb = mk.sb1(8, uuid, name, 1, 2, dsize, doff, dsize, index,
                    list(roles), events)
        sb_at = 8 * 512
    else:
        dev = data + 128 * 1024
        sb_at = (dev & ~0xFFFF) - 0x10000
        words = [int.from_bytes(uuid[i:i + 4], "little") for i in range(0, 16, 4)]
        sb = mk.sb0(words, 0, 1, 2, sb_at // 1024, events, index)
        doff = 0
    with open(path, "wb") as f:
        f.truncate(dev)
        f.seek(sb_at)
        f.write(sb)
    put_at(path, image, doff * 512)
