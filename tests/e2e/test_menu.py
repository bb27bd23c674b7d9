#!/usr/bin/env python3
"""The curses menu over QEMU's serial console with build/demo.img.

Keys go in as the bytes a VT220/xterm sends (Down is ESC [ B); what the
target prints (BOOTMENU-TARGET lines) says which entry booted."""
import os
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))
from qemu import Qemu, check, need  # noqa: E402

B = os.path.abspath(sys.argv[1])
EFI = os.path.join(B, "bootmenu.efi")
DEMO = os.path.join(B, "demo.img")
BOOTED = r"BOOTMENU-TARGET: booted entry=(\S+)"


def menu(name, timeout=5):
    q = Qemu(B, name, kernel=need(EFI), append="bootmenu.timeout=%d" % timeout,
             disks=[need(DEMO)])
    q.expect(r"init: bootmenu \d+\.\d+", 90)
    q.expect(r"Booting .* in \d+ s", 120)
    return q


def key_stops_countdown():
    q = menu("menu-key-stops")
    try:
        q.send("j")
        time.sleep(9)
        if "BOOTMENU-TARGET" in q.output():
            raise AssertionError("the default booted after a key")
    finally:
        q.close()


def default_name():
    q = Qemu(B, "menu-default", kernel=need(EFI), append="bootmenu.timeout=0",
             disks=[need(DEMO)])
    try:
        return q.expect(BOOTED, 180).group(1)
    finally:
        q.close()


def down_enter_boots_another():
    default = default_name()
    q = menu("menu-down-enter")
    try:
        q.send("\x1b[B")
        time.sleep(1)
        q.send("\r")
        got = q.expect(BOOTED, 120).group(1)
        if got == default:
            raise AssertionError("Down+Enter booted the default %s" % got)
    finally:
        q.close()


def edit_appends_marker():
    q = menu("menu-edit")
    try:
        q.send("e")
        q.expect(r"Edit the command line", 30)
        q.send(" marker=edited")
        time.sleep(1)
        q.send("\r")
        q.expect(BOOTED, 120)
        q.expect(r"BOOTMENU-TARGET: cmdline=.*marker=edited", 10)
    finally:
        q.close()


def timeout_zero_boots_default():
    if default_name() == "-":
        raise AssertionError("target booted without demo.entry=")


ok = True
ok &= check("e2e.menu.key_stops_countdown", key_stops_countdown)
ok &= check("e2e.menu.down_enter_boots_another", down_enter_boots_another)
ok &= check("e2e.menu.edit_appends_marker", edit_appends_marker)
ok &= check("e2e.menu.timeout_zero_boots_default", timeout_zero_boots_default)
sys.exit(0 if ok else 1)
