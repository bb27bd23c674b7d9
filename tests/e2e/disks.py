"""tests/e2e/disks.py - disk images the e2e tests make and check."""
import hashlib
import os
import re
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


def _run(*cmd, data=None):
    r = subprocess.run(list(cmd), input=data, capture_output=True)
    if r.returncode != 0:
        raise AssertionError("%s failed: %s" % (cmd[0], r.stderr.decode(errors="replace").strip()))
    return r.stdout.decode(errors="replace")


def luks_volume(path, payload, passphrase, version=2, kdf="argon2id", label=None,
                mem_kib=32768, reserve_mib=8):
    """A LUKS volume at @path whose data is the bytes of file @payload,
    encrypted offline by Debian's cryptsetup with no device-mapper: the
    payload with @reserve_mib MiB more, `cryptsetup reencrypt --encrypt
    --reduce-device-size` (which moves the data past a new header), and
    for @version 1 `cryptsetup convert --type luks1` of a LUKS2 volume with
    one PBKDF2 keyslot (cryptsetup cannot encrypt LUKS1 offline here).
    @kdf: "argon2id" (its time cost 4 and @mem_kib KiB, small for the test
    VM) or "pbkdf2" (sha256, 1000 iterations). aes-xts-plain64, 512-bit
    key. Returns the volume's UUID."""
    if os.path.exists(path):
        os.unlink(path)
    shutil.copy(payload, path)
    with open(path, "r+b") as f:
        f.truncate(os.path.getsize(payload) + (reserve_mib << 20))
    cmd = ["cryptsetup", "reencrypt", "--encrypt", "--type", "luks2", "-q",
           "--batch-mode", "--key-file", "-", "--cipher", "aes-xts-plain64",
           "--key-size", "512", "--reduce-device-size", "%dM" % reserve_mib,
           "--sector-size", "512"]
    if kdf == "pbkdf2" or version == 1:
        cmd += ["--pbkdf", "pbkdf2", "--hash", "sha256", "--pbkdf-force-iterations", "1000"]
    else:
        cmd += ["--pbkdf", kdf, "--pbkdf-memory", str(mem_kib),
                "--pbkdf-force-iterations", "4", "--pbkdf-parallel", "1"]
    if label and version == 2:
        cmd += ["--label", label]
    _run(*(cmd + [path]), data=passphrase.encode())
    if version == 1:
        _run("cryptsetup", "convert", "--type", "luks1", "-q", path)
    return _run("cryptsetup", "luksUUID", path).strip()


def luks_plain(path, passphrase, off, n):
    """@n bytes at byte @off of the decrypted data of LUKS volume @path
    (aes-xts-plain64), read with the volume key cryptsetup gives for
    @passphrase: a check that a volume built here holds what was meant,
    before any guest reads it. dm-crypt's plain64 IV counts 512-byte
    sectors whatever the encryption sector size (dm-crypt.rst,
    iv_large_sectors unset)."""
    from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
    import tempfile
    dump = _run("cryptsetup", "luksDump", path)
    if re.search(r"^Version:\s+1\s*$", dump, re.M):
        start, ss = int(dump.split("Payload offset:")[1].split()[0]) * 512, 512
    else:
        seg = dump.split("Data segments:")[1]
        start = int(seg.split("offset:")[1].split()[0])
        ss = int(seg.split("sector:")[1].split()[0])
    with tempfile.TemporaryDirectory() as d:
        kf = os.path.join(d, "vk")
        _run("cryptsetup", "luksDump", "--dump-volume-key", "-q", "--key-file", "-",
             "--volume-key-file", kf, path, data=passphrase.encode())
        with open(kf, "rb") as f:
            key = f.read()
    out = b""
    first, last = off // ss, (off + n - 1) // ss
    with open(path, "rb") as f:
        for sec in range(first, last + 1):
            f.seek(start + sec * ss)
            tweak = (sec * ss // 512).to_bytes(16, "little")
            dec = Cipher(algorithms.AES(key), modes.XTS(tweak)).decryptor()
            out += dec.update(f.read(ss)) + dec.finalize()
    return out[off - first * ss:off - first * ss + n]


def gpt_disk(path, parts, size_mib):
    """A GPT disk of @size_mib MiB at @path made by sfdisk on the file:
    @parts [(MiB, GPT type, image file or None, name)], each image copied
    in at its partition's first byte. Returns the partitions' byte
    offsets."""
    if os.path.exists(path):
        os.unlink(path)
    with open(path, "wb") as f:
        f.truncate(size_mib << 20)
    script = "label: gpt\n" + "".join(
        "size=%dMiB, type=%s, name=%s\n" % (mib, kind, name)
        for mib, kind, _, name in parts)
    _run("sfdisk", "-q", "--no-reread", "--no-tell-kernel", path, data=script.encode())
    import json
    table = json.loads(_run("sfdisk", "-J", path))["partitiontable"]
    offs = [p["start"] * table.get("sectorsize", 512) for p in table["partitions"]]
    for (mib, _, image, _), off in zip(parts, offs):
        if image:
            if os.path.getsize(image) > mib << 20:
                raise AssertionError("%s does not fit in %d MiB" % (image, mib))
            put_at(path, image, off)
    return offs


# LUKS2 binary header (LUKS2 On-Disk Format 2.1): magic 0, version 6,
# hdr_size 8 (binary header and JSON area), seqid 16, csum_alg 72, csum 448
# (64 bytes); the JSON area follows at 4096, the secondary copy at hdr_size.
L2_BIN = 4096
L2_CSUM = 448


def luks2_copies(path):
    """[(byte offset, hdr_size)] of the primary and secondary LUKS2 headers
    of @path, the size from the secondary's own field."""
    with open(path, "rb") as f:
        b = f.read(L2_BIN)
        if b[:6] != b"LUKS\xba\xbe" or b[6:8] != b"\x00\x02":
            raise AssertionError("%s: no LUKS2 primary header" % path)
        size = int.from_bytes(b[8:16], "big")
        return [(0, size), (size, size)]


def luks2_rewrite(path, edit):
    """Rewrite both JSON areas of the LUKS2 volume @path with @edit(metadata
    dict), which returns the new dict (written as JSON) or bytes (written as
    they are), then both binary headers' SHA-256 checksums made right again
    (LUKS2 2.1: over the whole header area, the csum field zeroed), so the
    header is valid as a header and only what @edit wrote is odd."""
    import json
    for off, size in luks2_copies(path):
        with open(path, "r+b") as f:
            f.seek(off)
            hdr = bytearray(f.read(size))
            if hdr[72:80].rstrip(b"\0") != b"sha256":
                raise AssertionError("checksum %r, not sha256" % bytes(hdr[72:104]))
            meta = json.loads(hdr[L2_BIN:].split(b"\0", 1)[0])
            new = edit(meta)
            if not isinstance(new, bytes):
                new = json.dumps(new, separators=(",", ":")).encode()
            if len(new) > size - L2_BIN:
                raise AssertionError("the new JSON does not fit the area")
            hdr[L2_BIN:] = new + bytes(size - L2_BIN - len(new))
            hdr[L2_CSUM:L2_CSUM + 64] = bytes(64)
            hdr[L2_CSUM:L2_CSUM + 32] = hashlib.sha256(hdr).digest()
            f.seek(off)
            f.write(hdr)


def luks2_zero_primary(path):
    """The primary LUKS2 binary header zeroed (its JSON area stays): only
    the secondary copy says anything."""
    with open(path, "r+b") as f:
        f.write(bytes(L2_BIN))
