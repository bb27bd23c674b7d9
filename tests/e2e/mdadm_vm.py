"""md RAID1 members written by Debian's mdadm, in a builder VM.

This machine's kernel has no md driver, so the arrays are made in a QEMU
guest running Debian's own kernel (BUILD/debkernel, scripts/debian-kernel.sh)
with its md-mod and raid1 modules and Debian's mdadm (this machine's, or
its package taken apart, not installed) with the libraries it links (and kmod's insmod), all in an
initramfs made here. Each
member is a raw file attached as a virtio disk named by its serial; the
array's content is copied in through /dev/mdN with dd, from an image
attached the same way. Issue #37, item 2: a shared misreading of md's
layout between bootmenu and the test's own writer (tests/fixtures/md/
make.py) would otherwise pass unseen.

    arrays = [Array("md12", "1.2", ["a", "b"], "boot.ext4"), ...]
    build(B, W, arrays)

An Array's members are files W/<name>-<member>.img of @member_mib MiB;
"missing" in place of a member makes a degraded mirror; @stale (an image)
makes the first member newer: the array is stopped, assembled from the
first member alone and @stale written through it, so the other member is
left behind by event count. Raises Skip when mdadm, Debian's kernel or
its modules are not on this machine."""
import os
import shutil
import subprocess

from qemu import Qemu, Skip

# in the order they load (modules.dep: virtio needs virtio_ring's symbols)
MODULES = ["kernel/drivers/virtio/virtio_ring.ko", "kernel/drivers/virtio/virtio.ko",
           "kernel/drivers/virtio/virtio_pci_legacy_dev.ko",
           "kernel/drivers/virtio/virtio_pci_modern_dev.ko",
           "kernel/drivers/virtio/virtio_pci.ko", "kernel/drivers/block/virtio_blk.ko",
           "kernel/drivers/md/md-mod.ko", "kernel/drivers/md/raid1.ko"]


class Array:
    def __init__(self, name, metadata, members, image, stale=None, member_mib=40):
        self.name, self.metadata, self.members = name, metadata, members
        self.image, self.stale, self.member_mib = image, stale, member_mib

    def paths(self, w):
        """The member files, "missing" left out, in member order."""
        return [os.path.join(w, "%s-%s.img" % (self.name, m))
                for m in self.members if m != "missing"]


def _libs(binary):
    """The shared libraries @binary loads, with the loader (ldd's paths)."""
    out = subprocess.run(["ldd", binary], capture_output=True, text=True).stdout
    libs = []
    for line in out.splitlines():
        parts = line.split()
        path = parts[2] if "=>" in parts and len(parts) > 2 else parts[0]
        if path.startswith("/"):
            libs.append(path)
    return libs


def _script(arrays):
    """The builder's /init: load the modules, make each array, power off."""
    lines = ["#!/bin/busybox sh", "/bin/busybox --install -s /bin",
             "mount -t proc proc /proc; mount -t sysfs sys /sys",
             "mount -t devtmpfs dev /dev; mkdir -p /run /tmp /etc/mdadm",
             "for m in %s; do /sbin/insmod /lib/modules/$m || echo INSMOD-FAIL $m; done" %
             " ".join(os.path.basename(m) for m in MODULES),
             "sleep 1",
             # a disk's serial names it: /dev/disk-<serial>
             "for d in /sys/block/vd*; do s=$(cat $d/serial); "
             "ln -s /dev/${d##*/} /dev/disk-$s; done",
             "set -x"]
    for i, a in enumerate(arrays):
        devs = " ".join("missing" if m == "missing" else "/dev/disk-%s-%s" % (a.name, m)
                        for m in a.members)
        lines += ["mdadm --create /dev/md%d --run --assume-clean --level=1 "
                  "--raid-devices=%d --metadata=%s --homehost=bootmenu-test "
                  "--name=%s %s || echo MDADM-FAIL %s" % (
                      i, len(a.members), a.metadata, a.name, devs, a.name),
                  "dd if=/dev/disk-%s-image of=/dev/md%d bs=1M || echo MDADM-FAIL dd %s"
                  % (a.name, i, a.name),
                  "mdadm --stop /dev/md%d" % i]
        if a.stale:
            first = "/dev/disk-%s-%s" % (a.name, a.members[0])
            lines += ["mdadm --assemble /dev/md%d --run %s || echo MDADM-FAIL %s" % (
                          i, first, a.name),
                      "dd if=/dev/disk-%s-stale of=/dev/md%d bs=1M || echo MDADM-FAIL dd %s"
                      % (a.name, i, a.name),
                      "mdadm --stop /dev/md%d" % i]
        lines += ["mdadm --examine %s" % " ".join(
            "/dev/disk-%s-%s" % (a.name, m) for m in a.members if m != "missing")]
    lines += ["sync", "echo BUILDER-DONE", "poweroff -f"]
    return "\n".join(lines) + "\n"


