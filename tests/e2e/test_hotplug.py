#!/usr/bin/env python3
"""Hotplug in the running menu, and sticks pulled at the worst moments.

bootmenu.efi with the demo disk and an xHCI controller. Once the menu is
drawn (and its countdown stopped by a key), a USB stick is plugged with the
QEMU monitor: its entry must appear on the screen; pulled, it must go, and
the menu must still boot a demo entry. Then the cases of issue #7: a
stick pulled while it is being probed, and sticks pulled while a boot
reads them: one during its 64 MiB initrd, one during its kernel (a bzImage
with 64 MiB appended, no initrd). bootmenu must stay up (/init never
restarts it), the failed boot must say why, and the demo's default must
still boot.

The serial output is ncurses drawing for a vt220, so what is on the screen
is found by replaying it through a small vt220 model (screen.py)."""
import os
import re
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))
from qemu import Qemu, check, need  # noqa: E402
from disks import stick_ext4  # noqa: E402
from screen import BOOTED, ScreenGuest  # noqa: E402

B = os.path.abspath(sys.argv[1])
EFI = os.path.join(B, "bootmenu.efi")
DEMO = os.path.join(B, "demo.img")
W = os.path.join(B, "e2e-hotplug")
STICK_TITLE = "Hotplugged stick 4711"
BIG_TITLE = "Big stick 0815"
DOWN, HOME, ENTER = "\x1b[B", "\x1b[1~", "\r"


def plug(q, n, image):
    """Stick number @n (@image, a snapshot: never written) into the xHCI
    controller "xhci" of Qemu @q with its monitor; returns the device id."""
    dev = "s%d" % n
    out = q.monitor("drive_add 0 if=none,id=stick%d,file=%s,format=raw,snapshot=on"
                    % (n, image))
    if "OK" not in out:
        raise AssertionError("drive_add: %s" % out[-300:])
    out = q.monitor("device_add usb-storage,bus=xhci.0,drive=stick%d,id=%s" % (n, dev))
    if "Error" in out or "error" in out:
        raise AssertionError("device_add: %s" % out[-300:])
    return dev


def pull(q, dev):
    """Device @dev out of Qemu @q, as a hand pulls a stick."""
    out = q.monitor("device_del " + dev)
    if "Error" in out or "error" in out:
        raise AssertionError("device_del: %s" % out[-300:])


class Menu(ScreenGuest):
    """A guest running the menu, with an xHCI controller to plug sticks in."""

    def __init__(self, name, append="bootmenu.timeout=30"):
        super().__init__(Qemu(B, name, kernel=need(EFI), append=append, disks=[need(DEMO)],
                              extra=["-device", "qemu-xhci,id=xhci"]))
        self.n = 0

    def plug(self, image):
        self.n += 1
        return plug(self.q, self.n, image)

    def pull(self, dev):
        pull(self.q, dev)

    def started(self):
        """The menu is up: its rows and the countdown are drawn."""
        self.q.expect(r"init: bootmenu \d+\.\d+", 90)
        self.wait_screen(r"Demo BLS \(bootmenu kernel\)", 120)
        self.wait_screen(r"Booting .* in \d+ s", 120)



def stick(name, title, big=None, big_kernel=False):
    """A stick with our kernel and a syslinux.cfg entry @title; with @big
    (MiB), that many MiB of slow bytes: an initrd, or with @big_kernel
    appended to the kernel file (the bzImage stays valid)."""
    os.makedirs(W, exist_ok=True)
    path = os.path.join(W, name + ".img")
    kernel = need(os.path.join(B, "kernel", "bzImage"))
    initrd = "\n  INITRD /boot/big.img" if big and not big_kernel else ""
    stick_ext4(path, os.path.join(W, name + "-root"), {
        "/boot/vmlinuz": kernel,
        "/syslinux/syslinux.cfg":
            "LABEL s\n  MENU LABEL %s\n  KERNEL /boot/vmlinuz%s\n  APPEND console=ttyS0\n"
            % (title, initrd),
    }, label=name, size="%dM" % (16 + (big or 0) * 2),
        big=(("/boot/vmlinuz" if big_kernel else "/boot/big.img"), big) if big else None)
    return path


