#!/usr/bin/env python3
"""Links as they come (issue #36, test 3): the network source follows
network links while the menu runs.

bootmenu (build/kernel/bzImage with build/initramfs.cpio.gz, the same
bootmenu as bootmenu.efi's) with bootmenu.net=on and the demo disk; the
countdown is stopped by a key once the menu is drawn. QEMU's user network
(restrict=on: nothing leaves QEMU) is the DHCP and TFTP server; its TFTP
root is BUILD/e2e-netlinks/<case>/, whose pxelinux.cfg/default names one
entry, rewritten between the flaps so that the entry on the screen shows
which search found it.

- cable_later_and_flaps: a NIC is there from the start with its cable
  out (QEMU's set_link off before the guest runs); plugged in, its entry
  comes; out, the entry leaves; in again, DHCP and the search run again
  (the new config's entry comes, the old one's does not); then 5 quick
  flaps, the entry back after the last; Home and Enter boot the demo's
  default.
- nic_added_later: no NIC at start (-nic none), a PCIe root port free;
  after the menu is up, netdev_add and device_add put a virtio NIC there:
  its link gets a lease and its entry comes; set_link off and on: it
  leaves and comes back; device_del: it leaves, and the demo's default
  still boots. The kernel's native PCIe hotplug driver
  (CONFIG_HOTPLUG_PCI_PCIE, since 2026-12-07) sees the card come and go;
  QEMU's q35 is told to leave the root port's hotplug to it (by default
  q35 offers it through ACPI, whose driver, HOTPLUG_PCI_ACPI, is not
  built). A kernel built without it (no CONFIG_HOTPLUG_PCI_PCIE in
  build/kernel/obj/.config) is told instead by a rescan of the PCI bus
  from the menu's rescue shell, and of the removal by the device's sysfs
  remove, which give bootmenu the same kernel messages.
- usb_nic_added_later: no NIC at start, an xHCI controller; after the
  menu is up, device_add plugs a USB network adapter (QEMU's usb-net, a
  CDC Ethernet device) into it: its link gets a lease and its entry
  comes; device_del pulls it: the entry leaves, and the demo's default
  still boots. Skipped (not passed) when the kernel has no
  CONFIG_USB_NET_CDCETHER."""
import os
import re
import shutil
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))
from qemu import Qemu, Skip, check, need  # noqa: E402
from screen import BOOTED, ScreenGuest  # noqa: E402

B = os.path.abspath(sys.argv[1])
KERNEL = os.path.join(B, "kernel", "bzImage")
INITRD = os.path.join(B, "initramfs.cpio.gz")
DEMO = os.path.join(B, "demo.img")
W = os.path.join(B, "e2e-netlinks")
MAC = "52:54:00:12:34:57"
CON = "console=ttyS0,115200"
HOME, ENTER = "\x1b[1~", "\r"
DEMO_ROW = r"Demo BLS \(bootmenu kernel\)"


def tftp_tree(case):
    d = os.path.join(W, case)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(os.path.join(d, "pxelinux.cfg"))
    with open(os.path.join(d, "pxelinux.0"), "wb") as f:
        f.write(b"placeholder: not a real pxelinux.0\n")  # only its name matters
    return d


def serve(d, title):
    """pxelinux.cfg/default with one entry titled @title (QEMU's TFTP
    server reads the file when it is asked for)."""
    path = os.path.join(d, "pxelinux.cfg", "default")
    with open(path + ".tmp", "w") as f:
        f.write("DEFAULT net\nLABEL net\n  MENU LABEL %s\n  KERNEL vmlinuz\n"
                "  APPEND %s\n" % (title, CON))
    os.replace(path + ".tmp", path)


def netdev(d):
    return "user,id=n1,restrict=on,tftp=%s,bootfile=pxelinux.0" % d.replace(",", ",,")


def monitor(q, cmd):
    """@cmd on QEMU's monitor; its socket may not be there yet when QEMU
    has just started."""
    for tries in range(50):
        try:
            out = q.monitor(cmd)
            break
        except OSError:
            if tries == 49:
                raise
            time.sleep(0.2)
    if re.search(r"[Ee]rror", out):
        raise AssertionError("%s: %s" % (cmd, out[-300:]))
    return out


