#!/usr/bin/env python3
"""The boot image boots, /init runs bootmenu, and a demo entry is kexec'd.

Under `qemu -kernel` and under OVMF (UEFI firmware booting
\\EFI\\BOOT\\BOOTX64.EFI from an ESP disk)."""
import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
from qemu import Qemu, check, need  # noqa: E402

B = os.path.abspath(sys.argv[1])
EFI = os.path.join(B, "bootmenu.efi")
DEMO = os.path.join(B, "demo.img")
ESP = os.path.join(B, "esp.img")


def boot_to_init(q):
    q.expect(r"Linux version 6\.1\.", 60)
    q.expect(r"init: bootmenu \d+\.\d+", 60)


def kernel_boots_to_init():
    q = Qemu(B, "boot-kernel", kernel=need(EFI), append="bootmenu.shell",
             disks=[need(DEMO)])
    try:
        boot_to_init(q)
        q.expect(r"rescue shell", 30)
        # /init mounted what it promises and the tools are there
        q.send("cat /proc/mounts; busybox | head -1; echo MARK-$((6*7))\n")
        q.expect(r"MARK-42", 30)
        out = q.output()
        for m in ("proc /proc proc", "sysfs /sys sysfs", "devtmpfs /dev devtmpfs",
                  "tmpfs /run tmpfs", "tmpfs /tmp tmpfs"):
            if m not in out:
                raise AssertionError("not mounted: " + m)
        # leaving the shell starts bootmenu
        q.send("exit\n")
        q.expect(r"bootmenu", 30)
    finally:
        q.close()


def uefi_boots_to_init():
    q = Qemu(B, "boot-uefi", uefi=True, disks=[need(ESP), need(DEMO)])
    try:
        boot_to_init(q)
        out = q.output()
        if "efi: " not in out:
            raise AssertionError("kernel did not report EFI: " + q.tail(400))
    finally:
        q.close()


def demo_default_kexecs():
    q = Qemu(B, "boot-demo-default", kernel=need(EFI),
             append="bootmenu.timeout=0", disks=[need(DEMO)])
    try:
        boot_to_init(q)
        m = q.expect(r"BOOTMENU-TARGET: booted entry=(\S+) kernel=(\S+) efi=(\w+)", 120)
        if m.group(1) == "-":
            raise AssertionError("target booted without demo.entry=")
        q.expect(r"BOOTMENU-TARGET: cmdline=.*demo\.entry=" + m.group(1), 10)
    finally:
        q.close()


def efi_within_budget():
    """bootmenu.efi (kernel, zstd, with the initramfs built in) stays
    within its budget of 4.5 MiB (every feature in it); kernel/README.md
    says what each option costs and what to do when it does not fit (xz
    is the smaller compression)."""
    budget = 9 << 19
    size = os.path.getsize(need(EFI))
    if size > budget:
        raise AssertionError("bootmenu.efi is %d bytes, %d over the 4.5 MiB budget"
                             % (size, size - budget))


ok = True
ok &= check("e2e.boot.efi_within_budget", efi_within_budget)
ok &= check("e2e.boot.kernel_to_init", kernel_boots_to_init)
ok &= check("e2e.boot.uefi_to_init", uefi_boots_to_init)
ok &= check("e2e.boot.demo_default_kexec", demo_default_kexecs)
sys.exit(0 if ok else 1)
