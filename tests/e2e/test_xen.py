#!/usr/bin/env python3
"""Xen boots from bootmenu through our multiboot2 loader (issue #35).

A disk holds Debian's Xen (scripts/debian-xen.sh: xen-hypervisor-4.17-amd64
from Debian's packages), Debian's kernel (build/debkernel/vmlinuz) and the
tests' target initrd, with a grub.cfg written the way Debian's
grub.d/20_linux_xen writes it: `multiboot2 xen.gz placeholder ...`,
`module2 vmlinuz placeholder ...`, `module2 --nounzip initrd`. bootmenu
boots that entry at once (bootmenu.timeout=0): kexec_load with our
multiboot2 plan, the purgatory entering Xen in 32-bit protected mode.
Xen must start (its banner on com1), build dom0 from the first module and
hand it the second as its initrd; dom0's Linux runs on Xen (PV) and the
target's /init prints its markers on hvc0, which Xen forwards to com1.

Under TCG, Debian's PV dom0 needs a CPU model such as qemu64 (issue #35:
it crashes early under -cpu max).
"""
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(__file__))
from disks import ext4_image  # noqa: E402
from qemu import Qemu, check, need  # noqa: E402
from screen import ScreenGuest  # noqa: E402

B = os.path.abspath(sys.argv[1])
W = os.path.join(B, "e2e-xen")
# our kernel with the initramfs beside it (bootmenu.efi holds the same
# initramfs built in; this pair rebuilds faster after a change)
KERNEL = os.path.join(B, "kernel", "bzImage")
INITRAMFS = os.path.join(B, "initramfs.cpio.gz")
XEN = os.path.join(B, "debxen", "xen.gz")
XEN_EFI = os.path.join(B, "debxen", "xen.efi")
EFI = os.path.join(B, "bootmenu.efi")
DEBKERNEL = os.path.join(B, "debkernel", "vmlinuz")
TARGET_INITRD = os.path.join(B, "target-initrd.cpio.gz")

XEN_ARGS = ("console=com1 com1=115200,8n1 dom0_mem=512M loglvl=all "
            "guest_loglvl=all noreboot")
DOM0_ARGS = "console=hvc0 earlyprintk=xen demo.entry=xen target.poweroff"

# grub.d/20_linux_xen's entry, as update-grub writes it
GRUB_CFG = """set default=0
set timeout=5
menuentry 'Debian GNU/Linux, with Xen hypervisor' --class debian --class xen {
	insmod part_msdos
	insmod ext2
	echo	'Loading Xen 4.17-amd64 ...'
        if [ "$grub_platform" = "pc" -o "$grub_platform" = "" ]; then
            xen_rm_opts=
        else
            xen_rm_opts="no-real-mode edd=off"
        fi
	multiboot2	/boot/xen-4.17-amd64.gz placeholder %s ${xen_rm_opts}
	echo	'Loading Linux 6.1.0-amd64 ...'
	module2	/boot/vmlinuz-6.1.0-amd64 placeholder %s
	echo	'Loading initial ramdisk ...'
	module2	--nounzip   /boot/initrd.img-6.1.0-amd64
}
""" % (XEN_ARGS, DOM0_ARGS)


# syslinux's mboot.c32 (Qubes' installer): multiboot (v1), each part's
# string starting with its file's name, which Xen skips
SYSLINUX_CFG = """DEFAULT xen
TIMEOUT 50
LABEL xen
  MENU LABEL Xen through mboot.c32
  KERNEL mboot.c32
  APPEND /boot/xen.gz %s --- /boot/vmlinuz %s --- /boot/initrd.img
""" % (XEN_ARGS, DOM0_ARGS.replace("demo.entry=xen", "demo.entry=mboot"))


def image_with_xen(name, label, files):
    """BUILD/e2e-xen/<name>.img: an ext4 filesystem labelled @label with
    @files ({path: source file or text}); SKIP without Debian's Xen."""
    if not os.path.exists(XEN):
        from qemu import Skip
        raise Skip("missing %s (run scripts/debian-xen.sh %s)" % (XEN, B))
    os.makedirs(W, exist_ok=True)
    img = os.path.join(W, name + ".img")
    ext4_image(img, os.path.join(W, name + "-root"), files, label, 48)
    return img


def xen_disk():
    return image_with_xen("xen", "xenroot", {
        "/boot/xen-4.17-amd64.gz": XEN,
        "/boot/vmlinuz-6.1.0-amd64": need(DEBKERNEL),
        "/boot/initrd.img-6.1.0-amd64": need(TARGET_INITRD),
        "/boot/grub/grub.cfg": GRUB_CFG,
    })