def start(name, extra, paused=False):
    """The menu with the demo disk and the network on; the countdown
    stopped by a key once it is drawn."""
    g = ScreenGuest(Qemu(B, name, kernel=need(KERNEL), initrd=need(INITRD),
                         append=CON + " bootmenu.net=on bootmenu.timeout=30",
                         disks=[need(DEMO)], extra=list(extra) + (["-S"] if paused else [])))
    return g


def menu_up(g):
    g.q.expect(r"init: bootmenu \d+\.\d+", 120)
    g.wait_screen(DEMO_ROW, 120)
    g.wait_screen(r"Booting .* in \d+ s", 120)
    g.q.send("j")  # a key: the countdown stops
    g.wait_screen(r"Booting .* in \d+ s", 30, gone=True)


def comes(g, title, timeout=120):
    """@title's row is drawn within @timeout s; returns the seconds taken."""
    t0 = time.monotonic()
    g.wait_screen(re.escape(title), timeout)
    return time.monotonic() - t0


def leaves(g, title, timeout=30):
    t0 = time.monotonic()
    g.wait_screen(re.escape(title), timeout, gone=True)
    return time.monotonic() - t0


def demo_default_boots(g):
    g.wait_screen(DEMO_ROW, 10)
    g.keys(HOME, ENTER)  # the demo's first row, its default
    got = g.q.expect(BOOTED, 240).group(1)
    if got != "bls":
        raise AssertionError("booted %s, not the demo's default bls" % got)
    g.not_restarted()


def shell(g, cmd, answer=r"SHELL-DONE-42"):
    """@cmd in the menu's rescue shell (`s`), then back to the menu;
    returns the match of @answer in what it printed."""
    g.q.send("s")
    g.q.expect(r"rescue shell; exit returns to the menu", 30)
    time.sleep(2)
    g.q.send(cmd + "; echo SHELL-DONE-$((6*7))\r")
    m = g.q.expect(answer, 60)
    if answer != r"SHELL-DONE-42":
        g.q.expect(r"SHELL-DONE-42", 60)
    g.q.send("exit\r")
    g.wait_screen(DEMO_ROW, 60)
    return m


def sample(g):
    """bootmenu's open fds and threads, and the cache directories of
    eth0's roots under /run/bootmenu/net (one a lease), from the shell."""
    m = shell(g, "p=$(pidof bootmenu); echo SAMPLE fds=$(ls /proc/$p/fd | wc -l)"
              " threads=$(ls /proc/$p/task | wc -l)"
              " caches=$(ls -d /run/bootmenu/net/eth0.[0-9]* | wc -l) END",
              r"SAMPLE fds=(\d+) threads=(\d+) caches=(\d+) END")
    return tuple(int(v) for v in m.groups())


def cable_later_and_flaps():
    d = tftp_tree("flaps")
    serve(d, "Net first 4711")
    nic = "virtio-net-pci,netdev=n1,id=nic1,mac=" + MAC
    g = start("netlinks-flaps", ["-netdev", netdev(d), "-device", nic], paused=True)
    try:
        monitor(g.q, "set_link nic1 off")  # the cable out before the guest runs
        monitor(g.q, "cont")
        menu_up(g)
        time.sleep(3)
        if "Net first 4711" in g.show():
            raise AssertionError("an entry came while the link had no cable")
        monitor(g.q, "set_link nic1 on")
        print("  plugged in: entry after %.1f s" % comes(g, "Net first 4711"))
        first = sample(g)
        serve(d, "Net second 0815")
        monitor(g.q, "set_link nic1 off")
        print("  out: entry gone after %.1f s" % leaves(g, "Net first 4711"))
        monitor(g.q, "set_link nic1 on")
        # a new lease and a new search: the config as it is now
        print("  in again: new config's entry after %.1f s" % comes(g, "Net second 0815"))
        if "Net first 4711" in g.show():
            raise AssertionError("the first search's entry came back")
        serve(d, "Net third 1234")
        for _ in range(5):
            monitor(g.q, "set_link nic1 off")
            time.sleep(1)
            monitor(g.q, "set_link nic1 on")
            time.sleep(1)
        print("  after 5 flaps: entry after %.1f s" % comes(g, "Net third 1234"))
        if "Net second 0815" in g.show():
            raise AssertionError("an entry of an earlier lease is still there")
        last = sample(g)
        print("  fds, threads, cache directories: %s after the first lease, "
              "%s after 7 flaps" % (first, last))
        if last != first or last[2] != 1:
            raise AssertionError("bootmenu kept something of the leases before: "
                                 "%s, then %s" % (first, last))
        demo_default_boots(g)
    finally:
        g.close()
        shutil.rmtree(d, ignore_errors=True)


