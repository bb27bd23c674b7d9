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
4. An initrd from outside (build/sb-test/outside.cpio, whose /init prints
   OUTSIDE-INITRD-RAN) is ignored by the signed image (issue #39): handed
   over by OVMF for `-kernel bootmenu.signed.efi -initrd outside.cpio`
   (its LINUX_EFI_INITRD_MEDIA_GUID device), and named by initrd= in the
   optional data of a Boot#### that the rescue shell writes through
   efivarfs, with BootNext, before `reboot -f` (the same variables across
   both boots). Each time the EFI stub loads it, our kernel says it
   ignores it, reserves no RAMDISK, and the menu comes up with "Secure
   Boot: on"; the outside /init never runs. In the same rescue shell:
   the signed image's kernel has no module loader (no /proc/modules),
   so no module, signed or not, can be loaded (issue #38).
Secure Boot off (OVMF_VARS_4M.fd, unsigned images, kexec_load) is
test_menu_faults.ovmf_menu_boots_default."""
import json
import os
import re
import subprocess
import sys
import time
import uuid

sys.path.insert(0, os.path.dirname(__file__))
from qemu import Qemu, check, need  # noqa: E402
from screen import BOOTED, Screen, ScreenGuest  # noqa: E402
import test_menu_faults as mf  # noqa: E402

B = os.path.abspath(sys.argv[1])
DISK = os.path.join(B, "sb-test", "disk.img")
ESP = os.path.join(B, "esp.img")
DEBV_FILE = os.path.join(B, "debkernel", "VERSION")
DOWN, ENTER = "\x1b[B", "\r"
SIGNED, UNSIGNED, TAMPERED = ("Signed test kernel", "Unsigned test kernel",
                              "Tampered test kernel")
LOCKED_LINE = r"Kernel is locked down from EFI Secure Boot"
SIGNED_EFI = os.path.join(B, "sb-test", "bootmenu.signed.efi")
OUTSIDE = os.path.join(B, "sb-test", "outside.cpio")
W = os.path.join(B, "e2e-secureboot")
OUTSIDE_RAN = r"OUTSIDE-INITRD-RAN"
IGNORED_LINE = r"bootmenu: ignoring an initrd passed by the firmware"
# what the EFI stub prints when it has loaded an initrd, by the way it came
STUB_DEVICE = r"Loaded initrd from LINUX_EFI_INITRD_MEDIA_GUID device path"
STUB_OPTION = r"Loaded initrd from command line option"
GUID = "8be4df61-93ca-11d2-aa0d-00e098032b8c"
OUTSIDE_NUM = 0x0039  # Boot0039: issue #39


def not_trusted(path):
    return (r"the kernel %s is not signed by a key this machine trusts: "
            r"under Secure Boot \(lockdown\) only a signed kernel boots" %
            re.escape(path))


class Guest(mf.Guest):
    """bootmenu from the Secure Boot disk under the enforcing firmware."""

    def __init__(self, name, disk=None, **kw):
        ScreenGuest.__init__(self, Qemu(B, name, uefi="secboot",
                                        disks=[need(disk or DISK)],
                                        extra=["-nic", "none"], **kw))


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


def outside_ignored(g, since, stub_line):
    """From output offset @since (a boot's start): the menu comes up with
    "Secure Boot: on" and the outside /init never runs; the EFI stub had
    loaded the outside initrd (@stub_line), our kernel said it ignores it
    and reserved no RAMDISK for it."""
    g.screen, g.fed = Screen(), since
    end = time.monotonic() + 240
    while not re.search(r"Secure Boot: on", g.show()):
        if re.search(OUTSIDE_RAN, g.q.output()[since:]):
            raise AssertionError("the outside initrd's /init ran:\n" + g.q.tail())
        if time.monotonic() > end or g.q.proc.poll() is not None:
            raise AssertionError("no menu with \"Secure Boot: on\":\n" +
                                 g.screen.text())
        time.sleep(0.3)
    out = g.q.output()[since:]
    if re.search(OUTSIDE_RAN, out):
        raise AssertionError("the outside initrd's /init ran")
    if not re.search(stub_line, out):
        raise AssertionError("the EFI stub did not load the outside initrd "
                             "(no /%s/): the test proves nothing" % stub_line)
    if not re.search(IGNORED_LINE, out):
        raise AssertionError("the kernel did not say /%s/" % IGNORED_LINE)
    m = re.search(r"RAMDISK: \[mem .*", out)
    if m:
        raise AssertionError("the kernel took the outside initrd: " + m.group(0))


def outside_initrd_qemu():
    """Also a command line from outside (the image's load options): the
    signed image takes only its built-in one, from the decompressor on
    (kernel/patches/0003): clearcpuid= must not clear a CPU feature."""
    g = Guest("sb-outside-qemu", kernel=need(SIGNED_EFI), initrd=need(OUTSIDE),
              append="clearcpuid=popcnt bootmenu.shell")
    try:
        outside_ignored(g, 0, STUB_DEVICE)
        out = g.q.output()
        m = re.search(r"Clearing CPUID bits:.*|Kernel command line:.*"
                      r"(clearcpuid|bootmenu\.shell).*", out)
        if m:
            raise AssertionError("the outside command line was read: " +
                                 m.group(0))
        if not re.search(r"Command line: console=tty0 console=ttyS0,115200",
                         out):
            raise AssertionError("the kernel does not show its built-in "
                                 "command line first")
    finally:
        g.close()


def ucs2(text):
    return (text + "\0").encode("utf-16-le")


def outside_load_option():
    """Boot0039: "bootmenu outside initrd", HD(1,GPT,<ESP's PARTUUID>,start,
    size)/File(\\EFI\\BOOT\\BOOTX64.EFI)/End, optional data the UCS-2
    string initrd=\\outside.cpio (EFI_LOAD_OPTION, UEFI 2.10 3.1.3; the
    same layout as bootmenu/efi/loadopt.c and devpath.c write)."""
    table = json.loads(subprocess.run(["sfdisk", "-J", need(DISK)], check=True,
                                      capture_output=True).stdout)
    esp = table["partitiontable"]["partitions"][0]
    hd = (bytes([4, 1]) + (42).to_bytes(2, "little") +
          (1).to_bytes(4, "little") + esp["start"].to_bytes(8, "little") +
          esp["size"].to_bytes(8, "little") + uuid.UUID(esp["uuid"]).bytes_le +
          bytes([2, 2]))  # GPT, a GUID signature
    name = ucs2("\\EFI\\BOOT\\BOOTX64.EFI")
    file = bytes([4, 4]) + (4 + len(name)).to_bytes(2, "little") + name
    path = hd + file + bytes([0x7f, 0xff, 4, 0])
    return ((1).to_bytes(4, "little") + len(path).to_bytes(2, "little") +
            ucs2("bootmenu outside initrd") + path + ucs2("initrd=\\outside.cpio"))


def octal(data):
    """@data as printf escapes."""
    return "".join("\\%03o" % b for b in data)


def outside_initrd_boot_option():
    os.makedirs(W, exist_ok=True)
    vars_file = os.path.join(W, "OVMF_VARS.outside.fd")
    if os.path.exists(vars_file):
        os.unlink(vars_file)
    attrs = bytes([7, 0, 0, 0])  # non-volatile, boot and runtime access
    option = attrs + outside_load_option()
    nxt = attrs + OUTSIDE_NUM.to_bytes(2, "little")
    var = "Boot%04X-%s" % (OUTSIDE_NUM, GUID)
    g = Guest("sb-outside-bootnext", vars_file=vars_file, reboot=True)
    try:
        g.wait_screen(r"Secure Boot: on", 240)
        g.wait_screen(re.escape(SIGNED), 30)
        g.keys(DOWN)  # the countdown stops
        g.keys("s")
        g.q.expect(r"# ?$|\$ ?$|rescue shell|exit", 60)
        time.sleep(1)
        # issue #38: the signed image loads no module, signed or not: its
        # kernel has no module loader at all (MODULES off: no
        # /proc/modules, init_module() is ENOSYS), which the modules
        # experiment kept so (kernel/README.md)
        g.q.send("[ -e /proc/modules ] && echo MOD''ULES=on || echo MOD''ULES=off\n")
        m = g.q.expect(r"MODULES=(on|off)\r?\n", 30)  # not the typed line's echo
        if m.group(1) != "off":
            raise AssertionError("the Secure Boot image's kernel can load modules")
        # the escapes in shell variables, each line well under busybox's
        # 1024-character limit; printf into /tmp, then dd: efivarfs takes a
        # variable in one write(), and printf's stdio may flush at a 0x0a
        esc = octal(option)
        parts = [esc[i:i + 512] for i in range(0, len(esc), 512)]
        for i, part in enumerate(parts):
            g.q.send("o%d='%s'\n" % (i, part))
        g.q.send("printf \"%s\" > /tmp/opt && printf '%s' > /tmp/next && "
                 "cd /sys/firmware/efi/efivars && "
                 "dd if=/tmp/opt of=%s bs=4096 2>/dev/null && "
                 "dd if=/tmp/next of=BootNext-%s bs=4096 2>/dev/null && "
                 "echo VARS-BEGIN && xxd -p %s | tr -d '\\n' && echo && "
                 "echo VARS-END\n" % (
                     "".join("$o%d" % i for i in range(len(parts))),
                     octal(nxt), var, GUID, var))
        m = g.q.expect(r"VARS-BEGIN\r?\n([0-9a-f]*)\r?\nVARS-END", 60)
        if m.group(1) != option.hex():
            raise AssertionError("%s reads back as %s, not %s" % (
                var, m.group(1), option.hex()))
        since = len(g.q.output())
        g.q.send("reboot -f\n")
        outside_ignored(g, since, STUB_OPTION)
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
    if only in "outside_qemu":
        ok &= check("e2e.secureboot.outside_initrd_qemu_ignored", outside_initrd_qemu)
    if only in "outside_bootnext":
        ok &= check("e2e.secureboot.outside_initrd_boot_option_ignored",
                    outside_initrd_boot_option)
    sys.exit(0 if ok else 1)
