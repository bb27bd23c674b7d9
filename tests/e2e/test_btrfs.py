#!/usr/bin/env python3
"""/boot on btrfs: the Ubuntu/Debian layout (subvolume @ with the kernels
in @/boot, grub.cfg naming /@/boot/... from the top level), Fedora's
(subvolumes root and home, /boot inside root, blscfg entries naming
/root/boot/..., the saved entry of grubenv as default) and openSUSE's
(the default subvolume is @/.snapshots/1/snapshot, grub.cfg with
btrfs_relative_path; the snapshot menu of snapper's grub plugin, whose
entry for snapshot 2, found in `--list` by its subvolume's name, boots the
kernel inside that snapshot with its rootflags). Each image is made with Debian's btrfs-progs
through a loop mount (root); in QEMU its default entry boots with no key
pressed and the image is byte-identical afterwards (sha256). Also a
/boot stored zstd-compressed, and a btrfs with a log tree left to replay
(as after a power cut), which bootmenu must not replay."""
import gzip
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(__file__))
from qemu import Qemu, check, need  # noqa: E402
from disks import sha256  # noqa: E402

B = os.path.abspath(sys.argv[1])
EFI = os.path.join(B, "bootmenu.efi")
W = os.path.join(B, "e2e-btrfs")
CON = "console=ttyS0,115200"


def run(*cmd):
    r = subprocess.run(list(cmd), capture_output=True, text=True)
    if r.returncode != 0:
        raise AssertionError("%s: %s" % (" ".join(cmd), r.stderr.strip()))
    return r.stdout


def btrfs_image(path, build, uuid=None, opts=""):
    """A 160 MiB btrfs at @path; @build(mnt) fills it while mounted (with
    the mount options @opts too)."""
    os.makedirs(W, exist_ok=True)
    with open(path, "wb") as f:
        f.truncate(160 << 20)
    run("mkfs.btrfs", "-q", "-f", *(["-U", uuid] if uuid else []), path)
    mnt = tempfile.mkdtemp(dir=W)
    run("mount", "-o", "loop" + ("," + opts if opts else ""), path, mnt)
    try:
        build(mnt)
    finally:
        subprocess.run(["umount", mnt])
        os.rmdir(mnt)


def kernel_files(boot):
    os.makedirs(boot, exist_ok=True)
    shutil.copy(need(os.path.join(B, "kernel", "bzImage")), os.path.join(boot, "vmlinuz"))
    shutil.copy(need(os.path.join(B, "target-initrd.cpio.gz")), os.path.join(boot, "initrd.gz"))


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def ubuntu(mnt):
    run("btrfs", "subvolume", "create", os.path.join(mnt, "@"))
    run("btrfs", "subvolume", "create", os.path.join(mnt, "@home"))
    kernel_files(os.path.join(mnt, "@", "boot"))
    write(os.path.join(mnt, "@", "boot", "grub", "grub.cfg"),
          "set timeout=5\nmenuentry 'Ubuntu on btrfs' {\n"
          "  linux /@/boot/vmlinuz root=UUID=x ro rootflags=subvol=@ %s "
          "demo.entry=btrfs-ubuntu target.poweroff\n"
          "  initrd /@/boot/initrd.gz\n}\n" % CON)


def opensuse(mnt):
    run("btrfs", "subvolume", "create", os.path.join(mnt, "@"))
    run("btrfs", "subvolume", "create", os.path.join(mnt, "@", ".snapshots"))
    os.makedirs(os.path.join(mnt, "@", ".snapshots", "1"))
    snap = os.path.join(mnt, "@", ".snapshots", "1", "snapshot")
    run("btrfs", "subvolume", "create", snap)
    kernel_files(os.path.join(snap, "boot"))
    write(os.path.join(snap, "boot", "grub2", "grub.cfg"),
          "set btrfs_relative_path=\"y\"\nset timeout=8\n"
          "menuentry 'openSUSE Tumbleweed' {\n"
          "  linux /boot/vmlinuz root=UUID=x %s demo.entry=btrfs-suse target.poweroff\n"
          "  initrd /boot/initrd.gz\n}\n" % CON)
    sid = run("btrfs", "inspect-internal", "rootid", snap).strip()
    run("btrfs", "subvolume", "set-default", sid, mnt)


FIX = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fixtures",
                   "grub", "opensuse-btrfs", "root")


