#!/usr/bin/env python3
"""Dual boot under UEFI through the firmware (issue #19).

OVMF (Secure Boot off) with a kept copy of OVMF_VARS_4M.fd, booting
build/dualboot/disk.img: its ESP holds bootmenu.efi as the fallback
loader and a stand-in for Windows (tests/target/standin.c, built with
Debian's gnu-efi) at \\EFI\\Microsoft\\Boot\\bootmgfw.efi, which prints
a marker and powers off.

1. bootmenu lists "Windows Boot Manager"; choosing it makes a Boot####
   for that file, sets BootNext and restarts; the firmware runs the
   stand-in (its marker appears).
2. The next power-on is bootmenu again: BootNext is gone (the firmware
   consumed it), BootOrder is byte for byte what it was before, and the
   Boot#### bootmenu made is still there for next time.
   The firmware's own boot options are listed, each once: the Boot####
   bootmenu made for Windows is not a second "Windows Boot Manager".
3. "UEFI Firmware Settings" restarts into OVMF's setup screen.
4. The grub.cfg entry os-prober writes for that Windows (search
   --fs-uuid, chainloader), its config's default, boots the stand-in
   through the firmware with no key pressed.
5. efivarfs read-only: choosing Windows gives the dialog with the reason,
   the menu stays, and every variable is as it was.
The rescue shell (`s` in the menu) reads the variables from efivarfs."""
import os
import re
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))
from qemu import Qemu, check, need  # noqa: E402
from screen import ScreenGuest  # noqa: E402
import test_menu_faults as mf  # noqa: E402

B = os.path.abspath(sys.argv[1])
DISK = os.path.join(B, "dualboot", "disk.img")
GRUB_DISK = os.path.join(B, "dualboot", "grub.img")
W = os.path.join(B, "e2e-dualboot")
DOWN, ENTER = "\x1b[B", "\r"
WINDOWS = "Windows Boot Manager"
FW_UI = "UEFI Firmware Settings"
STANDIN = r"BOOTMENU-STANDIN: the firmware started the stand-in loader"
GUID = "8be4df61-93ca-11d2-aa0d-00e098032b8c"


class Guest(mf.Guest):
    def __init__(self, name, vars_file, disks=(DISK,)):
        ScreenGuest.__init__(self, Qemu(B, name, uefi=True, reboot=True,
                                        vars_file=vars_file,
                                        disks=[need(d) for d in disks],
                                        extra=["-nic", "none"]))

    def menu(self):
        self.wait_screen(re.escape(WINDOWS), 240)
        self.keys(DOWN)  # the countdown stops

    def shell(self, cmd):
        """@cmd in the menu's rescue shell; its output between markers."""
        self.keys("s")
        self.q.expect(r"# ?$|\$ ?$|rescue shell|exit", 60)
        time.sleep(1)
        self.q.send("echo VARS-BEGIN; %s; echo VARS-END; exit\n" % cmd)
        m = self.q.expect(r"VARS-BEGIN\r?\n([\s\S]*?)VARS-END", 60)
        self.wait_screen(r"Enter boot  e edit", 60)
        return m.group(1).replace("\r", "")

    def variables(self):
        """(BootOrder as hex, whether BootNext exists, Boot#### names and
        descriptions as `strings` sees them)."""
        out = self.shell(
            "cd /sys/firmware/efi/efivars && "
            "xxd -p BootOrder-%s | tr -d '\\n'; echo; "
            "ls BootNext-%s 2>/dev/null | wc -l; "
            "for f in Boot0*-%s; do echo $f; done" % (GUID, GUID, GUID))
        lines = [ln.strip() for ln in out.splitlines() if ln.strip()]
        return lines[0], lines[1] != "0", lines[2:]

    def firmware_entries(self):
        """(id, title) of each entry `bootmenu --list --json` shows for
        the firmware's own options, and every title listed."""
        out = self.shell("bootmenu --list --json 2>/dev/null")
        pairs = re.findall(r'\{"id":"([^"]*)","loader_id":"[^"]*","title":"([^"]*)"', out)
        if not pairs:
            raise AssertionError("bootmenu --list --json printed no entry:\n"
                                 + out[-2000:])
        opts = [(i, t) for i, t in pairs if re.match(r"Boot[0-9A-F]{4}$", i)]
        return opts, [t for _, t in pairs]


