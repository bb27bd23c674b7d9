#!/usr/bin/env python3
"""A day of hotplug in an hour (issue #37, item 4): is bootmenu's memory
flat, and does it give back every mount, loop device, dm table and file
descriptor, over many plug/pull cycles of a USB stick and many network
link flaps?

    tests/soak/hotplug.py BUILD [CYCLES [FLAPS]]   (defaults 500 and 50)

bootmenu.efi boots (with SOAK_INITRD=1: build/kernel/bzImage with
build/initramfs.cpio.gz, the same kernel and the same files, for a
bootmenu rebuilt without remaking bootmenu.efi) with bootmenu.shell and
bootmenu.net=on: the rescue
shell is on ttyS0 (this script's stdin and stdout with the guest), and from
it the real menu is started in the background on ttyS1 (a second serial
port on a unix socket this script reads and types on), with --timeout -1
so it never boots anything. The guest has the demo disk, an xHCI controller and a virtio-net
NIC on QEMU's user network (restrict=on: nothing leaves QEMU).

Each cycle plugs a stick (test_hotplug.py's stick(), plug() and pull())
with QEMU's monitor, waits until its entry is on the menu's screen, pulls
it and waits until the entry is gone (each within a bound; a miss is
counted, not fatal). Then each flap is the monitor's `set_link n0 off`,
a pause, `on`, a pause (with FLAP_RESCAN=1 the menu's `r` too; then the
files are named hotplug-rescan). Sampled from the shell: bootmenu's VmRSS,
VmHWM (KiB) and threads, the lines of its /proc/PID/mountinfo (and the
shell's), its open fds, the dm devices under /sys/block, and the loop
devices with a backing file: once settled before the first cycle, every
SAMPLE_CYCLES cycles, every SAMPLE_FLAPS flaps (50 and 10 unless the
environment says; PEAK_PER_SAMPLE=1 makes each VmHWM the peak since the
sample before). Prints a table and writes
BUILD/soak/hotplug.json. Not part of make test. Logs in TEST_LOGS (default
BUILD/test-logs): the guest's consoles, ttyS0 and ttyS1.

Exit status 1 when a sample after the first shows more threads, mounts,
fds, dm or loop devices than the first, RSS gained more than RSS_NOISE_KIB
from the first cycle sample to the last, or bootmenu died or restarted."""
import json
import os
import re
import socket
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "e2e"))
import test_hotplug as th  # noqa: E402  (reads sys.argv[1], BUILD, as we do)
from qemu import Qemu, need  # noqa: E402
from screen import Screen  # noqa: E402

B = os.path.abspath(sys.argv[1])
CYCLES = int(sys.argv[2]) if len(sys.argv) > 2 else 500
FLAPS = int(sys.argv[3]) if len(sys.argv) > 3 else 50
SAMPLE_CYCLES = int(os.environ.get("SAMPLE_CYCLES", "50"))
SAMPLE_FLAPS = int(os.environ.get("SAMPLE_FLAPS", "10"))
# PEAK_PER_SAMPLE=1: after each sample the kernel's peak (VmHWM) is reset
# (`echo 5 > /proc/PID/clear_refs`), so each sample's HWM is the highest
# resident memory since the sample before, not since bootmenu started
PEAK_PER_SAMPLE = os.environ.get("PEAK_PER_SAMPLE") == "1"
SETTLE_S = 15
# what RSS may gain from the first cycle sample to the last one (KiB)
RSS_NOISE_KIB = int(os.environ.get("RSS_NOISE_KIB", "64"))
OUT = os.path.join(B, "soak")
TITLE = "Soak stick 4711"
# the pauses of a flap: long enough for the link's carrier change to reach
# bootmenu and its DHCP client to be (re)started
FLAP_OFF_S = float(os.environ.get("FLAP_OFF_S", "2"))
FLAP_ON_S = float(os.environ.get("FLAP_ON_S", "4"))
# FLAP_RESCAN=1: after each flap, the menu's `r` (rescan): the sources are
# freed and made again, the network's link job and DHCP client with them.
# Without it a flap only reaches the kernel: the link job ends once its
# DHCP is answered (source/net.c)
FLAP_RESCAN = os.environ.get("FLAP_RESCAN") == "1"
NAME = "hotplug-rescan" if FLAP_RESCAN else "hotplug"  # logs, stick, json
# what the shell prints for a sample; the command's echo cannot match it
SAMPLE_RX = (r"SOAK rss=(\d+) hwm=(\d+) threads=(\d+) mounts=(\d+) allmounts=(\d+) "
             r"fds=(\d+) dm=(\d+) loop=(\d+) alive=(\d+)")
