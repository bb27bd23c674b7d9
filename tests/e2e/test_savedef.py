#!/usr/bin/env python3
"""Saving a default survives a power cut, is read back, and is refused on a
journal that needs recovery.

Two whole-disk filesystems made without root: vda, an ext4 (label SDEXT)
with /boot/grub/grub.cfg (entries "Entry A" and "Entry B", both booting our
kernel and the demo's test initrd) and a 1024-byte grubenv; vdb, a vfat
(label SDVFAT) holding only /bootmenu/default (the state-file case). From
the rescue shell (bootmenu.shell), a bootmenu.conf with save_default = yes
is written to /tmp and `bootmenu --config FILE --save-default N` runs.

- clean: one save to each; the host reads them back (debugfs, mtype), then
  two more boots run `bootmenu --config FILE --timeout 0` from the shell,
  which boots the default at once: it must be Entry B, the saved one (the
  grub.cfg's own default is Entry A), once through the grubenv and once
  through the state file. The second of those boots also has a dirty-
  journal ext4 with a grubenv: saving there must fail with the reason and
  leave the image byte-identical.
- power cut: KILLS boots, alternating the two targets, each saving the
  entry the disk does not hold yet and killed (SIGKILL of QEMU) at a
  random moment of the write: after an anchor on the serial console (ext4:
  the kernel's "mounted filesystem with ordered data mode" of our own
  read-write mount; vfat, which logs nothing: the scan's ext4 mount going
  away just before) plus a delay drawn uniformly from [0, 1.2 x the window
  measured in the clean save (ext4: to "unmounting filesystem"; vfat: to
  bootmenu's last line), at least 0.05 s], with a seeded RNG (SAVEDEF_SEED,
  default 7). The summary line says how many landed before, during and
  after the read-write mount (serial output comes in bursts, so the
  spread varies from run to run; about half land during it).
  After each kill, on the host, on a copy of the image:
  ext4: `e2fsck -E journal_only -y` (what the next read-write mount would
  do), then `e2fsck -fn` must find nothing, and the grubenv
  (`debugfs -R "cat /boot/grub/grubenv"`) must be 1024 bytes with the
  signature and saved_entry the old or the new value.
  vfat: `fsck.vfat -n` may report the dirty bit (the kill came while it was
  mounted read-write) and nothing else; after `fsck.vfat -a` clears it,
  `fsck.vfat -n` must find nothing; /bootmenu/default (`mtype`) must be
  the old or the new value. The checked copy then stands for the disk as
  its next boot would find it.
- the menu's `d` (MENU_KILLS boots, default 6): the same on the ext4,
  through the menu on the serial console; see menu_cuts().
"""
import os
import random
import re
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))
from qemu import Qemu, check, need  # noqa: E402
from disks import sha256, dirty_ext4  # noqa: E402

B = os.path.abspath(sys.argv[1])
EFI = os.path.join(B, "bootmenu.efi")
W = os.path.join(B, "e2e-savedef")
EXT = os.path.join(W, "ext.img")
VFAT = os.path.join(W, "vfat.img")
DIRTY = os.path.join(W, "dirty.img")
KILLS = int(os.environ.get("SAVEDEF_KILLS", "20"))
MENU_KILLS = int(os.environ.get("SAVEDEF_MENU_KILLS", "6"))
SEED = int(os.environ.get("SAVEDEF_SEED", "7"))
SIG = b"# GRUB Environment Block\n"
ENTRIES = ["entry-a", "entry-b"]  # --list numbers them 0 and 1
# where a kill is timed from: ext4, its read-write mount of our own; vfat
# (which logs nothing), the scan's ext4 mount going away just before
ANCHOR = {"e": r"EXT4-fs \(vda\): mounted filesystem with ordered data mode",
          "v": r"EXT4-fs \(vda\): unmounting filesystem"}
# and the end of the window: ext4 unmounted again; vfat: bootmenu's last line
END = {"e": r"EXT4-fs \(vda\): unmounting filesystem", "v": r"bootmenu: "}
THROTTLE = {"e": (), "v": ()}
CONFS = {
    "e": "save_default = yes\\nsave_default_on = LABEL=SDEXT\\n",
    "v": "save_default = yes\\nsave_default_on = LABEL=SDVFAT\\n",
    "d": "save_default = yes\\nsave_default_on = LABEL=dirty\\n",
}
os.environ["MTOOLS_SKIP_CHECK"] = "1"


