#!/usr/bin/env python3
"""The network on by default, and harmless (network = auto, issue #36):
nothing is configured (no bootmenu.net=, the shipped bootmenu.conf), and
bootmenu asks DHCP on every wired link from the start. A lease with a boot
file gives the network's entries, listed after the local ones; a local
default always wins, and with no local entry the network's default boots
at the end of its countdown, as a PXE firmware would boot it. A lease with
no boot file (what most networks give) leads nowhere: no lookup on any
server, nothing in the menu. QEMU's user network (restrict=on: nothing
leaves QEMU) is the DHCP and TFTP server; the guest is 10.0.2.15, the
server 10.0.2.2."""
import mmap
import os
import re
import shutil
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))
from pxetree import tftp_tree  # noqa: E402
from qemu import Qemu, check, need  # noqa: E402
from screen import BOOTED, RESTARTED, Screen, ScreenGuest  # noqa: E402

B = os.path.abspath(sys.argv[1])
EFI = os.path.join(B, "bootmenu.efi")
DEMO = os.path.join(B, "demo.img")
W = os.path.join(B, "e2e-netauto")
DI = "/usr/lib/debian-installer/images/12/amd64/text"
ESC_RE = re.compile(r"\x1b(\[[0-9;?>]*[@-~]|[()][0-9A-Za-z]|[78DEMc=>])")
# what only the installer's own kernel writes: its printk of the command
# line pxelinux.cfg's "Install" gives it, BOOT_IMAGE= first as syslinux
# puts it (bootmenu logs no "Command line: ", and its own kernel's line is
# "console=tty0 ...")
DI_CMDLINE = (rb"Command line: BOOT_IMAGE=debian-installer/amd64/linux vga=788 "
              rb"initrd=debian-installer/amd64/initrd\.gz --- quiet")


def nic(options):
    """QEMU's default card (e1000e) on a restricted user network."""
    return ["-nic", "user,model=e1000e,restrict=on" + options]


def screens(out):
    """Every screen the serial output @out drew, replayed through
    screen.py's vt220, one text each time a sequence starts (a line is
    often redrawn in part: only a replayed screen shows it whole)."""
    s, seen = Screen(), []
    for part in re.split(r"(?=\x1b\[)", out):
        s.feed(part)
        text = s.text()
        if not seen or seen[-1] != text:
            seen.append(text)
    return seen


def guest_ram_has(q, pattern, mem_mib, timeout):
    """Whether @pattern (bytes, a regex) is in the guest's RAM within
    @timeout seconds: QEMU's monitor saves it to a file (pmemsave) every
    10 s, which is searched and removed."""
    path = os.path.join(os.path.dirname(q.log_path), q.name + ".ram")
    rx = re.compile(pattern)
    end = time.monotonic() + timeout
    try:
        while time.monotonic() < end:
            # the name quoted: HMP reads an unquoted "/" as a division
            q.monitor('pmemsave 0 %#x "%s"' % (mem_mib << 20, path))
            for _ in range(100):  # the monitor answers before the file is whole
                if os.path.exists(path) and os.path.getsize(path) == mem_mib << 20:
                    break
                time.sleep(0.2)
            with open(path, "rb") as f, mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as m:
                if rx.search(m):
                    return True
            time.sleep(10)
    finally:
        if os.path.exists(path):
            os.remove(path)
    return False


def debian_installer_boots_unattended():
    """Issue #36's test 0: no disk, nothing configured, the network
    offering Debian's real netboot tree (Debian's
    debian-installer-12-netboot-amd64, as installed). While there is no
    entry the menu says it waits for the network; the tree's default
    ("Install") then counts down and boots with no key pressed. The
    installer's kernel has no serial console; that it booted is read in
    the guest's RAM: its own printk of its command line."""
    mem = 1024
    q = Qemu(B, "netauto-debian-installer", kernel=need(EFI), mem=mem,
             extra=nic(",tftp=%s,bootfile=pxelinux.0" % need(DI)))
    try:
        q.expect(r"Booting Install in \d+ s", 240)
        waited = [t for t in screens(q.output()) if "Waiting for the network: " in t]
        q.expect(r"Starting Install", 600)
        if re.search(RESTARTED, q.output()):
            raise AssertionError("/init restarted bootmenu")
        booted = guest_ram_has(q, DI_CMDLINE, mem, 240)
    finally:
        q.close()
    if not waited:
        raise AssertionError("the menu never said it was waiting for the network")
    print("  " + re.search(r"Waiting for the network: [^\n]*", waited[0]).group(0).strip())
    if not booted:
        raise AssertionError("no \"%s\" in the guest's RAM: the installer's kernel "
                             "did not start" % DI_CMDLINE.decode())


def local_default_wins():
    """The demo disk and a network offering a boot file, nothing
    configured: the network's entries are listed after the disk's, the
    default (marked *) stays the disk's, and the disk's default boots at
    the end of its countdown with no key pressed (bootmenu.timeout=30:
    time for the network's entries to come on a busy host)."""
    d = tftp_tree(B, W, "local-wins", {"default": "net-default"})
    try:
        g = ScreenGuest(Qemu(B, "netauto-local-wins", kernel=need(EFI),
                             append="bootmenu.timeout=30", disks=[need(DEMO)],
                             extra=nic(",tftp=%s,bootfile=pxelinux.0" % d)))
        try:
            g.wait_screen(r"^eth0  tftp  \S+ 10\.0\.2\.15 from 10\.0\.2\.2", 90)
            screen = g.wait_screen(r"^ +net-default$", 30).string
            got = g.q.expect(BOOTED, 120).group(1)
            g.not_restarted()
        finally:
            g.close()
    finally:
        shutil.rmtree(d, ignore_errors=True)
    lines = screen.splitlines()
    star = [i for i, ln in enumerate(lines) if re.match(r"^ +\* ", ln)]
    net = [i for i, ln in enumerate(lines) if ln.startswith("eth0  tftp")]
    print("  default: %s; the network's group at row %d" % (
        lines[star[0]].strip() if star else "none", net[0]))
    if not star or star[0] > net[0]:
        raise AssertionError("the default is not a local entry above the network's:\n" +
                             screen)
    if got.startswith("net-"):
        raise AssertionError("the network's %s booted, not the disk's default" % got)


