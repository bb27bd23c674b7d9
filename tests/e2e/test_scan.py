#!/usr/bin/env python3
"""The scan sees disks on every controller a PC has, reads them read-only,
and leaves a disk whose ext4 journal needs recovery byte-identical.

One guest with four copies of the demo disk: virtio, AHCI (SATA), NVMe and
a USB stick. From the rescue shell, `bootmenu --list --json` scans them;
every copy's five filesystems must be there, by device name, with the
demo's entries."""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
from qemu import Qemu, check, need  # noqa: E402
from disks import sha256, dirty_ext4 as dirty_ext4_image  # noqa: E402

B = os.path.abspath(sys.argv[1])
EFI = os.path.join(B, "bootmenu.efi")
DEMO = os.path.join(B, "demo.img")
W = os.path.join(B, "e2e-scan")


def dirty_ext4(path):
    """An ext4 with a kernel and a journal marked as needing recovery."""
    dirty_ext4_image(path, os.path.join(W, "dirty-root"), {
        "/boot/vmlinuz-6.1.192-dirty": need(os.path.join(B, "kernel", "bzImage")),
    }, uuid="d1127000-0000-4000-8000-00000000d127")


def list_in_guest(q):
    q.expect(r"rescue shell", 60)
    # usb-storage waits a second before it reports a stick; wait for the
    # four disks (bounded), then scan
    q.send("i=0; while [ $i -lt 30 ] && [ ! -e /sys/block/sdb/sdb1 ]; do sleep 1; i=$((i+1)); done; ls /sys/block\n")
    q.send("bootmenu --list --json > /tmp/l.json 2>/tmp/l.err; echo RC=$?; "
           "echo JSON-BEGIN; cat /tmp/l.json; echo JSON-END; cat /tmp/l.err\n")
    rc = q.expect(r"RC=(\d+)", 120).group(1)
    q.expect(r"JSON-BEGIN\r?\n", 10)
    start = q.pos
    q.expect(r"JSON-END", 30)
    text = q.output()[start:q.pos - len("JSON-END")]
    if rc != "0":
        raise AssertionError("bootmenu --list exited %s: %s" % (rc, q.tail(600)))
    return json.loads(text.replace("\r", ""))


def all_controllers():
    os.makedirs(W, exist_ok=True)
    dirty = os.path.join(W, "dirty.img")
    dirty_ext4(dirty)
    before = sha256(dirty)
    disks = [
        {"file": need(DEMO), "if": "virtio"},
        {"file": dirty, "if": "virtio", "snapshot": False},
    ]
    extra = [
        "-drive", "file=%s,format=raw,if=none,id=sata0,snapshot=on" % DEMO,
        "-device", "ide-hd,drive=sata0,bus=ide.0",
        "-drive", "file=%s,format=raw,if=none,id=nvme0,snapshot=on" % DEMO,
        "-device", "nvme,drive=nvme0,serial=bootmenu0",
        "-device", "qemu-xhci,id=xhci",
        "-drive", "file=%s,format=raw,if=none,id=usb0,snapshot=on" % DEMO,
        "-device", "usb-storage,bus=xhci.0,drive=usb0",
    ]
    q = Qemu(B, "scan-controllers", kernel=need(EFI), append="bootmenu.shell",
             disks=disks, extra=extra)
    try:
        entries = list_in_guest(q)
    finally:
        q.close()
    devices = sorted({e["device"] for e in entries})
    bls = sorted(e["device"] for e in entries if e["title"] == "Demo BLS (bootmenu kernel)")
    # one ESP per copy: virtio vda1, SATA sda1, NVMe nvme0n1p1, USB sdb1
    want = ["nvme0n1p1", "sda1", "sdb1", "vda1"]
    if bls != want:
        raise AssertionError("BLS entry found on %s, want %s (devices: %s)" % (bls, want, devices))
    bare = [e for e in entries if e["device"] == "vdb"]
    if not bare or bare[0]["kernel"] != "/boot/vmlinuz-6.1.192-dirty":
        raise AssertionError("dirty-journal ext4 (vdb) not read: %s" % devices)
    if sha256(dirty) != before:
        raise AssertionError("the dirty-journal disk changed")


ok = check("e2e.scan.controllers_and_dirty_journal", all_controllers)
sys.exit(0 if ok else 1)