def fresh_vars(name):
    """W/@name, removed: the first guest copies OVMF's template there."""
    os.makedirs(W, exist_ok=True)
    path = os.path.join(W, name)
    if os.path.exists(path):
        os.unlink(path)
    return path


def windows_then_back():
    vars_file = fresh_vars("OVMF_VARS.fd")
    g = Guest("dualboot-windows", vars_file)
    try:
        g.menu()
        order, next_before, boots_before = g.variables()
        if next_before:
            raise AssertionError("BootNext is set before the test")
        g.select(WINDOWS)
        g.keys(ENTER)
        g.q.expect(STANDIN, 300)
        g.q.wait_exit(120)
    finally:
        g.close()
    g = Guest("dualboot-back", vars_file)
    try:
        g.menu()
        order2, next_after, boots_after = g.variables()
        if next_after:
            raise AssertionError("BootNext is still set after the stand-in ran")
        if order2 != order:
            raise AssertionError("BootOrder changed: %s, was %s" % (order2, order))
        made = set(boots_after) - set(boots_before)
        if len(made) != 1:
            raise AssertionError("Boot#### made by bootmenu: %s (before %s)"
                                 % (boots_after, boots_before))
        opts, titles = g.firmware_entries()
        if not opts:
            raise AssertionError("none of OVMF's own boot options is listed: "
                                 "%s" % titles)
        if titles.count(WINDOWS) != 1 or \
                any(t.endswith("(bootmenu)") for t in titles):
            raise AssertionError("Windows is listed more than once: %s"
                                 % titles)
        for num, _ in opts:
            if not any(b.startswith(num + "-") for b in boots_after):
                raise AssertionError("%s is listed but is no variable" % num)
    finally:
        g.close()


def chainload_default():
    vars_file = fresh_vars("OVMF_VARS.chain.fd")
    g = Guest("dualboot-chainload", vars_file, disks=(DISK, GRUB_DISK))
    try:
        # no key: the grub.cfg default counts down and boots
        g.q.expect(STANDIN, 400)
        g.q.wait_exit(120)
    finally:
        g.close()


def refused_write():
    vars_file = fresh_vars("OVMF_VARS.refused.fd")
    g = Guest("dualboot-refused", vars_file)
    try:
        g.menu()
        before = g.variables()
        g.shell("mount -o remount,ro /sys/firmware/efi/efivars")
        g.select(WINDOWS)
        g.keys(ENTER)
        g.wait_screen(re.escape(mf.CANNOT), 120)
        g.wait_screen(r"Read-only file system", 30)
        g.keys(" ")
        g.wait_screen(r"Enter boot  e edit", 60)
        after = g.variables()
        if after != before:
            raise AssertionError("variables changed: %s, were %s"
                                 % (after, before))
    finally:
        g.close()


def firmware_settings():
    vars_file = fresh_vars("OVMF_VARS.fwui.fd")
    g = Guest("dualboot-fw-ui", vars_file)
    try:
        g.menu()
        g.select(FW_UI)
        g.keys(ENTER)
        # OVMF's front page, drawn on the serial console
        g.q.expect(r"Boot Maintenance Manager", 300)
    finally:
        g.close()


if __name__ == "__main__":
    only = sys.argv[2] if len(sys.argv) > 2 else ""
    ok = True
    if only in "windows":
        ok &= check("e2e.dualboot.windows_then_back", windows_then_back)
    if only in "settings":
        ok &= check("e2e.dualboot.firmware_settings", firmware_settings)
    if only in "chainload":
        ok &= check("e2e.dualboot.chainload_default", chainload_default)
    if only in "refused":
        ok &= check("e2e.dualboot.refused_write", refused_write)
    sys.exit(0 if ok else 1)