def no_boot_file_leads_nowhere():
    """The demo disk and a DHCP server that names no boot file (QEMU's,
    with no bootfile=), nothing configured: DHCP is asked (the status
    line says so), then nothing more: no config is looked for on any
    server (no "looking for" on the status line, not the "named no boot
    file" warning `network = on` gives), no network group in the menu; the
    disk's default boots with no key pressed."""
    g = ScreenGuest(Qemu(B, "netauto-no-boot-file", kernel=need(EFI),
                         append="bootmenu.timeout=8", disks=[need(DEMO)],
                         extra=nic("")))
    try:
        got = g.q.expect(BOOTED, 240).group(1)
        g.not_restarted()
        out = g.q.output()
    finally:
        g.close()
    plain = ESC_RE.sub("", out)
    if not re.search(r"asking for an address \(DHCP\)", plain):
        raise AssertionError("the status line never said DHCP was asked")
    for bad in (r"looking for", r"named no boot file", r"eth0  tftp"):
        if re.search(bad, plain) or any(bad in t for t in screens(out)):
            raise AssertionError("with no boot file offered the network still "
                                 "went on: /%s/" % bad)
    if got.startswith("net-") or got == "-":
        raise AssertionError("booted %s, not the disk's default" % got)
    print("  booted %s" % got)


def esc_stops_waiting():
    """No disk, nothing configured, two links: eth0 with no peer (DHCP
    never answered: the network stays at work) and eth1 on a network
    offering a boot file, its cable out (QEMU's set_link off). The menu
    says it waits for the network; Esc stops the wait ("No boot entries
    found"). The cable goes in: eth1's entries come and are listed, with
    the default marked, but nothing boots without a key, well past their
    countdown (pxe_cfg's 1 s, bootmenu's 5 s at most)."""
    d = tftp_tree(B, W, "esc", {"default": "net-default"})
    try:
        q = Qemu(B, "netauto-esc", kernel=need(EFI),
                 extra=["-device", "e1000e,mac=52:54:00:12:34:58",
                        "-netdev", "user,id=n1,restrict=on,tftp=%s,bootfile=pxelinux.0" % d,
                        "-device", "e1000e,netdev=n1,mac=52:54:00:12:34:56"])
        g = ScreenGuest(q)
        try:
            time.sleep(0.5)  # the monitor's socket, before the guest runs far
            q.monitor("set_link n1 off")
            q.expect(r"init: bootmenu \d+\.\d+", 90)
            g.wait_screen(r"Waiting for the network: .*Esc stops waiting", 90)
            g.keys("\x1b")
            g.wait_screen(r"No boot entries found", 30)
            q.monitor("set_link n1 on")
            g.wait_screen(r"^ +\* net-default$", 120)
            time.sleep(15)
            out = q.output()
            screen = g.show()
        finally:
            g.close()
    finally:
        shutil.rmtree(d, ignore_errors=True)
    if re.search(BOOTED, out) or "Starting " in ESC_RE.sub("", out):
        raise AssertionError("an entry booted after Esc stopped the wait")
    if re.search(r"Booting \S.* in \d+ s", screen):
        raise AssertionError("a countdown runs after Esc:\n" + screen)


def listed(case, disks, d):
    """`bootmenu --list` in the rescue shell, nothing configured, with
    @disks and a network serving the tree @d: its output."""
    q = Qemu(B, "netauto-list-" + case, kernel=need(EFI), append="bootmenu.shell",
             disks=disks, extra=nic(",tftp=%s,bootfile=pxelinux.0" % d))
    try:
        q.expect(r"rescue shell", 90)
        q.send("bootmenu --list 2>&1; echo LIST-\"\"END\n")
        q.expect(r"LIST-END\s", 200)
        return q.output()
    finally:
        q.close()


def list_uses_network_without_local():
    """--list (and so --boot N, which numbers the same list) under auto:
    with no disk it waits for the network and lists its entries, the
    network's default marked; with the demo disk it lists the disk's
    entries alone, the network not asked (a local entry always wins)."""
    d = tftp_tree(B, W, "list", {"default": "net-default"})
    try:
        bare = listed("nodisk", [], d)
        local = listed("demo", [need(DEMO)], d)
    finally:
        shutil.rmtree(d, ignore_errors=True)
    if not re.search(r"\*[^\n]*net-default\b", bare) or "net-default-decoy" not in bare:
        raise AssertionError("--list with no disk does not list the network's "
                             "entries with net-default as the default:\n" + bare[-1500:])
    if "net-default" in local or "Demo BLS" not in local:
        raise AssertionError("--list with the demo disk lists the network's "
                             "entries, or not the disk's:\n" + local[-1500:])


ok = check("e2e.netauto.debian_installer_boots_unattended",
           debian_installer_boots_unattended)
ok = check("e2e.netauto.local_default_wins", local_default_wins) and ok
ok = check("e2e.netauto.no_boot_file_leads_nowhere", no_boot_file_leads_nowhere) and ok
ok = check("e2e.netauto.esc_stops_waiting", esc_stops_waiting) and ok
ok = check("e2e.netauto.list_uses_network_without_local",
           list_uses_network_without_local) and ok
sys.exit(0 if ok else 1)