def snapper(mnt):
    """The fixture tree opensuse-btrfs with its subvolumes made real;
    only snapshot 2 holds a kernel that boots."""
    for sub in ("@", "@/.snapshots") + tuple("@/.snapshots/%d/snapshot" % n for n in (1, 2, 3)):
        os.makedirs(os.path.dirname(os.path.join(mnt, sub)), exist_ok=True)
        run("btrfs", "subvolume", "create", os.path.join(mnt, sub))
    run("cp", "-a", FIX + "/.", mnt)
    boot = os.path.join(mnt, "@/.snapshots/2/snapshot/boot")
    shutil.copy(need(os.path.join(B, "kernel", "bzImage")), os.path.join(boot, "vmlinuz-6.8.5-1-default"))
    shutil.copy(need(os.path.join(B, "target-initrd.cpio.gz")), os.path.join(boot, "initrd-6.8.5-1-default"))
    sid = run("btrfs", "inspect-internal", "rootid", os.path.join(mnt, "@/.snapshots/1/snapshot")).strip()
    run("btrfs", "subvolume", "set-default", sid, mnt)


FEDORA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fixtures",
                      "grub", "fedora-btrfs", "top", "root", "boot", "grub2")
FEDORA_ID = "3f0c2b7e8a5d4c1e9b6a7d8e0f1a2b3c"


def fedora(mnt):
    """Fedora's layout with /boot inside the subvolume root (and home
    beside it), the top level as default subvolume: the fixture's
    grub.cfg (blscfg) and a grubenv whose saved_entry is the older of two
    BLS entries in root/boot/loader/entries (its blsdir, as Fedora's
    grub2-mkconfig sets it), paths from the top level."""
    run("btrfs", "subvolume", "create", os.path.join(mnt, "root"))
    run("btrfs", "subvolume", "create", os.path.join(mnt, "home"))
    boot = os.path.join(mnt, "root", "boot")
    os.makedirs(os.path.join(boot, "grub2"))
    shutil.copy(os.path.join(FEDORA, "grub.cfg"), os.path.join(boot, "grub2", "grub.cfg"))
    for ver, entry in (("6.11.4-201.fc40.x86_64", "btrfs-fedora-new"),
                       ("6.8.5-301.fc40.x86_64", "btrfs-fedora-saved")):
        shutil.copy(need(os.path.join(B, "kernel", "bzImage")), os.path.join(boot, "vmlinuz-" + ver))
        shutil.copy(need(os.path.join(B, "target-initrd.cpio.gz")),
                    os.path.join(boot, "initramfs-%s.img" % ver))
        write(os.path.join(boot, "loader", "entries", "%s-%s.conf" % (FEDORA_ID, ver)),
              "title Fedora Linux (%s) 40\nversion %s\nlinux /root/boot/vmlinuz-%s\n"
              "initrd /root/boot/initramfs-%s.img\noptions root=UUID=x ro "
              "rootflags=subvol=root %s demo.entry=%s target.poweroff\n"
              % (ver, ver, ver, ver, CON, entry))
    env = ("# GRUB Environment Block\nsaved_entry=%s-6.8.5-301.fc40.x86_64\n"
           "blsdir=/root/boot/loader/entries\n" % FEDORA_ID)
    write(os.path.join(boot, "grub2", "grubenv"), env + "#" * (1024 - len(env)))


def snapshot_entry_boots():
    img = os.path.join(W, "snapper.img")
    # the fixture's grub.cfg searches for its filesystem by this UUID
    btrfs_image(img, snapper, "c3a9e6f4-7b1d-4e2a-9f5c-2d8b6a0e1f37")
    before = sha256(img)
    q = Qemu(B, "btrfs-snapper", kernel=need(EFI), append="bootmenu.shell",
             disks=[{"file": img, "snapshot": False}], snapshot=False)
    try:
        q.expect(r"rescue shell", 90)
        q.send("bootmenu --list > /tmp/l.txt 2>&1; cat /tmp/l.txt; n=$(grep -m1 -F '[@/.snapshots/2/snapshot]:/boot/vmlinuz-6.8.5' /tmp/l.txt "
               "| cut -c1-2); echo N=$n; bootmenu --boot $n\n")
        n = q.expect(r"N=\s*(\d+)", 120).group(1)
        line = q.expect(r"BOOTMENU-TARGET: cmdline=([^\r\n]*)", 240).group(1)
    finally:
        q.close()
    if "rootflags=subvol=/@/.snapshots/2/snapshot" not in line:
        raise AssertionError("entry %s booted with %s" % (n, line))
    if sha256(img) != before:
        raise AssertionError("the btrfs image changed")
    os.unlink(img)


def plain_boot(entry, initrd="initrd.gz"):
    """A build(mnt) for a /boot at the top level booting @entry."""
    def build(mnt):
        kernel_files(os.path.join(mnt, "boot"))
        write(os.path.join(mnt, "boot", "grub", "grub.cfg"),
              "set timeout=5\nmenuentry '%s' {\n  linux /boot/vmlinuz %s "
              "demo.entry=%s target.poweroff\n  initrd /boot/%s\n}\n" % (
                  entry, CON, entry, initrd) + "# padding\n" * 4096)
    return build