def _mdadm(w):
    """mdadm from this machine, else Debian's package taken apart under
    @w (apt-get download; installing it would add its hook to the Debian
    initrd the other tests use); None when neither works."""
    found = shutil.which("mdadm")
    if found:
        return found
    d = os.path.join(w, "mdadm-deb")
    got = os.path.join(d, "x", "sbin", "mdadm")
    if not os.path.exists(got):
        shutil.rmtree(d, ignore_errors=True)
        os.makedirs(d)
        r = subprocess.run(["apt-get", "download", "-q", "mdadm"], cwd=d,
                           capture_output=True)
        debs = [f for f in os.listdir(d) if f.endswith(".deb")]
        if r.returncode != 0 or not debs:
            return None
        subprocess.run(["dpkg-deb", "-x", os.path.join(d, debs[0]), os.path.join(d, "x")],
                       check=True)
    return got if os.path.exists(got) else None


def _initramfs(b, w, arrays):
    deb = os.path.join(b, "debkernel")
    ver = open(os.path.join(deb, "VERSION")).read().strip() \
        if os.path.exists(os.path.join(deb, "VERSION")) else ""
    mods = "/lib/modules/%s" % ver
    mdadm = _mdadm(w) or "mdadm (Debian's package)"
    kmod = shutil.which("kmod") or "kmod"
    missing = [p for p in [os.path.join(deb, "vmlinuz"), mdadm, kmod] +
               [os.path.join(mods, m) for m in MODULES] if not os.path.exists(p)]
    if not ver or missing:
        raise Skip("no %s: Debian's kernel (scripts/debian-kernel.sh), its modules, "
                   "kmod and mdadm (Debian's package) make the md images" %
                   (", ".join(missing) or "debkernel/VERSION"))
    root = os.path.join(w, "mdadm-builder")
    shutil.rmtree(root, ignore_errors=True)
    for d in ("bin", "sbin", "proc", "sys", "dev", "lib/modules"):
        os.makedirs(os.path.join(root, d))
    shutil.copy(os.path.join(b, "sysroot", "bin", "busybox"), os.path.join(root, "bin"))
    shutil.copy(mdadm, os.path.join(root, "sbin", "mdadm"))
    # bootmenu's busybox has no insmod: kmod's, which answers to that name
    shutil.copy(kmod, os.path.join(root, "sbin", "kmod"))
    os.symlink("kmod", os.path.join(root, "sbin", "insmod"))
    for lib in _libs(mdadm) + _libs(kmod):
        dst = os.path.join(root, lib.lstrip("/"))
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        shutil.copy(lib, dst)
    for m in MODULES:
        shutil.copy(os.path.join(mods, m), os.path.join(root, "lib", "modules"))
    with open(os.path.join(root, "init"), "w") as f:
        f.write(_script(arrays))
    os.chmod(os.path.join(root, "init"), 0o755)
    cpio = os.path.join(w, "mdadm-builder.cpio")
    with open(cpio, "wb") as out:
        files = subprocess.run(["find", "."], cwd=root, capture_output=True,
                               check=True).stdout
        subprocess.run(["cpio", "-o", "-H", "newc", "--quiet"], cwd=root, input=files,
                       stdout=out, check=True)
    return os.path.join(deb, "vmlinuz"), cpio


def _drive(path, serial):
    n = serial.replace("-", "_")
    return ["-drive", "file=%s,format=raw,if=none,id=%s" % (path, n),
            "-device", "virtio-blk-pci,drive=%s,serial=%s" % (n, serial)]


def build(b, w, arrays):
    """Make every array of @arrays in one builder VM; the member files are
    W/<name>-<member>.img. Returns mdadm --examine's output."""
    kernel, initrd = _initramfs(b, w, arrays)
    extra = ["-nic", "none"]
    for a in arrays:
        for m in a.members:
            if m == "missing":
                continue
            p = os.path.join(w, "%s-%s.img" % (a.name, m))
            with open(p, "wb") as f:
                f.truncate(a.member_mib << 20)
            extra += _drive(p, "%s-%s" % (a.name, m))
        extra += _drive(a.image, a.name + "-image")
        if a.stale:
            extra += _drive(a.stale, a.name + "-stale")
    q = Qemu(b, "mdadm-builder", kernel=kernel, initrd=initrd, mem=512,
             append="console=ttyS0,115200 rdinit=/init panic=-1", extra=extra,
             snapshot=False)
    try:
        q.expect(r"BUILDER-DONE", 600)
        out = q.output()
    finally:
        q.close()
    for bad in ("MDADM-FAIL", "INSMOD-FAIL"):
        if bad in out:
            line = out[out.index(bad):].splitlines()[0]
            raise AssertionError("the mdadm builder VM: " + line)
    return out