def run(*args):
    return subprocess.run(list(args), capture_output=True, text=True)


def grub_cfg():
    entry = ('menuentry "Entry %s" --id entry-%s {\n'
             '  linux /boot/vmlinuz console=ttyS0,115200 demo.entry=%s\n'
             '  initrd /boot/initrd.img\n}\n')
    return entry % ("A", "a", "a") + entry % ("B", "b", "b")


def grubenv(saved):
    env = SIG + b"saved_entry=" + saved.encode() + b"\n"
    return env + b"#" * (1024 - len(env))


def make_ext4(path):
    root = os.path.join(W, "ext-root")
    shutil.rmtree(root, ignore_errors=True)
    os.makedirs(os.path.join(root, "boot", "grub"))
    shutil.copy(need(os.path.join(B, "kernel", "bzImage")), os.path.join(root, "boot", "vmlinuz"))
    shutil.copy(need(os.path.join(B, "target-initrd.cpio.gz")),
                os.path.join(root, "boot", "initrd.img"))
    with open(os.path.join(root, "boot", "grub", "grub.cfg"), "w") as f:
        f.write(grub_cfg())
    with open(os.path.join(root, "boot", "grub", "grubenv"), "wb") as f:
        f.write(grubenv("entry-a"))
    if os.path.exists(path):
        os.unlink(path)
    subprocess.run(["mke2fs", "-q", "-F", "-t", "ext4", "-L", "SDEXT", "-E", "root_owner=0:0",
                    "-d", root, path, "24M"], check=True)


def make_vfat(path):
    if os.path.exists(path):
        os.unlink(path)
    subprocess.run(["mkfs.vfat", "-C", "-n", "SDVFAT", path, "8192"], check=True,
                   capture_output=True)
    state = os.path.join(W, "state")
    with open(state, "w") as f:
        f.write("entry-a\n")
    subprocess.run(["mmd", "-i", path, "::/bootmenu"], check=True)
    subprocess.run(["mcopy", "-i", path, state, "::/bootmenu/default"], check=True)


def ext4_value(path):
    """saved_entry of the grubenv after journal replay on a copy; raises
    when the block or the filesystem is not right. Returns (value, copy,
    whether the journal needed a replay)."""
    chk = path + ".chk"
    shutil.copy(path, chk)
    head = run("dumpe2fs", "-h", chk).stdout
    # killed while mounted read-write: a journal to replay (a mount of
    # our own), or the state "not clean" (the menu's remount, no journal)
    replay = "needs_recovery" in head or re.search(r"state:\s+not clean", head)
    r = run("e2fsck", "-E", "journal_only", "-y", chk)
    if r.returncode not in (0, 1):
        raise AssertionError("journal replay failed (%d): %s" % (r.returncode, r.stdout + r.stderr))
    r = run("e2fsck", "-fn", chk)
    if r.returncode != 0:
        raise AssertionError("e2fsck -fn after replay (%d):\n%s" % (r.returncode, r.stdout))
    data = subprocess.run(["debugfs", "-R", "cat /boot/grub/grubenv", chk],
                          capture_output=True).stdout
    if len(data) != 1024 or not data.startswith(SIG):
        raise AssertionError("grubenv is %d bytes, starts %r" % (len(data), data[:30]))
    m = re.search(rb"^saved_entry=(.*)$", data[len(SIG):], re.M)
    return (m.group(1).decode() if m else None), chk, replay


DIRTY_WORDS = ("Dirty bit is set", "Automatically removing dirty bit",
               "Leaving filesystem unchanged", "fsck.fat ", "files, ")