SAMPLE_CMD = (
    "P=$(cat /tmp/bm.pid); echo SOAK"
    " rss=$(awk '/^VmRSS/{print $2}' /proc/$P/status)"
    " hwm=$(awk '/^VmHWM/{print $2}' /proc/$P/status)"
    " threads=$(awk '/^Threads/{print $2}' /proc/$P/status)"
    " mounts=$(wc -l < /proc/$P/mountinfo)"
    " allmounts=$(wc -l < /proc/self/mountinfo)"
    " fds=$(ls /proc/$P/fd | wc -l)"
    " dm=$(ls -d /sys/block/dm-* 2>/dev/null | wc -l)"
    " loop=$(cat /sys/block/loop*/loop/backing_file 2>/dev/null | wc -l)"
    " alive=$(kill -0 $P 2>/dev/null && echo 1 || echo 0)"
    + ("; echo 5 >/proc/$P/clear_refs" if PEAK_PER_SAMPLE else "") + "\n")


class MenuTerminal:
    """The menu's terminal: ttyS1 on QEMU's unix socket @sock. What the
    menu writes is kept in @log and replayed through screen.py's vt220
    model; key() types on it."""

    def __init__(self, sock, log):
        self.s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        for _ in range(100):
            try:
                self.s.connect(sock)
                break
            except OSError:
                time.sleep(0.1)
        self.screen = Screen()
        self.buf, self.raw = "", ""
        self.lock = threading.Lock()
        self.log = open(log, "w", errors="replace", newline="")
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        while True:
            data = self.s.recv(4096)
            if not data:
                break
            text = data.decode("utf-8", errors="replace")
            with self.lock:
                self.buf += text
                self.raw += text
            self.log.write(text)
            self.log.flush()

    def drawn(self, text):
        """How many times @text was written (a screen that lasted too short
        a time for show() counts too)."""
        with self.lock:
            return self.raw.count(text)

    def key(self, k):
        self.s.sendall(k.encode())

    def show(self):
        with self.lock:
            new, self.buf = self.buf, ""
        self.screen.feed(new)
        return self.screen.text()

    def wait(self, pattern, timeout, gone=False):
        """True once @pattern is on the screen (or with @gone, is not),
        False after @timeout seconds."""
        end = time.monotonic() + timeout
        while True:
            if bool(re.search(pattern, self.show(), re.M)) != gone:
                return True
            if time.monotonic() > end:
                return False
            time.sleep(0.2)


def boot_files():
    """-kernel (and -initrd) for the guest: see the docstring."""
    if os.environ.get("SOAK_INITRD") == "1":
        return {"kernel": need(os.path.join(B, "kernel", "bzImage")),
                "initrd": need(os.path.join(B, "initramfs.cpio.gz"))}
    return {"kernel": need(os.path.join(B, "bootmenu.efi"))}


def start(logs):
    """The guest at its rescue shell, and the menu started on ttyS1."""
    sock = os.path.join(logs, "soak-" + NAME + ".ttyS1.sock")
    q = Qemu(B, "soak-" + NAME, **boot_files(),
             append="bootmenu.shell bootmenu.net=on",
             disks=[need(os.path.join(B, "demo.img"))],
             extra=["-device", "qemu-xhci,id=xhci",
                    "-netdev", "user,id=n0,restrict=on",
                    "-device", "virtio-net-pci,netdev=n0",
                    "-chardev", "socket,id=menu,path=%s,server=on,wait=off" % sock,
                    "-serial", "chardev:menu"])
    menu = MenuTerminal(sock, os.path.join(logs, "soak-" + NAME + ".ttyS1.log"))
    q.expect(r"rescue shell", 180)
    time.sleep(2)
    q.send("\n")
    # the size is set with the port held open (its last close forgets it),
    # and the subshell becomes bootmenu (exec): $! is bootmenu's pid
    q.send("(stty cols 80 rows 24; TERM=vt220 exec bootmenu --timeout -1)"
           " </dev/ttyS1 >/dev/ttyS1 2>/tmp/bm.err &"
           " echo $! >/tmp/bm.pid; echo STARTED-$((6*7))\n")
    q.expect(r"STARTED-42", 30)
    if not menu.wait(r"Demo BLS \(bootmenu kernel\)", 180):
        raise AssertionError("no menu on ttyS1:\n" + menu.show())
    return q, menu


def sample(q, label):
    q.send(SAMPLE_CMD)
    m = q.expect(SAMPLE_RX, 60)
    keys = ("rss", "hwm", "threads", "mounts", "allmounts", "fds", "dm", "loop", "alive")
    s = dict(zip(keys, (int(v) for v in m.groups())))
    s["at"] = label
    s["t"] = round(q.elapsed(), 1)
    print("%-12s %7d %7d %7d %6d %9d %4d %3d %4d %5d %8.1f" % (
        label, s["rss"], s["hwm"], s["threads"], s["mounts"], s["allmounts"], s["fds"],
        s["dm"], s["loop"], s["alive"], s["t"]))
    sys.stdout.flush()
    return s


def cycles(q, menu, img, n, samples, misses):
    """@n plug/pull cycles; returns their seconds."""
    t0 = time.monotonic()
    for i in range(1, n + 1):
        dev = th.plug(q, i, img)
        if not menu.wait(re.escape(TITLE), 60):
            misses.append(("shown", i))
        th.pull(q, dev)
        if not menu.wait(re.escape(TITLE), 60, gone=True):
            misses.append(("gone", i))
        if i % SAMPLE_CYCLES == 0 or i == n:
            samples.append(sample(q, "cycle %d" % i))
    return time.monotonic() - t0


