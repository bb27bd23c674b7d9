#!/usr/bin/env python3
"""Slow and stalling servers never hold the menu (issue #36, test 1).

The demo disk (its default boots after the countdown) and a network
whose pxelinux.cfg/default INCLUDEs three files: one over HTTP from a
server that sends its headers and part of the body, then nothing
(tests/e2e/httpd_stall.py through guestfwd= at 10.0.2.100), one from a
TFTP server that never answers (10.0.2.99: QEMU's restricted user
network has nobody there), and one the TFTP server of the network
(10.0.2.2) has. bootmenu fetches included files in the background: the
menu draws and answers keys while they are pending, the local default
boots when its countdown ends, the include that arrives adds its entry,
and the two that fail say why in the network entry's details.

Times are the host's: qemu.py notes when each chunk of the serial line
arrives; a key is stamped when it is sent, its redraw when the selected
entry's title is drawn again after it. The guest is booted from
build/kernel/bzImage and build/initramfs.cpio.gz (the same initramfs
bootmenu.efi carries)."""
import bisect
import os
import re
import shutil
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))
from qemu import Qemu, check, need  # noqa: E402
from screen import BOOTED, ScreenGuest  # noqa: E402

B = os.path.abspath(sys.argv[1])
W = os.path.join(B, "e2e-netslow")
CON = "console=ttyS0,115200"
MAC = "52:54:00:12:34:56"
NIC = "virtio-net-pci,netdev=n0,mac=" + MAC
HERE = os.path.dirname(os.path.abspath(__file__))
STALL = os.path.join(HERE, "httpd_stall.py")
DOWN, UP, END = "\x1b[B", "\x1b[A", "\x1b[F"
# a key's redraw must arrive within this (issue #36: "within 100 ms")
KEY_MS = 100
# the stalled HTTP include fails after bootmenu's 20 s without data, the
# silent TFTP server's after 3 s (net/fetch.h): the includes are pending
# for at least this long once the network's entries show
PENDING_S = 20


def tree(case):
    """BUILD/e2e-netslow/@case/: pxelinux.0 (a placeholder), the target's
    kernel and initrd, pxelinux.cfg/default with its own entry net-main
    and the three INCLUDEs (stalled HTTP first, so the others queue
    behind it), and extra.cfg with the entry net-extra."""
    d = os.path.join(W, case)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(os.path.join(d, "pxelinux.cfg"))
    with open(os.path.join(d, "pxelinux.0"), "w") as f:
        f.write("placeholder: bootmenu never runs it\n")
    shutil.copy(need(os.path.join(B, "kernel", "bzImage")), os.path.join(d, "vmlinuz"))
    shutil.copy(need(os.path.join(B, "target-initrd.cpio.gz")), os.path.join(d, "initrd.gz"))
    label = ("LABEL %s\n  KERNEL vmlinuz\n  APPEND initrd=initrd.gz " + CON +
             " demo.entry=%s target.poweroff\n")
    with open(os.path.join(d, "pxelinux.cfg", "default"), "w") as f:
        f.write(label % ("net-main", "net-main") +
                "INCLUDE http://10.0.2.100/s.cfg\n"
                "INCLUDE tftp://10.0.2.99/n.cfg\n"
                "INCLUDE extra.cfg\n")
    with open(os.path.join(d, "extra.cfg"), "w") as f:
        f.write(label % ("net-extra", "net-extra"))
    return d


def guest(case, d, timeout):
    """The demo disk and the network of @d, bootmenu.timeout=@timeout."""
    net = ("user,id=n0,restrict=on,tftp=%s,bootfile=pxelinux.0,"
           "guestfwd=tcp:10.0.2.100:80-cmd:python3 %s" % (d.replace(",", ",,"), STALL))
    return Qemu(B, "netslow-" + case, kernel=need(os.path.join(B, "kernel", "bzImage")),
                initrd=need(os.path.join(B, "initramfs.cpio.gz")),
                append="%s bootmenu.net=on bootmenu.timeout=%d" % (CON, timeout),
                disks=[need(os.path.join(B, "demo.img"))],
                extra=["-netdev", net, "-device", NIC])


def arrival(q, end):
    """When the byte before raw offset @end of the serial output arrived
    (the host's monotonic clock)."""
    with q.lock:
        stamps = list(q.stamps)
    i = bisect.bisect_left([e for e, _ in stamps], end)
    return stamps[min(i, len(stamps) - 1)][1]


def first(q, pattern, start=0):
    """The arrival time of the first match of @pattern in the raw serial
    output from offset @start; None when there is none."""
    with q.lock:
        m = re.compile(pattern).search(q.buf, start)
    return arrival(q, m.end()) if m else None