def vfat_value(path):
    """/bootmenu/default of the vfat, checked as the docstring says.
    Returns (value, copy, whether the dirty bit was set)."""
    chk = path + ".chk"
    shutil.copy(path, chk)
    r = run("fsck.vfat", "-n", chk)
    dirty = "Dirty bit is set" in r.stdout
    other = [ln for ln in r.stdout.splitlines()
             if ln.strip() and not any(w in ln for w in DIRTY_WORDS)]
    if other or (r.returncode != 0 and not dirty):
        raise AssertionError("fsck.vfat -n (%d):\n%s" % (r.returncode, r.stdout))
    if dirty:
        run("fsck.vfat", "-a", chk)
        r = run("fsck.vfat", "-n", chk)
        if r.returncode != 0:
            raise AssertionError("fsck.vfat -n after -a (%d):\n%s" % (r.returncode, r.stdout))
    r = run("mtype", "-i", chk, "::/bootmenu/default")
    if r.returncode != 0:
        raise AssertionError("no /bootmenu/default: " + r.stderr)
    lines = r.stdout.split("\n")
    if len(r.stdout) != 512 or lines[-1] != "" or set(lines[1]) - {"#"}:
        raise AssertionError("state file is not one padded sector: %r" % r.stdout[:80])
    return lines[0], chk, dirty


def shell(name, disks, throttle=()):
    ds = [{"file": d, "snapshot": False} for d in disks]
    for i in throttle:  # 30 I/O per second: the write lasts long enough to be cut
        ds[i]["if"] = "virtio,throttling.iops-total=30"
    q = Qemu(B, name, kernel=need(EFI), append="bootmenu.shell", disks=ds, snapshot=False)
    q.expect(r"rescue shell", 90)
    confs = "; ".join("printf '%s' > /tmp/%s.conf" % (v, k) for k, v in CONFS.items())
    q.send(confs + "; echo R$((1+1))EADY\n")
    q.expect(r"R2EADY", 30)
    return q


def save(q, conf, n, timeout=120):
    q.send("echo S$((1+1))GO; bootmenu --config /tmp/%s.conf --save-default %d; "
           "echo RC=$?\n" % (conf, n))
    q.expect(r"S2GO", 30)
    return q


def clean_save():
    """Returns the anchor-to-exit seconds of each target, for the kills."""
    os.makedirs(W, exist_ok=True)
    make_ext4(EXT)
    make_vfat(VFAT)
    window = {}
    for conf in ("e", "v"):
        q = shell("savedef-clean-" + conf, [EXT, VFAT], THROTTLE[conf])
        try:
            save(q, conf, 1)
            q.expect(ANCHOR[conf], 60)
            t0 = time.monotonic()
            q.expect(END[conf], 60)
            # serial output comes in bursts: never less than 0.05 s
            window[conf] = max(time.monotonic() - t0, 0.05)
            rc = q.expect(r"RC=(\d+)", 60).group(1)
            if rc != "0":
                raise AssertionError("save to %s: exit %s: %s" % (conf, rc, q.tail(400)))
            if not re.search(r'saved "Entry B" \(entry-b\) as the default', q.output()):
                raise AssertionError("no 'saved' line: " + q.tail(400))
        finally:
            q.close()
    v, chk, _ = ext4_value(EXT)
    if v != "entry-b":
        raise AssertionError("grubenv saved_entry=%r, want entry-b" % v)
    v, chk, dirty = vfat_value(VFAT)
    if v != "entry-b" or dirty:
        raise AssertionError("state file %r (dirty %s), want entry-b" % (v, dirty))
    return window


def boots_saved(conf, extra=()):
    """Boot again; from the shell, the menu with timeout 0 boots the
    default: the saved Entry B, not grub.cfg's Entry A."""
    q = shell("savedef-readback-" + conf, [EXT, VFAT] + list(extra))
    try:
        if extra:
            dirty_refused(q)
        q.send("bootmenu --config /tmp/%s.conf --timeout 0\n" % conf)
        m = q.expect(r"BOOTMENU-TARGET: booted entry=(\S+)", 120)
        if m.group(1) != "b":
            raise AssertionError("booted entry=%s, want b (the saved one)" % m.group(1))
    finally:
        q.close()


def dirty_refused(q):
    save(q, "d", 1)
    rc = q.expect(r"RC=(\d+)", 120).group(1)
    if rc != "1":
        raise AssertionError("save on a dirty journal: exit %s" % rc)
    if not re.search(r"journal needs recovery", q.output()):
        raise AssertionError("no reason given: " + q.tail(400))


def readback_and_dirty():
    boots_saved("e")
    dirty_ext4(DIRTY, os.path.join(W, "dirty-root"),
               {"/boot/grub/grubenv": grubenv("entry-a").decode()})
    before = sha256(DIRTY)
    boots_saved("v", [DIRTY])
    if sha256(DIRTY) != before:
        raise AssertionError("the dirty-journal image changed")