def flaps(q, menu, n, samples, misses):
    t0 = time.monotonic()
    for i in range(1, n + 1):
        q.monitor("set_link n0 off")
        time.sleep(FLAP_OFF_S)
        q.monitor("set_link n0 on")
        if FLAP_RESCAN:
            # the rescan's first screen, then the demo's entries again
            before = menu.drawn("Looking for boot entries")
            menu.key("r")
            end = time.monotonic() + 20
            while menu.drawn("Looking for boot entries") == before:
                if time.monotonic() > end:
                    misses.append(("rescan", i))
                    break
                time.sleep(0.2)
            if not menu.wait(r"Demo BLS \(bootmenu kernel\)", 60):
                misses.append(("rescanned", i))
        time.sleep(FLAP_ON_S)
        if i % SAMPLE_FLAPS == 0 or i == n:
            samples.append(sample(q, "flap %d" % i))
    return time.monotonic() - t0


def rss_growth(samples):
    """KiB that RSS gained from the first cycle sample to the last, and
    the least-squares slope over the cycle samples (KiB a cycle)."""
    cyc = [(int(s["at"].split()[1]), s["rss"]) for s in samples
           if s["at"].startswith("cycle ")]
    if len(cyc) < 2:
        return 0, 0.0
    mx = sum(c for c, _ in cyc) / len(cyc)
    my = sum(r for _, r in cyc) / len(cyc)
    den = sum((c - mx) ** 2 for c, _ in cyc)
    slope = sum((c - mx) * (r - my) for c, r in cyc) / den if den else 0.0
    return cyc[-1][1] - cyc[0][1], slope


def verdict(samples):
    """The growths that are leaks: any count above the first sample's, and
    RSS over the cycles beyond RSS_NOISE_KIB."""
    first, bad = samples[0], []
    grew, slope = rss_growth(samples)
    if grew > RSS_NOISE_KIB:
        bad.append("RSS grew %d KiB over the cycles (%.2f KiB a cycle)" % (grew, slope))
    for s in samples[1:]:
        for k in ("threads", "mounts", "allmounts", "fds", "dm", "loop"):
            if s[k] > first[k]:
                bad.append("%s: %s %d > %d" % (s["at"], k, s[k], first[k]))
        if not s["alive"]:
            bad.append("%s: bootmenu is gone" % s["at"])
    return bad


def main():
    os.makedirs(OUT, exist_ok=True)
    th.W = OUT  # stick() builds its image there
    img = th.stick(NAME, TITLE)
    logs = os.environ.get("TEST_LOGS") or os.path.join(B, "test-logs")
    q, menu = start(logs)
    samples, misses = [], []
    try:
        print("%-12s %7s %7s %7s %6s %9s %4s %3s %4s %5s %8s" % (
            "at", "RSS KiB", "HWM KiB", "threads", "mounts", "allmounts", "fds", "dm",
            "loop", "alive", "t s"))
        # the first sample once the network source has its link up and
        # its DHCP client asked (its fds open): what the others must match
        time.sleep(SETTLE_S)
        samples.append(sample(q, "start"))
        t_cyc = cycles(q, menu, img, CYCLES, samples, misses)
        t_flap = flaps(q, menu, FLAPS, samples, misses)
        err = open(os.path.join(logs, "soak-" + NAME + ".serial.log"), errors="replace").read()
    finally:
        q.close()
    bad = verdict(samples)
    result = {"cycles": CYCLES, "flaps": FLAPS, "flap_rescan": FLAP_RESCAN,
              "peak_per_sample": PEAK_PER_SAMPLE,
              "boot": "bzImage+initramfs" if os.environ.get("SOAK_INITRD") == "1"
              else "bootmenu.efi",
              "s_per_cycle": round(t_cyc / CYCLES, 2) if CYCLES else None,
              "s_per_flap": round(t_flap / FLAPS, 2) if FLAPS else None,
              "rss_kib_per_cycle": round(rss_growth(samples)[1], 3),
              "misses": misses, "samples": samples, "leaks": bad,
              "restarted": bool(re.search(r"init: bootmenu (exited|was killed)", err))}
    with open(os.path.join(OUT, NAME + ".json"), "w") as f:
        json.dump(result, f, indent=1)
    print("cycles %d (%.2f s each), flaps %d (%.2f s each%s), misses %s" % (
        CYCLES, result["s_per_cycle"] or 0, FLAPS, result["s_per_flap"] or 0,
        ", each with a rescan" if FLAP_RESCAN else "", misses or "none"))
    for b in bad:
        print("LEAK " + b)
    print("wrote " + os.path.join(OUT, NAME + ".json"))
    return 1 if bad or result["restarted"] else 0


if __name__ == "__main__":
    sys.exit(main())
