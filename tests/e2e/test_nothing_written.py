#!/usr/bin/env python3
"""Nothing written: copies of demo.img and an ext4 whose journal needs
recovery, attached without snapshot, are byte-identical (sha256) after
bootmenu has scanned them and booted the default."""
import os
import shutil
import sys

sys.path.insert(0, os.path.dirname(__file__))
from qemu import Qemu, check, need  # noqa: E402
from disks import sha256, dirty_ext4 as dirty_ext4_image  # noqa: E402

B = os.path.abspath(sys.argv[1])
EFI = os.path.join(B, "bootmenu.efi")
DEMO = os.path.join(B, "demo.img")
W = os.path.join(B, "e2e-nothing-written")


def dirty_ext4(path):
    dirty_ext4_image(path, os.path.join(W, "dirty-root"), {
        "/boot/vmlinuz": need(os.path.join(B, "kernel", "bzImage")),
        "/boot/grub/grub.cfg": 'menuentry "dirty-journal" { linux /boot/vmlinuz }\n',
    })


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