def mboot_disk():
    return image_with_xen("mboot", "mboot", {
        "/boot/xen.gz": XEN,
        "/boot/vmlinuz": need(DEBKERNEL),
        "/boot/initrd.img": need(TARGET_INITRD),
        "/boot/syslinux/mboot.c32": "not read: bootmenu loads Xen itself\n",
        "/boot/syslinux/syslinux.cfg": SYSLINUX_CFG,
    })


def xen_mboot_multiboot1_bios():
    """The same Xen through syslinux's mboot.c32: the multiboot (v1)
    header, info structure and magic; with a TPM (swtpm), measured as
    GRUB measures a multiboot boot: files into PCR 9, the lines into 8."""
    q = Qemu(B, "xen-mboot-bios", kernel=need(KERNEL), initrd=need(INITRAMFS),
             append="console=ttyS0,115200 bootmenu.timeout=0",
             disks=[mboot_disk()], mem=1536, extra=["-cpu", "qemu64"],
             tpm=True)
    try:
        q.expect(r"Starting Xen through mboot\.c32 \(loaded with "
                 r"kexec_load; measured into PCRs 8, 9\)", 150)
        q.expect(r"\(XEN\) Xen version 4\.17", 120)
        q.expect(r"\(XEN\) Bootloader: bootmenu", 10)
        m = q.expect(r"\(XEN\) Command line: (.*)", 10)
        if not m.group(1).startswith(XEN_ARGS):
            raise AssertionError("Xen's command line: %r" % m.group(1))
        q.expect(r"\(XEN\) Multiboot-e820 RAM map:", 10)
        q.expect(r"\(XEN\)  Init\. ramdisk: ", 120)
        m = q.expect(r"\] Command line: (.*)", 120)
        if "demo.entry=mboot" not in m.group(1) or "/boot" in m.group(1):
            raise AssertionError("dom0's command line: %r" % m.group(1))
        m = q.expect(r"BOOTMENU-TARGET: booted entry=(\S+)", 240)
        if m.group(1) != "mboot":
            raise AssertionError("dom0 booted with entry=%s" % m.group(1))
    finally:
        q.close()


def xen_dom0_bios():
    img = xen_disk()
    q = Qemu(B, "xen-dom0-bios", kernel=need(KERNEL), initrd=need(INITRAMFS),
             append="console=ttyS0,115200 bootmenu.timeout=0", disks=[img],
             mem=1536,
             extra=["-cpu", "qemu64"])
    try:
        q.expect(r"init: bootmenu \d+\.\d+", 90)
        q.expect(r"Starting Debian GNU/Linux, with Xen hypervisor "
                 r"\(loaded with kexec_load\)", 120)
        # Xen runs, and read our multiboot2 information: the loader's
        # name, its command line (Xen skips the first word, GRUB's
        # "placeholder"), the memory map tag
        q.expect(r"\(XEN\) Xen version 4\.17", 120)
        q.expect(r"\(XEN\) Bootloader: bootmenu", 10)
        m = q.expect(r"\(XEN\) Command line: (.*)", 10)
        if not m.group(1).startswith(XEN_ARGS):
            raise AssertionError("Xen's command line: %r" % m.group(1))
        q.expect(r"\(XEN\) Multiboot-e820 RAM map:", 10)
        # dom0 from the first module, the second as its initrd
        q.expect(r"\(XEN\) \*\*\* Building a PV Dom0 \*\*\*", 120)
        q.expect(r"\(XEN\)  Init\. ramdisk: ", 30)
        # dom0's Linux runs on Xen, with the module's string less its
        # first word, and runs the target initrd's /init
        m = q.expect(r"\] Command line: (.*)", 120)
        if m.group(1).strip() != DOM0_ARGS:
            raise AssertionError("dom0's command line: %r" % m.group(1))
        q.expect(r"Hypervisor detected: Xen PV", 60)
        m = q.expect(r"BOOTMENU-TARGET: booted entry=(\S+) kernel=(\S+)", 240)
        if m.group(1) != "xen":
            raise AssertionError("dom0 booted with entry=%s" % m.group(1))
        q.expect(r"BOOTMENU-TARGET: done", 60)
    finally:
        q.close()


def xen_refused_under_ovmf():
    """Under OVMF, kexec'd, Xen 4.17 started nothing (its BIOS entry hung
    before its console, its EFI entry needs boot services): the entry is
    refused with that reason, before any kexec, and the menu stays."""
    q = Qemu(B, "xen-ovmf", kernel=need(KERNEL), initrd=need(INITRAMFS),
             append="console=ttyS0,115200 bootmenu.timeout=0",
             disks=[xen_disk()], mem=1536, uefi=True,
             extra=["-cpu", "qemu64"])
    try:
        q.expect(r"init: bootmenu \d+\.\d+", 150)
        q.expect(r"boot its xen\.efi through the firmware instead", 120)
        if "kexec_core: Starting new kernel" in q.output():
            raise AssertionError("a kexec was tried")
    finally:
        q.close()


