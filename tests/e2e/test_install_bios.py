#!/usr/bin/env python3
"""bootmenu-install --bios on an MBR disk, then SeaBIOS boots that disk.

The disk: an MBR whose first 440 bytes hold another loader's boot code
(a stand-in pattern), one ext4 partition with /etc/lilo.conf and a kernel
(the demo's lilo partition). The installer runs on the host, as a user
would, with the partition mounted through a loop device (partx adds its
partition). Then SeaBIOS boots the disk alone: mbr.bin -> extlinux ->
bootmenu.efi -> the lilo.conf default boots. Then --uninstall puts the
first 440 bytes back byte for byte and removes bootmenu's files."""
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(__file__))
from qemu import Qemu, check, need  # noqa: E402

B = os.path.abspath(sys.argv[1])
EFI = os.path.join(B, "bootmenu.efi")
INST = os.path.join(B, "host", "bootmenu-install")
W = os.path.join(B, "e2e-install-bios")
DISK = os.path.join(W, "bios.img")
OLD = bytes((i * 7 + 3) & 0xFF for i in range(440))  # "another loader"


def run(*cmd):
    r = subprocess.run(list(cmd), capture_output=True, text=True)
    if r.returncode != 0:
        raise AssertionError("%s: rc %d: %s%s" % (" ".join(cmd), r.returncode, r.stdout, r.stderr))
    return r.stdout


def make_disk(code=OLD):
    """DISK: @code in the first 440 bytes, one ext4 partition holding the
    demo's lilo tree."""
    os.makedirs(W, exist_ok=True)
    part = os.path.join(W, "part.ext4")
    # the demo's lilo tree; ext4 features syslinux 6.04 reads
    run("mke2fs", "-q", "-F", "-t", "ext4", "-O", "^metadata_csum,^64bit,^orphan_file",
        "-L", "slackware", "-d", need(os.path.join(B, "demo", "lilo")), part, "48M")
    with open(DISK, "wb") as f:
        f.truncate((1 + 48) << 20)
    run("sh", "-c", "printf 'label: dos\\nstart=2048, type=83\\n' | sfdisk -q %s" % DISK)
    with open(part, "rb") as s, open(DISK, "r+b") as d:
        d.write(code)
        d.seek(1 << 20)
        d.write(s.read())
    os.unlink(part)


class Mounted:
    """DISK on a loop device, its partition added by partx and mounted."""

    def __enter__(self):
        self.dev = run("losetup", "-f", "--show", DISK).strip()
        self.mnt = tempfile.mkdtemp(dir=W)
        try:
            run("partx", "-a", self.dev)
            run("mount", self.dev + "p1", self.mnt)
        except AssertionError:
            self.__exit__()
            raise
        return self

    def __exit__(self, *exc):
        # a process just killed (test_powercut.py) may hold it a moment
        for _ in range(50):
            if subprocess.run(["umount", self.mnt], capture_output=True).returncode == 0:
                break
            time.sleep(0.1)
        os.rmdir(self.mnt)
        subprocess.run(["partx", "-d", self.dev])
        subprocess.run(["losetup", "-d", self.dev])


def first440():
    with open(DISK, "rb") as f:
        return f.read(440)


def install_boot_uninstall():
    make_disk()
    with open(DISK, "rb") as f:
        table = f.read(512)[440:]
    with Mounted() as m:
        out = run(INST, "--bios", m.dev, "--boot-dir", m.mnt, "--force-bios",
                  "--image", need(EFI))
        for f in ("bootmenu.efi", "extlinux.conf", "ldlinux.sys"):
            if not os.path.exists(os.path.join(m.mnt, "bootmenu", f)):
                raise AssertionError("no bootmenu/%s after install: %s" % (f, out))
    with open("/usr/lib/syslinux/mbr/mbr.bin", "rb") as f:
        mbr = f.read()
    if first440() != mbr[:440]:
        raise AssertionError("the first 440 bytes are not syslinux's mbr.bin")
    with open(DISK, "rb") as f:
        after = f.read(512)[440:]
    if after[:6] != table[:6] or after[6 + 64:] != table[6 + 64:]:
        raise AssertionError("disk signature or boot signature changed")
    q = Qemu(B, "install-bios", disks=[{"file": DISK, "snapshot": True}])
    try:
        q.expect(r"Run /init as init process", 240)
        got = q.expect(r"BOOTMENU-TARGET: booted entry=(\S+)", 240).group(1)
    finally:
        q.close()
    if got != "lilo":
        raise AssertionError("booted %s, want lilo (the lilo.conf default)" % got)
    with Mounted() as m:
        run(INST, "--uninstall", "--boot-dir", m.mnt)
        left = os.listdir(m.mnt)
        if "bootmenu" in left and os.listdir(os.path.join(m.mnt, "bootmenu")):
            raise AssertionError("files left: %s" % os.listdir(os.path.join(m.mnt, "bootmenu")))
    if first440() != OLD:
        raise AssertionError("--uninstall did not restore the first 440 bytes")
    os.unlink(DISK)


if __name__ == "__main__":
    ok = check("e2e.install.bios_extlinux_boots_lilo_entry_and_uninstall_restores",
               install_boot_uninstall)
    sys.exit(0 if ok else 1)