def rows(screen_text):
    """The menu's selectable rows as drawn: (title, is_default) for each
    entry (indented, "* " marking the default) and each group ("[+]
    label"), in order; filesystem lines (not indented) are left out."""
    out = []
    for ln in screen_text.splitlines()[1:-3]:
        m = re.match(r"^ {2,}(?:([* ])|\[[+-]\]) (\S.*?)\s*$", ln)
        if m:
            out.append((m.group(2), m.group(1) == "*"))
    return out


def key_ms(g, key, title):
    """Send @key; milliseconds until @title (the entry it selects) is drawn
    again after it."""
    q = g.q
    with q.lock:
        start = len(q.buf)
    sent = time.monotonic()
    q.send(key)
    end = sent + 10
    while time.monotonic() < end:
        with q.lock:
            i = q.buf.find(title, start)
        if i >= 0:
            return (arrival(q, i + len(title)) - sent) * 1000
        time.sleep(0.01)
    raise AssertionError("no redraw of %r within 10 s of the key:\n%s" % (
        title, g.screen.text()))


def keys_answer_while_pending():
    """While the includes are pending: Down and Up each redraw the
    selection within KEY_MS (all three key presses, host-stamped); the
    network entry's details say its includes are being fetched; then the
    include the server has adds net-extra, and the details say why each
    of the other two failed: the stalled transfer, the silent server."""
    d = tree("keys")
    try:
        g = ScreenGuest(guest("keys", d, 60))
        try:
            g.wait_screen(r"^ +. net-main$", 240)
            shown = time.monotonic()
            menu = rows(g.show())
            titles = [t for t, _ in menu]
            dflt = [t for t, isdef in menu if isdef]
            if not dflt or titles.index(dflt[0]) + 1 >= len(titles):
                raise AssertionError("no default with an entry below it:\n" + g.screen.text())
            below = titles[titles.index(dflt[0]) + 1]
            times = [key_ms(g, DOWN, below), key_ms(g, UP, dflt[0]),
                     key_ms(g, DOWN, below)]
            pressed = time.monotonic()
            print("  keys while pending: %s ms (Down, Up, Down; %.1f s after the "
                  "network's entries showed)" % (", ".join("%.0f" % t for t in times),
                                                  pressed - shown))
            g.keys(END, "i")
            g.wait_screen(r"s\.cfg:0: cannot read: not here yet: fetching", 30)
            g.wait_screen(r"n\.cfg:0: cannot read: not here yet: fetching", 5)
            if time.monotonic() - shown > PENDING_S:
                raise AssertionError("the keys took past the include's stall: "
                                     "nothing was pending any more")
            g.keys(" ")
            g.wait_screen(r"^ +. net-extra$", 120)
            g.keys(END, "i")
            g.wait_screen(r"s\.cfg:0: cannot read: no data for 20 seconds", 30)
            g.wait_screen(r"n\.cfg:0: cannot read: the TFTP server 10\.0\.2\.99", 5)
            print("  details: " + " | ".join(
                ln.strip() for ln in g.screen.text().splitlines() if "cannot read" in ln))
        finally:
            g.close()
    finally:
        shutil.rmtree(d, ignore_errors=True)
    slow = [t for t in times if t > KEY_MS]
    if slow:
        raise AssertionError("a key's redraw took %s ms, more than %d ms" % (
            ", ".join("%.0f" % t for t in slow), KEY_MS))


def local_default_boots_on_time():
    """No key: the countdown's first frame ("in 8 s") and the first frame
    of the loading bar are 8 s apart (-1 s, +3 s for a loaded host), the
    network's entries having come before the boot with their includes
    pending (the stalled one takes 20 s to fail, so whether the entries
    came just before the countdown's first frame or during it, their
    includes were pending all through it); the demo disk's default
    boots."""
    timeout = 8
    d = tree("countdown")
    try:
        q = guest("countdown", d, timeout)
        try:
            got = q.expect(BOOTED, 300).group(1)
            count = first(q, r"Booting [^\r\n\x1b]{1,200}? in %d s" % timeout)
            start = first(q, r"Loading \[")
            net = first(q, r"net-main")
        finally:
            q.close()
    finally:
        shutil.rmtree(d, ignore_errors=True)
    if None in (count, start, net):
        raise AssertionError("not stamped: countdown %s, loading %s, net-main %s" % (
            count, start, net))
    print("  countdown %.2f s, network entries %+.2f s, loading %+.2f s" % (
        0, net - count, start - count))
    if not net < start:
        raise AssertionError("the network's entries did not come before the boot: "
                             "the test proves nothing")
    if not timeout - 1 <= start - count <= timeout + 3:
        raise AssertionError("the boot started %.2f s after the countdown's first "
                             "frame, want %d s" % (start - count, timeout))
    if got.startswith("net-"):
        raise AssertionError("booted the network's %s, want the disk's default" % got)


ok = check("e2e.netslow.keys_answer_while_pending", keys_answer_while_pending)
ok = check("e2e.netslow.local_default_boots_on_time", local_default_boots_on_time) and ok
sys.exit(0 if ok else 1)