def pulled_then_demo_boots(g, dev, title):
    """device_del @dev: the entry @title leaves; the demo's default boots."""
    monitor(g.q, "device_del " + dev)
    print("  removed: entry gone after %.1f s" % leaves(g, title))
    demo_default_boots(g)


def kernel_has(option):
    """Whether build/kernel/obj/.config has @option=y."""
    try:
        with open(os.path.join(B, "kernel", "obj", ".config")) as f:
            return re.search(r"^%s=y" % option, f.read(), re.M) is not None
    except OSError:
        return False


def kernel_has_pci_hotplug():
    return kernel_has("CONFIG_HOTPLUG_PCI_PCIE")




def nic_added_later():
    d = tftp_tree("added")
    serve(d, "Net added 4242")
    hotplug = kernel_has_pci_hotplug()
    # q35 offers its root ports' hotplug through ACPI by default; off, the
    # kernel is given native PCIe hotplug (pciehp), what it is built with
    g = start("netlinks-added", ["-nic", "none",
                                 "-global", "ICH9-LPC.acpi-pci-hotplug-with-bridge-support=off",
                                 "-device", "pcie-root-port,id=rp1,chassis=1,slot=1"])
    try:
        menu_up(g)
        monitor(g.q, "netdev_add " + netdev(d))
        monitor(g.q, "device_add virtio-net-pci,netdev=n1,id=nic1,bus=rp1,mac=" + MAC)
        if not hotplug:
            print("  no PCI hotplug driver in this kernel: the bus is rescanned "
                  "from the rescue shell")
            shell(g, "echo 1 > /sys/bus/pci/rescan")
        print("  added: entry after %.1f s" % comes(g, "Net added 4242", 180))
        serve(d, "Net renewed 4343")
        monitor(g.q, "set_link nic1 off")
        print("  set_link off: entry gone after %.1f s" % leaves(g, "Net added 4242"))
        monitor(g.q, "set_link nic1 on")
        print("  set_link on: new entry after %.1f s" % comes(g, "Net renewed 4343"))
        if not hotplug:
            # the driver's part of device_del: the device leaves the kernel
            # (device is the virtio device; its parent is the PCI one)
            shell(g, "for d in /sys/class/net/eth*/device; do "
                  "echo 1 > $d/../remove; done")
        pulled_then_demo_boots(g, "nic1", "Net renewed 4343")
    finally:
        g.close()
        shutil.rmtree(d, ignore_errors=True)


def usb_nic_added_later():
    if not kernel_has("CONFIG_USB_NET_CDCETHER"):
        raise Skip("the kernel has no CDC Ethernet driver (CONFIG_USB_NET_CDCETHER)")
    d = tftp_tree("usb")
    serve(d, "Net usb 5151")
    g = start("netlinks-usb", ["-nic", "none", "-device", "qemu-xhci,id=xhci"])
    try:
        menu_up(g)
        monitor(g.q, "netdev_add " + netdev(d))
        monitor(g.q, "device_add usb-net,netdev=n1,id=unic,bus=xhci.0,mac=" + MAC)
        print("  plugged in: entry after %.1f s" % comes(g, "Net usb 5151", 180))
        pulled_then_demo_boots(g, "unic", "Net usb 5151")
    finally:
        g.close()
        shutil.rmtree(d, ignore_errors=True)


if __name__ == "__main__":
    # a second argument runs only the cases whose name contains it
    want = sys.argv[2] if len(sys.argv) > 2 else ""
    results = [check(n, fn) for n, fn in (
        ("e2e.netlinks.cable_later_and_flaps", cable_later_and_flaps),
        ("e2e.netlinks.nic_added_later", nic_added_later),
        ("e2e.netlinks.usb_nic_added_later", usb_nic_added_later)) if want in n]
    sys.exit(0 if all(results) else 1)
