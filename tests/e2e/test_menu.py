#!/usr/bin/env python3
"""The curses menu over QEMU's serial console with build/demo.img.

Keys go in as the bytes a VT220/xterm sends (Down is ESC [ B); what the
target prints (BOOTMENU-TARGET lines) says which entry booted. With a VGA
card beside the serial line the same menu shows on tty0 too: its screen is
taken with the monitor's screendump (PPM) and kept as
BUILD/menu-screenshot.png."""
import os
import struct
import sys
import time
import zlib

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


def read_ppm(path):
    """(width, height, RGB bytes) of a binary PPM (P6, maxval 255)."""
    with open(path, "rb") as f:
        data = f.read()
    fields, pos = [], 0
    while len(fields) < 4:
        while data[pos:pos + 1].isspace():
            pos += 1
        if data[pos:pos + 1] == b"#":
            pos = data.index(b"\n", pos)
            continue
        end = pos
        while not data[end:end + 1].isspace():
            end += 1
        fields.append(data[pos:end])
        pos = end
    if fields[0] != b"P6" or int(fields[3]) != 255:
        raise AssertionError("%s: not a P6 PPM with maxval 255" % path)
    w, h = int(fields[1]), int(fields[2])
    pixels = data[pos + 1:pos + 1 + w * h * 3]
    if len(pixels) != w * h * 3:
        raise AssertionError("%s: %d bytes of pixels, want %d" %
                             (path, len(pixels), w * h * 3))
    return w, h, pixels


def write_png(path, w, h, pixels):
    """RGB pixels as a PNG: signature, IHDR, one IDAT, IEND (RFC 2083)."""
    def chunk(kind, body):
        return (struct.pack(">I", len(body)) + kind + body +
                struct.pack(">I", zlib.crc32(kind + body) & 0xffffffff))
    rows = b"".join(b"\0" + pixels[y * w * 3:(y + 1) * w * 3]
                    for y in range(h))
    png = (b"\x89PNG\r\n\x1a\n" +
           chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)) +
           chunk(b"IDAT", zlib.compress(rows, 9)) + chunk(b"IEND", b""))
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        f.write(png)
    os.replace(tmp, path)


def screendump(q, name):
    """The VGA screen now, as (w, h, pixels); the PPM stays in the logs."""
    logs = os.path.dirname(q.log_path)
    path = os.path.join(logs, name + ".ppm")
    if os.path.exists(path):
        os.unlink(path)
    q.monitor("screendump " + path)
    end = time.monotonic() + 10
    while not os.path.exists(path) or os.path.getsize(path) < 15:
        if time.monotonic() > end:
            raise AssertionError("screendump wrote no %s" % path)
        time.sleep(0.2)
    time.sleep(0.5)  # written in one go, but let it finish
    return read_ppm(path)


def lit_pixels(img):
    """How many pixels differ from the most common (background) one."""
    w, h, px = img
    counts = {}
    for i in range(0, len(px), 3 * 7):  # every 7th pixel is plenty
        counts[px[i:i + 3]] = counts.get(px[i:i + 3], 0) + 1
    return sum(counts.values()) - max(counts.values())


def two_consoles():
    q = Qemu(B, "menu-two-consoles", kernel=need(EFI),
             append="bootmenu.timeout=300", disks=[need(DEMO)],
             extra=["-vga", "none", "-device", "VGA"])
    try:
        q.expect(r"init: bootmenu \d+\.\d+", 90)
        q.expect(r"Booting .* in \d+ s", 120)
        time.sleep(3)  # tty0 is drawn in the same pass as ttyS0
        before = screendump(q, "menu-two-consoles-1")
        if lit_pixels(before) < 500:
            raise AssertionError("the VGA screen is blank (%d lit pixels)" %
                                 lit_pixels(before))
        write_png(os.path.join(B, "menu-screenshot.png"), *before)
        # keys on the serial line drive what tty0 shows
        q.send("\x1b[B")
        time.sleep(1)
        q.send("i")
        q.expect(r"source:", 30)
        time.sleep(3)
        after = screendump(q, "menu-two-consoles-2")
        if after[2] == before[2]:
            raise AssertionError("the VGA screen did not follow the serial keys")
        if lit_pixels(after) < 500:
            raise AssertionError("the VGA details screen is blank")
    finally:
        q.close()


def shell_returns_to_menu():
    """`s` on the serial line: a shell there, with the serial line as its
    terminal (the VGA console shows where it runs); `exit` brings the
    menu back on both."""
    q = menu("menu-shell", timeout=300)
    try:
        time.sleep(1)
        q.send("s")
        q.expect(r"rescue shell; exit returns to the menu", 30)
        time.sleep(2)
        q.send("echo SHELL-$((6*7)) $(readlink /proc/self/fd/0)\r")
        q.expect(r"SHELL-42 /dev/ttyS0", 30)
        q.send("exit\r")
        q.expect(r"Enter boot", 30)
        q.send("\r")
        q.expect(BOOTED, 120)
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
ok &= check("e2e.menu.two_consoles_serial_drives_vga", two_consoles)
ok &= check("e2e.menu.shell_returns_to_menu", shell_returns_to_menu)
sys.exit(0 if ok else 1)