def power_cuts(window):
    rnd = random.Random(SEED)
    # before: old value, nothing to repair; during: the kill came while the
    # filesystem was mounted read-write (ext4: journal to replay; vfat:
    # dirty bit); after: new value, nothing to repair
    stats = {"old": 0, "new": 0, "before": 0, "during": 0, "after": 0,
             "e": 0, "v": 0}
    for i in range(KILLS):
        conf, img = ("e", EXT) if i % 2 == 0 else ("v", VFAT)
        value = ext4_value if conf == "e" else vfat_value
        old, _, _ = value(img)
        new = ENTRIES[1 - ENTRIES.index(old)]
        delay = rnd.uniform(0, 1.2 * window[conf])
        q = shell("savedef-cut-%02d" % i, [EXT, VFAT], THROTTLE[conf])
        try:
            save(q, conf, ENTRIES.index(new))
            q.expect(ANCHOR[conf], 60)
            time.sleep(delay)
        finally:
            q.close()  # SIGKILL: the power cut
        got, chk, flag = value(img)
        if got not in (old, new):
            raise AssertionError("cut %d (%s, %.3f s): value %r, neither %r nor %r"
                                 % (i, conf, delay, got, old, new))
        stats["new" if got == new else "old"] += 1
        stats["during" if flag else "after" if got == new else "before"] += 1
        stats[conf] += bool(flag)
        os.replace(chk, img)
    print("  %d cuts (seed %d, windows ext4 %.2f s, vfat %.2f s): %d old, %d new "
          "value; %d before the read-write mount, %d during it (ext4 %d, vfat %d), "
          "%d after it"
          % (KILLS, SEED, window["e"], window["v"], stats["old"], stats["new"],
             stats["before"], stats["during"], stats["e"], stats["v"], stats["after"]))
    sys.stdout.flush()


def menu_cuts(n):
    """The menu's `d`: the scan's read-only ext4 mount is remounted
    read-write (no journal: see bootmenu/scan/remount.h) and the grubenv
    rewritten in place. Killed at the remount ("EXT4-fs (vda): re-mounted")
    plus U(0, 0.3 s), the disk throttled so that the write takes that
    long. Same checks as above."""
    rnd = random.Random(SEED + 1)
    seen = {"during": 0, "old": 0}
    for i in range(n):
        old, _, _ = ext4_value(EXT)
        new = ENTRIES[1 - ENTRIES.index(old)]
        q = shell("savedef-menu-cut-%02d" % i, [EXT, VFAT], throttle=(0,))
        try:
            q.send("bootmenu --config /tmp/e.conf --timeout -1\n")
            q.expect(r"Entry B", 90)
            time.sleep(1)
            # the saved default is selected: one row down or up is the other
            q.send("j" if old == "entry-a" else "k")
            time.sleep(0.5)
            q.send("d")
            q.expect(r"EXT4-fs \(vda\): re-mounted", 60)
            time.sleep(rnd.uniform(0, 0.3))
        finally:
            q.close()
        got, chk, flag = ext4_value(EXT)
        if got not in (old, new):
            raise AssertionError("menu cut %d: value %r, neither %r nor %r" % (i, got, old, new))
        seen["during"] += bool(flag)
        seen["old"] += got == old
        os.replace(chk, EXT)
    print("  %d cuts of the menu's d: %d old value, %d new; %d during the "
          "read-write remount" % (n, seen["old"], n - seen["old"], seen["during"]))
    sys.stdout.flush()


windows = {}


def clean():
    windows.update(clean_save())


ok = check("e2e.savedef.clean_save", clean)
ok &= check("e2e.savedef.readback_and_dirty_journal", readback_and_dirty)
if windows:
    ok &= check("e2e.savedef.power_cut_x%d" % KILLS, lambda: power_cuts(windows))
    ok &= check("e2e.savedef.power_cut_menu_x%d" % MENU_KILLS, lambda: menu_cuts(MENU_KILLS))
else:
    print("FAIL e2e.savedef.power_cut: no clean save to measure the window")
    ok = False
for p in (EXT, VFAT, DIRTY):
    if ok and os.path.exists(p):
        os.unlink(p)
sys.exit(0 if ok else 1)