# Xen's own EFI configuration (docs/misc/efi.pandoc): beside xen.efi,
# named as it is, dom0's kernel and initrd in the same directory
XEN_EFI_CFG = """[global]
default=xen

[xen]
options=%s
kernel=vmlinuz %s
ramdisk=initrd.img
""" % (XEN_ARGS, DOM0_ARGS.replace("demo.entry=xen", "demo.entry=xenefi"))


def xen_esp_disk():
    """BUILD/e2e-xen/esp.img: a GPT disk whose ESP holds bootmenu.efi as
    the fallback loader and Debian's xen.efi with its xen.cfg, dom0's
    kernel and the target initrd in \\EFI\\xen\\ (built without a
    mount: mtools)."""
    if not os.path.exists(XEN_EFI):
        from qemu import Skip
        raise Skip("missing %s (run scripts/debian-xen.sh %s)" % (XEN_EFI, B))
    os.makedirs(W, exist_ok=True)
    part, img = os.path.join(W, "esp-part.img"), os.path.join(W, "esp.img")
    for f in (part, img):
        if os.path.exists(f):
            os.unlink(f)
    subprocess.run(["mkfs.vfat", "-C", "-n", "XENESP", part, str(40 * 1024)],
                   check=True, stdout=subprocess.DEVNULL)
    cfg = os.path.join(W, "xen.cfg")
    with open(cfg, "w") as f:
        f.write(XEN_EFI_CFG)
    run = lambda *a: subprocess.run(["mcopy", "-i", part] + list(a),  # noqa: E731
                                    check=True)
    subprocess.run(["mmd", "-i", part, "::/EFI", "::/EFI/BOOT", "::/EFI/xen"],
                   check=True)
    run(need(EFI), "::/EFI/BOOT/BOOTX64.EFI")
    run(XEN_EFI, "::/EFI/xen/xen.efi")
    run(cfg, "::/EFI/xen/xen.cfg")
    run(need(DEBKERNEL), "::/EFI/xen/vmlinuz")
    run(need(TARGET_INITRD), "::/EFI/xen/initrd.img")
    with open(img, "wb") as f:
        f.truncate((40 + 2) * 1024 * 1024)
    subprocess.run(["sfdisk", "-q", img], check=True, input=b"label: gpt\n"
                   b"start=2048, type=C12A7328-F81F-11D2-BA4B-00A0C93EC93B\n")
    subprocess.run(["dd", "if=" + part, "of=" + img, "bs=1M", "seek=1",
                    "conv=notrunc", "status=none"], check=True)
    os.unlink(part)
    return img


def xen_efi_through_firmware():
    """What works under UEFI: bootmenu lists Debian's xen.efi on the ESP
    as "Xen (xen.efi)"; choosing it sets BootNext and restarts, and the
    firmware starts Xen with its boot services, which boots dom0 from
    xen.cfg to the target's /init."""
    import test_menu_faults as mf
    q = Qemu(B, "xen-efi", disks=[xen_esp_disk()], mem=1536, uefi=True,
             reboot=True, extra=["-cpu", "qemu64", "-nic", "none"])
    g = ScreenGuest(q)
    g.selected = lambda: mf.Guest.selected(g)
    try:
        g.wait_screen(r"Xen \(xen\.efi\)", 240)
        mf.Guest.select(g, "Xen (xen.efi)")
        g.keys("\r")
        q.expect(r"\(XEN\) Xen version 4\.17", 300)
        q.expect(r"\(XEN\) \*\*\* Building a PV Dom0 \*\*\*", 180)
        q.expect(r"Hypervisor detected: Xen PV", 120)
        m = q.expect(r"BOOTMENU-TARGET: booted entry=(\S+)", 240)
        if m.group(1) != "xenefi":
            raise AssertionError("dom0 booted with entry=%s" % m.group(1))
    finally:
        g.close()


ok = True
ok &= check("e2e.xen.dom0_bios", xen_dom0_bios)
ok &= check("e2e.xen.mboot_multiboot1_bios", xen_mboot_multiboot1_bios)
ok &= check("e2e.xen.refused_under_ovmf", xen_refused_under_ovmf)
ok &= check("e2e.xen.efi_through_firmware", xen_efi_through_firmware)
sys.exit(0 if ok else 1)
