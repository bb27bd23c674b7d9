#!/usr/bin/env python3
"""Nothing written: copies of demo.img and an ext4 whose journal needs
recovery, attached without snapshot, are byte-identical (sha256) after
bootmenu has scanned them and booted the default."""
import hashlib
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(__file__))
from qemu import Qemu, check, need  # noqa: E402

B = os.path.abspath(sys.argv[1])
EFI = os.path.join(B, "bootmenu.efi")
DEMO = os.path.join(B, "demo.img")
W = os.path.join(B, "e2e-nothing-written")


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def dirty_ext4(path):
    root = os.path.join(W, "dirty-root")
    shutil.rmtree(root, ignore_errors=True)
    os.makedirs(os.path.join(root, "boot", "grub"))
    shutil.copy(need(os.path.join(B, "kernel", "bzImage")), os.path.join(root, "boot", "vmlinuz"))
    with open(os.path.join(root, "boot", "grub", "grub.cfg"), "w") as f:
        f.write('menuentry "dirty-journal" { linux /boot/vmlinuz }\n')
    if os.path.exists(path):
        os.unlink(path)
    subprocess.run(["mke2fs", "-q", "-F", "-t", "ext4", "-L", "dirty", "-d", root, path, "16M"],
                   check=True)
    subprocess.run(["debugfs", "-w", "-R", "feature needs_recovery", path],
                   check=True, capture_output=True)
    out = subprocess.run(["dumpe2fs", "-h", path], capture_output=True, text=True).stdout
    if "needs_recovery" not in out:
        raise AssertionError("could not mark the journal as needing recovery")


def images_unchanged():
    os.makedirs(W, exist_ok=True)
    demo = os.path.join(W, "demo-copy.img")
    shutil.copy(need(DEMO), demo)
    dirty = os.path.join(W, "dirty.img")
    dirty_ext4(dirty)
    imgs = [demo, dirty]
    before = {p: sha256(p) for p in imgs}
    q = Qemu(B, "nothing-written", kernel=need(EFI), append="bootmenu.timeout=0",
             disks=[{"file": p, "snapshot": False} for p in imgs], snapshot=False)
    try:
        q.expect(r"BOOTMENU-TARGET: booted entry=bls", 180)
        q.expect(r"BOOTMENU-TARGET: done", 30)
    finally:
        q.close()
    changed = [os.path.basename(p) for p in imgs if sha256(p) != before[p]]
    if changed:
        raise AssertionError("changed: " + ", ".join(changed))
    for p in imgs:
        os.unlink(p)


ok = check("e2e.nothing_written.demo_and_dirty_journal", images_unchanged)
sys.exit(0 if ok else 1)
