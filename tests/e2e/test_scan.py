#!/usr/bin/env python3
"""The scan sees disks on every controller a PC has, reads them read-only,
and leaves a disk whose ext4 journal needs recovery byte-identical.

One guest with four copies of the demo disk: virtio, AHCI (SATA), NVMe and
a USB stick. From the rescue shell, `bootmenu --list --json` scans them
(an object: "entries" and "warnings");
every copy's five filesystems must be there, by device name, with the
demo's entries.

stick_behind_hub_before_countdown: the menu itself (no shell) with the
demo disk and a USB stick with its own syslinux entry behind a USB hub,
both present at power-on. The hub is enumerated after /init and powers its ports as it
is set up, so for a while its port shows nothing: the first settle must
still wait for the stick (settling by knowing, bootmenu/scan/scan_owed.c),
so its entry is drawn before the countdown starts."""
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(__file__))
from qemu import Qemu, check, need  # noqa: E402

from disks import sha256, stick_ext4, dirty_ext4 as dirty_ext4_image  # noqa: E402

B = os.path.abspath(sys.argv[1])
EFI = os.path.join(B, "bootmenu.efi")
DEMO = os.path.join(B, "demo.img")
W = os.path.join(B, "e2e-scan")
HUB_STICK = "Stick behind a hub"


def dirty_ext4(path):
    """An ext4 with a kernel and a journal marked as needing recovery."""
    dirty_ext4_image(path, os.path.join(W, "dirty-root"), {
        "/boot/vmlinuz-6.1.192-dirty": need(os.path.join(B, "kernel", "bzImage")),
    }, uuid="d1127000-0000-4000-8000-00000000d127")


def list_in_guest(q):
    q.expect(r"rescue shell", 60)
    # scan at once: the USB stick is still being set up (usb-storage
    # reports its disk a second after its SCSI host appeared), and the
    # scan must wait for it rather than settle without it
    q.send("bootmenu --list --json > /tmp/l.json 2>/tmp/l.err; echo RC=$?; ls /sys/block; "
           "echo JSON-BEGIN; cat /tmp/l.json; echo JSON-END; cat /tmp/l.err\n")
    rc = q.expect(r"RC=(\d+)", 120).group(1)
    q.expect(r"JSON-BEGIN\r?\n", 10)
    start = q.pos
    q.expect(r"JSON-END", 30)
    text = q.output()[start:q.pos - len("JSON-END")]
    if rc != "0":
        raise AssertionError("bootmenu --list exited %s: %s" % (rc, q.tail(600)))
    doc = json.loads(text.replace("\r", ""))
    # {"entries": [...], "warnings": [{"device", "file", "line", "message", "count"}]}
    if not isinstance(doc.get("warnings"), list):
        raise AssertionError("--json without a warnings list: %s" % sorted(doc))
    return doc["entries"]


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


def hidden_by_conf():
    """bootmenu.conf's hide: vda3 by name (not even probed), vda4 by its
    label; neither is mounted, both are listed with the reason."""
    q = Qemu(B, "scan-hidden", kernel=need(EFI), append="bootmenu.shell",
             disks=[need(DEMO)])
    try:
        q.expect(r"rescue shell", 60)
        q.send("printf 'hide = vda3 LABEL=slackware\\n' > /tmp/b.conf; "
               "bootmenu --config /tmp/b.conf --list > /tmp/l.txt 2>&1; echo RC=$?; "
               "echo LIST-BEGIN; cat /tmp/l.txt; echo LIST-END\n")
        rc = q.expect(r"RC=(\d+)", 120).group(1)
        q.expect(r"LIST-BEGIN\r?\n", 10)
        start = q.pos
        q.expect(r"LIST-END", 30)
        text = q.output()[start:q.pos - len("LIST-END")].replace("\r", "")
    finally:
        q.close()
    if rc != "0":
        raise AssertionError("bootmenu --list exited %s: %s" % (rc, text[-600:]))
    for want in ("device: vda3 -: skipped: hidden by bootmenu.conf",
                 "device: vda4 ext4: skipped: hidden by bootmenu.conf",
                 "Demo BLS (bootmenu kernel)"):
        if want not in text:
            raise AssertionError("no %r in the list:\n%s" % (want, text))
    bad = re.findall(r".*\] vda[34]:.*", text)
    if bad:
        raise AssertionError("entries of a hidden device: %s" % bad[0])


def stick_behind_hub_before_countdown():
    os.makedirs(W, exist_ok=True)
    stick = os.path.join(W, "hubstick.img")
    stick_ext4(stick, os.path.join(W, "hubstick-root"), {
        "/boot/vmlinuz": need(os.path.join(B, "kernel", "bzImage")),
        "/syslinux/syslinux.cfg":
            "DEFAULT h\nLABEL h\n  MENU LABEL %s\n  KERNEL /boot/vmlinuz\n" % HUB_STICK,
    }, label="hubstick", size="16M")
    extra = [
        "-device", "qemu-xhci,id=xhci",
        "-device", "usb-hub,bus=xhci.0,port=1",
        "-drive", "file=%s,format=raw,if=none,id=usb0,snapshot=on" % stick,
        "-device", "usb-storage,bus=xhci.0,port=1.2,drive=usb0",
    ]
    q = Qemu(B, "scan-hub", kernel=need(EFI), append="", disks=[need(DEMO)], extra=extra)
    try:
        q.expect(r"Booting .{1,60} in \d+ s", 120)
        before = q.output()[:q.pos]
    finally:
        q.close()
    if not re.search(r"\[sd[a-z]\] Attached SCSI", before):
        raise AssertionError("the kernel attached no disk for the stick before the countdown")
    if HUB_STICK not in before:
        raise AssertionError("the countdown started before the stick's entry %r was drawn"
                             % HUB_STICK)


ok = check("e2e.scan.controllers_and_dirty_journal", all_controllers)
ok &= check("e2e.scan.stick_behind_hub_before_countdown", stick_behind_hub_before_countdown)
ok &= check("e2e.scan.hidden_by_conf", hidden_by_conf)
sys.exit(0 if ok else 1)