def zstd(mnt):
    """/boot written with compress-force=zstd: grub.cfg (padded to 40 KiB)
    and an uncompressed cpio initrd are stored as zstd extents (filefrag
    says "encoded"), which bootmenu's kernel must inflate to read them."""
    plain_boot("btrfs-zstd", "initrd.cpio")(mnt)
    with open(os.path.join(B, "target-initrd.cpio.gz"), "rb") as f:
        data = gzip.decompress(f.read())
    with open(os.path.join(mnt, "boot", "initrd.cpio"), "wb") as f:
        f.write(data)
    run("sync")
    for name in ("initrd.cpio", "grub/grub.cfg"):
        if "encoded" not in run("filefrag", "-v", os.path.join(mnt, "boot", name)):
            raise AssertionError("%s was not stored compressed" % name)


def log_tree_image(img):
    """A btrfs whose superblock points at a log tree, as a power cut leaves
    it: /boot written and committed, then the mount's file late.txt
    written and fsync()ed (btrfs logs it in the log tree, not in a
    commit), and the image copied right then, while still mounted."""
    live = img + ".live"
    btrfs_image(live, lambda mnt: None)
    mnt = tempfile.mkdtemp(dir=W)
    run("mount", "-o", "loop", live, mnt)
    try:
        plain_boot("btrfs-logtree")(mnt)
        run("sync")
        with open(os.path.join(mnt, "boot", "late.txt"), "w") as f:
            f.write("written after the last commit\n")
            f.flush()
            os.fsync(f.fileno())
        shutil.copyfile(live, img)
    finally:
        subprocess.run(["umount", mnt])
        os.rmdir(mnt)
        os.unlink(live)
    log_root = re.search(r"^log_root\s+(\d+)", run(
        "btrfs", "inspect-internal", "dump-super", img), re.M)
    if not log_root or log_root.group(1) == "0":
        raise AssertionError("the copied image has no log tree (log_root %s)" % (
            log_root.group(1) if log_root else "?"))


def log_tree_not_replayed():
    """Issue #37, item 2: a btrfs with a log tree to replay (log_tree_image)
    boots its default with no key pressed, and bootmenu neither replays the
    log nor changes a byte (rescue=nologreplay on a read-only mount)."""
    img = os.path.join(W, "logtree.img")
    log_tree_image(img)
    image_boots("logtree", img, "btrfs-logtree")


def boots(name, build, entry, uuid=None, opts=""):
    img = os.path.join(W, name + ".img")
    btrfs_image(img, build, uuid, opts)
    image_boots(name, img, entry)


def image_boots(name, img, entry):
    """@img's default @entry boots with no key; @img unchanged, then gone."""
    before = sha256(img)
    q = Qemu(B, "btrfs-" + name, kernel=need(EFI), append="bootmenu.timeout=0",
             disks=[{"file": img, "snapshot": False}], snapshot=False)
    try:
        got = q.expect(r"BOOTMENU-TARGET: booted entry=(\S+)", 240).group(1)
        q.expect(r"BOOTMENU-TARGET: done", 30)
    finally:
        q.close()
    if got != entry:
        raise AssertionError("booted %s, want %s" % (got, entry))
    if sha256(img) != before:
        raise AssertionError("the btrfs image changed")
    os.unlink(img)


ok = check("e2e.btrfs.ubuntu_layout_at_subvolume_boots", lambda: boots("ubuntu", ubuntu, "btrfs-ubuntu"))
ok = check("e2e.btrfs.opensuse_default_snapshot_boots",
           lambda: boots("opensuse", opensuse, "btrfs-suse")) and ok
ok = check("e2e.btrfs.opensuse_snapshot_entry_boots_its_kernel", snapshot_entry_boots) and ok
ok = check("e2e.btrfs.zstd_compressed_boot_boots",
           lambda: boots("zstd", zstd, "btrfs-zstd", opts="compress-force=zstd")) and ok
ok = check("e2e.btrfs.log_tree_not_replayed", log_tree_not_replayed) and ok
# the fixture's grub.cfg searches for its filesystem by this UUID
ok = check("e2e.btrfs.fedora_root_subvolume_saved_entry_boots",
           lambda: boots("fedora", fedora, "btrfs-fedora-saved",
                         "0d1e2f3a-4b5c-4d6e-8f70-8192a3b4c5d6")) and ok
sys.exit(0 if ok else 1)