def plug_and_pull():
    img = stick("hotplug", STICK_TITLE)
    m = Menu("hotplug-plug-pull")
    try:
        m.started()
        m.q.send("j")  # a key: the countdown stops
        m.wait_screen(r"Booting .* in \d+ s", 30, gone=True)
        dev = m.plug(img)
        m.wait_screen(re.escape(STICK_TITLE), 90)
        m.pull(dev)
        m.wait_screen(re.escape(STICK_TITLE), 60, gone=True)
        m.wait_screen(r"Demo BLS \(bootmenu kernel\)", 5)
        m.q.send(HOME)
        time.sleep(1)
        m.q.send(DOWN)
        time.sleep(1)
        m.q.send(ENTER)
        got = m.q.expect(BOOTED, 180).group(1)
        if got in ("-", ""):
            raise AssertionError("booted %r, not a demo entry" % got)
        m.not_restarted()
    finally:
        m.close()


def pulled_while_probed():
    img = stick("probed", STICK_TITLE)
    m = Menu("hotplug-pulled-probing", append="bootmenu.timeout=25")
    try:
        m.started()
        # at once: gone before (or while) usb-storage reports its disk
        m.pull(m.plug(img))
        # and once more, pulled the moment its disk is attached
        dev = m.plug(img)
        m.q.expect(r"Attached SCSI (removable )?disk", 60)
        m.pull(dev)
        time.sleep(3)
        if STICK_TITLE in m.show():
            raise AssertionError("the pulled stick's entry is on the screen")
        # no key was pressed: the countdown boots the demo's default
        got = m.q.expect(BOOTED, 240).group(1)
        if got != "bls":
            raise AssertionError("booted %s, not the default bls" % got)
        m.not_restarted()
    finally:
        m.close()


def pulled_while_read(big_kernel):
    img = stick("big-kernel" if big_kernel else "big", BIG_TITLE, big=64,
                big_kernel=big_kernel)
    m = Menu("hotplug-pulled-reading-" + ("kernel" if big_kernel else "initrd"))
    try:
        m.started()
        m.q.send("j")
        m.wait_screen(r"Booting .* in \d+ s", 30, gone=True)
        dev = m.plug(img)
        m.wait_screen(re.escape(BIG_TITLE), 90)
        # the stick (sda) sorts before the demo disk (vda): its entry is first
        m.q.send(HOME)
        time.sleep(1)
        m.q.send(ENTER)
        m.wait_screen(r"Loading \[", 60)
        m.pull(dev)
        # kernel messages share the console: match the menu's own words
        m.wait_screen(r"Cannot boot this entry", 120)
        m.wait_screen(r'cannot read the kernel or initrds of "%s"' % re.escape(BIG_TITLE), 5)
        if re.search(BOOTED, m.q.output()):
            raise AssertionError("something booted although the stick was pulled")
        m.not_restarted()
        m.q.send(ENTER)  # away with the message
        m.wait_screen(re.escape(BIG_TITLE), 60, gone=True)
        m.wait_screen(r"Demo BLS \(bootmenu kernel\)", 30)
        # back on the demo's default: its row, Enter
        row = [ln for ln in m.show().splitlines() if "Demo BLS (bootmenu kernel)" in ln]
        if not row:
            raise AssertionError("the demo's entry is not on the screen")
        m.q.send(HOME)
        time.sleep(1)
        m.q.send(ENTER)
        got = m.q.expect(BOOTED, 180).group(1)
        if got != "bls":
            raise AssertionError("booted %s, not the default bls" % got)
        m.not_restarted()
    finally:
        m.close()


CASES = [("e2e.hotplug.plug_and_pull", plug_and_pull),
         ("e2e.hotplug.pulled_while_probed", pulled_while_probed),
         ("e2e.hotplug.pulled_while_initrd_read", lambda: pulled_while_read(False)),
         ("e2e.hotplug.pulled_while_kernel_read", lambda: pulled_while_read(True))]
if __name__ == "__main__":
    # a second argument runs only the cases whose name contains it
    only = sys.argv[2] if len(sys.argv) > 2 else ""
    ok = True
    for name, fn in CASES:
        if only in name:
            ok &= check(name, fn)
    sys.exit(0 if ok else 1)
