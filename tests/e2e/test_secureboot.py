#!/usr/bin/env python3
"""Secure Boot end to end under OVMF (issue #18).

Debian's OVMF_CODE_4M.secboot.fd on q35 with SMM, and a copy of
OVMF_VARS_4M.snakeoil.fd (the snakeoil test key enrolled as PK, KEK and
db). The firmware checks signatures only for images it loads from a
disk, so every guest here boots from a GPT disk's ESP
(images/secureboot.sh: build/sb-test/disk.img).

1. bootmenu-sb.efi signed with the snakeoil key boots to the menu, our
   kernel says it locked itself down, the menu's title says "Secure
   Boot: on"; the same image unsigned (build/esp.img) is refused by the
   firmware.
2. Our test kernel unsigned, and signed with one byte changed, each give
   the dialog naming the file and the menu stays; then the kernel signed
   with the snakeoil key (a db key: the platform keyring) boots with its
   initrd through kexec_file_load.
3. Debian's own signed kernel with Debian's initramfs-tools initrd boots
   through the Debian Secure Boot CA built into our kernel.
Secure Boot off (OVMF_VARS_4M.fd, unsigned images, kexec_load) is
test_menu_faults.ovmf_menu_boots_default."""
import os
import re
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))
from qemu import Qemu, check, need  # noqa: E402
from screen import BOOTED, ScreenGuest  # noqa: E402
import test_menu_faults as mf  # noqa: E402

B = os.path.abspath(sys.argv[1])
DISK = os.path.join(B, "sb-test", "disk.img")
ESP = os.path.join(B, "esp.img")
DEBV_FILE = os.path.join(B, "debkernel", "VERSION")
DOWN, ENTER = "\x1b[B", "\r"
SIGNED, UNSIGNED, TAMPERED = ("Signed test kernel", "Unsigned test kernel",
                              "Tampered test kernel")
LOCKED_LINE = r"Kernel is locked down from EFI Secure Boot"


def not_trusted(path):
    return (r"the kernel %s is not signed by a key this machine trusts: "
            r"under Secure Boot \(lockdown\) only a signed kernel boots" %
            re.escape(path))


class Guest(mf.Guest):
    """bootmenu from the Secure Boot disk under the enforcing firmware."""

    def __init__(self, name, disk=None):
        ScreenGuest.__init__(self, Qemu(B, name, uefi="secboot",
                                        disks=[need(disk or DISK)],
                                        extra=["-nic", "none"]))


def signed_menu_and_kernels():
    g = Guest("sb-kernels")
    try:
        g.q.expect(LOCKED_LINE, 240)
        g.wait_screen(r"Secure Boot: on", 240)
        g.wait_screen(re.escape(SIGNED), 30)
        g.keys(DOWN)  # the countdown stops
        g.select(UNSIGNED)
        g.dialog(mf.CANNOT, not_trusted("/k/unsigned"))
        g.select(TAMPERED)
        g.dialog(mf.CANNOT, not_trusted("/k/tampered"))
        g.select(SIGNED)
        g.keys("i")
        g.wait_screen(r"^signed:  C=US, ST=Colorado, L=Fort Collins, O=SnakeOil", 30)
        g.keys("x")
        g.wait_screen(r"^signed:  ", 30, gone=True)
        g.boots("sb-signed")
        before = g.q.output().split("BOOTMENU-TARGET")[0]
        if "with kexec_file_load" not in before:
            raise AssertionError("bootmenu does not say it used kexec_file_load")
    finally:
        g.close()


def unsigned_refused():
    g = Guest("sb-unsigned-image", disk=ESP)
    try:
        # OVMF's boot manager: "failed to load Boot0001 ...: Access Denied"
        g.q.expect(r"Access Denied", 240)
        if re.search(r"Linux version|EFI stub", g.q.output()):
            raise AssertionError("the unsigned image started")
    finally:
        g.close()


def debian_kernel():
    if not os.path.exists(os.path.join(B, "debkernel", "initrd.img")):
        raise AssertionError("build/debkernel/initrd.img is missing (made "
                             "only as root: scripts/debian-kernel.sh)")
    debv = open(DEBV_FILE).read().strip()
    g = Guest("sb-debian")
    try:
        g.wait_screen(r"Secure Boot: on", 240)
        g.wait_screen(re.escape(SIGNED), 30)
        g.keys(DOWN)
        g.select("Debian signed kernel " + debv)
        g.keys(ENTER)
        g.q.expect(r"Linux version 6\.1\.\S+ .*Debian", 240)
        g.q.expect(r"Loading, please wait", 240)
        m = g.q.expect(r"BOOTMENU-TARGET: booted entry=(\S+) kernel=(\S+) "
                       r"efi=(\w+)", 300)
        if m.group(1) != "sb-debian" or not m.group(2).endswith("-amd64"):
            raise AssertionError("booted " + m.group(0))
    finally:
        g.close()


if __name__ == "__main__":
    only = sys.argv[2] if len(sys.argv) > 2 else ""
    ok = True
    if only in "kernels":
        ok &= check("e2e.secureboot.signed_menu_and_kernels", signed_menu_and_kernels)
    if only in "unsigned":
        ok &= check("e2e.secureboot.unsigned_image_refused", unsigned_refused)
    if only in "debian":
        ok &= check("e2e.secureboot.debian_signed_kernel", debian_kernel)
    sys.exit(0 if ok else 1)
