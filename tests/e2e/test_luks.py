#!/usr/bin/env python3
"""Encrypted /boot: LUKS volumes unlocked in the menu (issue #33).

The volumes are encrypted offline by Debian's cryptsetup (`reencrypt
--encrypt` on an image file, no device-mapper on the build host; LUKS1
by `convert` of a LUKS2 volume with a PBKDF2 keyslot), each checked on
the host by decrypting its first filesystem or PV bytes with the volume
key before a guest sees it. Passphrases are typed over the serial
console; what is on the screen is replayed through screen.py's vt220.

- argon2id_ext4_boot: one GPT disk, LUKS2 (Argon2id, 32 MiB) in its
  second partition holding an ext4 /boot. `bootmenu --list` in the rescue
  shell names the device locked with its volume's name; then the menu,
  with nothing else to boot, asks at once; a wrong passphrase gets
  `Wrong passphrase, try 2 of 3.`, the right one unlocks, the countdown
  boots the volume's entry.
- luks1_lvm_boot: LUKS1 (PBKDF2-SHA256) holding an LVM2 PV whose LV has
  /boot, beside a plain disk with an entry: nothing asks; End and Enter
  on the `Encrypted: ... - Enter to unlock` line; three wrong passphrases
  leave it locked and the menu there; Enter again, the right one, the
  LV's entry arrives and boots.
- The hostile headers, in one guest with a plain disk: the LUKS2 primary
  binary header zeroed (the secondary copy is read, it unlocks and
  boots), both JSON areas garbage with valid checksums (`failed:` in the
  listing, no menu line), a keyslot whose Argon2 wants 64 GiB (the error
  says how much), a data segment of serpent-xts-plain64 (the keyslot
  unlocks, the cipher is not in bootmenu's kernel: named in the error).
  After each the menu is still there.
- opensuse_btrfs_snapshot: openSUSE's encrypted layout, LUKS2 (PBKDF2)
  over btrfs with the default subvolume @/.snapshots/1/snapshot: asked at
  once, it boots on the countdown.
- hotplug_stick: a whole-disk LUKS2 stick plugged into the running menu
  of the demo disk: its line arrives; unlocked, its entry boots.
- debian_type_once: a real Debian 12 whose root is LUKS2 in vda2, opened
  by Debian's initramfs-tools with cryptsetup-initramfs
  (images/luks-debian.sh). bootmenu.conf says `luks_pass_key = yes`; the
  menu asks at once, the passphrase is typed once, the countdown boots
  Debian, whose initramfs opens vda2_crypt with the key bootmenu handed
  on (never `Please unlock disk`) and systemd reaches `login:` on ttyS0.
- debian_asks_twice_without: the same disk without luks_pass_key: after
  bootmenu's unlock Debian's initramfs asks `Please unlock disk
  vda2_crypt` (what the option saves; and the first test can fail); the
  passphrase typed there, Debian reaches `login:` (the disk is sound).
The error checks look for words (65536 MiB, serpent) that no label or
title on the screen holds.
Every image is byte-identical afterwards (sha256): nothing is written."""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(__file__))
from qemu import Qemu, Skip, check, need  # noqa: E402
from disks import (ext4_image, gpt_disk, luks2_rewrite, luks2_zero_primary,  # noqa: E402
                   luks_plain, luks_volume, lvm_disk, sha256)
from screen import BOOTED, ScreenGuest  # noqa: E402

B = os.path.abspath(sys.argv[1])
EFI = os.path.join(B, "bootmenu.efi")
W = os.path.join(B, "e2e-luks")
CON = "console=ttyS0,115200"
PASS = "correct horse 33"
HOME, END, UP, DOWN, ENTER, ESC = "\x1b[1~", "\x1b[4~", "\x1b[A", "\x1b[B", "\r", "\x1b"
BIOS_BOOT = "21686148-6449-6E6F-744E-656564454649"
LINUX_LUKS = "CA7D7CCB-63ED-4C53-861C-1742536059CC"
EXT4_MAGIC = (1080, b"\x53\xef")  # ext4 superblock s_magic (byte 0x438)
PV_MAGIC = (512 + 24, b"LVM2 001")  # LVM2 label sector 1, label type


def tools():
    if not shutil.which("cryptsetup"):
        raise Skip("cryptsetup is not installed (Debian's cryptsetup-bin)")
    os.makedirs(W, exist_ok=True)


def can_decrypt():
    """The host-side check of each volume needs python3-cryptography; a
    check of the test's disks, not of bootmenu, so without it the tests
    still run."""
    try:
        import cryptography  # noqa: F401
        return True
    except ImportError:
        sys.stderr.write("python3-cryptography missing: volumes not checked on the host\n")
        return False


def boot_fs(path, entry, title):
    """A 16 MiB ext4 /boot whose grub.cfg boots the test target as @entry."""
    ext4_image(path, os.path.join(W, "root-" + entry), {
        "/vmlinuz": need(os.path.join(B, "kernel", "bzImage")),
        "/initrd.gz": need(os.path.join(B, "target-initrd.cpio.gz")),
        "/grub/grub.cfg": "set timeout=5\nmenuentry '%s' {\n  linux /vmlinuz %s demo.entry=%s "
                          "target.poweroff\n  initrd /initrd.gz\n}\n" % (title, CON, entry),
    }, entry, 16)


def volume(path, payload, magic, **kw):
    """luks_volume() of @payload, checked: its decrypted bytes at @magic's
    offset are @magic's. Returns the UUID."""
    uuid = luks_volume(path, payload, PASS, **kw)
    if not can_decrypt():
        return uuid
    off, want = magic
    got = luks_plain(path, PASS, off, len(want))
    if got != want:
        raise AssertionError("%s decrypts to %r at %d, not %r" % (path, got, off, want))
    return uuid


class Guest(ScreenGuest):
    def __init__(self, name, disks, append, shared=(), extra=(), mem=512):
        """@disks written in place (checked unchanged afterwards); @shared
        (the demo disk) behind a snapshot."""
        super().__init__(Qemu(B, name, kernel=need(EFI), append=append,
                              disks=[{"file": p, "snapshot": False} for p in disks] +
                              [{"file": p} for p in shared], extra=extra, mem=mem))

    def shell_list(self):
        """In the rescue shell: `bootmenu --list`, then `--list --json`;
        both texts. The shell's exit starts the menu."""
        self.q.expect(r"rescue shell", 90)
        out = []
        for args in ("--list", "--list --json"):
            self.q.send("dmesg -n 1; bootmenu %s > /tmp/l.txt 2>&1; echo RC=$?; "
                        "echo LIST-BEGIN; cat /tmp/l.txt; echo LIST-END\n" % args)
            rc = self.q.expect(r"RC=(\d+)", 180).group(1)
            self.q.expect(r"LIST-BEGIN\r?\n", 10)
            start = self.q.pos
            self.q.expect(r"LIST-END", 30)
            text = self.q.output()[start:self.q.pos - len("LIST-END")].replace("\r", "")
            if rc != "0":
                raise AssertionError("bootmenu %s exited %s: %s" % (args, rc, text[-600:]))
            out.append(text)
        self.q.send("exit\n")
        return out

    def box_text(self):
        """The screen's words in one line (a dialog's text wraps)."""
        return re.sub(r"\s+", " ", self.show())

    def box_words(self):
        """The words in a dialog box's columns, in one line (at 80 columns
        ui_draw_box() is 72 wide, its text 68 from column 6): a sentence
        the box wraps reads whole."""
        return re.sub(r"\s+", " ", " ".join(ln[6:74] for ln in self.show().splitlines()))

    def wait_words(self, pattern, timeout):
        """Until @pattern (a regex) is in the screen's words; the match."""
        end = time.monotonic() + timeout
        while True:
            m = re.search(pattern, self.box_text())
            if m:
                return m
            if time.monotonic() > end:
                raise AssertionError("no /%s/ on the screen after %d s:\n%s" % (
                    pattern, timeout, self.screen.text()))
            time.sleep(0.3)

    def wait_drawn(self, pattern, timeout):
        """Until @pattern is in the screen's words at some moment: the
        output is replayed a cursor move at a time, so a message that the
        next redraw (entries arriving, the countdown) replaces within the
        same burst is still seen."""
        end = time.monotonic() + timeout
        while True:
            out = self.q.output()
            at = self.fed
            for piece in re.split(r"(?=\x1b\[\d+;\d+H)", out[self.fed:]):
                self.screen.feed(piece)
                at += len(piece)
                m = re.search(pattern, re.sub(r"\s+", " ", self.screen.text()))
                if m:
                    self.fed = at
                    return m
            self.fed = len(out)
            if time.monotonic() > end:
                raise AssertionError("no /%s/ drawn after %d s:\n%s" % (
                    pattern, timeout, self.screen.text()))
            time.sleep(0.3)

    def type_pass(self, text):
        """@text and Enter at the Passphrase: prompt; it must not show."""
        self.wait_screen(r"Passphrase:", 30)
        self.keys(text)
        if text in self.show():
            raise AssertionError("the typed passphrase shows:\n" + self.screen.text())
        self.keys(ENTER)

    def open_unlock(self, dev, lines):
        """From the list's end up through @lines unlock lines, Enter on each
        until the dialog is the one for @dev (Esc closes another)."""
        self.keys(END)
        for _ in range(lines):
            self.keys(ENTER)
            m = self.wait_words(r"Unlock (\w+) \(LUKS", 30)
            if m.group(1) == dev:
                return
            self.keys(ESC)
            self.wait_drawn(r"Cancelled", 30)
            self.wait_screen(r"Passphrase:", 30, gone=True)
            self.keys(UP)
        raise AssertionError("no unlock dialog for %s:\n%s" % (dev, self.screen.text()))

    def menu_back(self):
        """The menu, its footer for an entry or for an unlock line."""
        self.wait_screen(r"Enter (boot  e edit|unlock  r rescan)", 30)
        self.not_restarted()

    def select(self, title, n=8):
        """Home, then Down until the details screen (`i`) names @title; a
        row with no details (a group, an unlock line) is passed over."""
        self.keys(HOME)
        for _ in range(n):
            self.keys("i")
            try:
                self.wait_screen(r"^source: ", 5)
            except AssertionError:
                self.keys(DOWN)
                continue
            got = self.screen.text().splitlines()[0].strip()
            self.keys("x")
            self.wait_screen(r"^source: ", 30, gone=True)
            if got == title:
                return
            self.keys(DOWN)
        raise AssertionError("no entry %r in the menu:\n%s" % (title, self.show()))

    def boots(self, entry):
        self.keys(ENTER)
        got = self.q.expect(BOOTED, 240).group(1)
        if got != entry:
            raise AssertionError("booted entry=%s, not %s" % (got, entry))
        self.not_restarted()


def want(text, patterns):
    for p in patterns:
        if not re.search(p, text, re.M):
            raise AssertionError("no line /%s/ in:\n%s" % (p, text))


def unchanged(before):
    changed = [os.path.basename(p) for p in before if sha256(p) != before[p]]
    if changed:
        raise AssertionError("written to: " + ", ".join(changed))


def argon2id_disk():
    """A GPT disk: 1 MiB BIOS boot, then LUKS2 Argon2id over an ext4 /boot."""
    tools()
    fs, vol, disk = (os.path.join(W, n) for n in ("argon.ext4", "argon.luks", "argon.img"))
    boot_fs(fs, "luks-argon2id", "LUKS2 argon2id boot")
    uuid = volume(vol, fs, EXT4_MAGIC, version=2, kdf="argon2id", label="cr_boot")
    gpt_disk(disk, [(1, BIOS_BOOT, None, "bios"), (30, LINUX_LUKS, vol, "cr_boot")], 32)
    return disk, uuid


def argon2id_ext4_boot():
    disk, uuid = argon2id_disk()
    before = {disk: sha256(disk)}
    g = Guest("luks-argon2id", [disk], "bootmenu.shell bootmenu.timeout=5")
    try:
        text, js = g.shell_list()
        want(text, [r"^device: vda2 crypto_LUKS: locked: LUKS2 'cr_boot' \(luks-%s\)" % uuid])
        want(js, [r'"method": ?"unlock"', r'"device": ?"vda2"'])
        # the only thing to boot is inside: the dialog opens by itself
        g.wait_words(r"Unlock vda2 \(LUKS2 'cr_boot'\)", 120)
        g.type_pass("not the passphrase")
        g.wait_words(r"Wrong passphrase, try 2 of 3\.", 120)
        mark = len(g.q.output())
        g.type_pass(PASS)
        g.wait_drawn(r"vda2 unlocked as luks-%s" % uuid, 120)
        # curses draws only what changed: the words once, the digits after
        if "Trying the passphrase" not in g.q.output() or \
                not re.search(r"\d+%", g.q.output()[mark:]):
            raise AssertionError("no `Trying the passphrase... NN%` while the KDF ran")
        got = g.q.expect(BOOTED, 240).group(1)
        if got != "luks-argon2id":
            raise AssertionError("the countdown booted entry=%s, not luks-argon2id" % got)
        g.not_restarted()
    finally:
        g.close()
    unchanged(before)


def luks1_disks():
    """A GPT disk whose one partition is LUKS1 over an LVM2 PV (LV boot has
    /boot), and a plain ext4 disk with an entry of its own."""
    tools()
    fs, pv, vol, disk, plain = (os.path.join(W, n) for n in (
        "lvm.ext4", "lvm.pv", "lvm.luks1", "luks1.img", "plain-a.img"))
    boot_fs(fs, "luks1-lvm", "LUKS1 LVM boot")
    lvm_disk(pv, "vgcrypt", [("root", 4, None), ("boot", 16, fs)], size_mib=24)
    uuid = volume(vol, pv, PV_MAGIC, version=1, kdf="pbkdf2", reserve_mib=4)
    os.unlink(pv)
    gpt_disk(disk, [(30, LINUX_LUKS, vol, "cryptlvm")], 32)
    boot_fs(plain, "plain", "Plain disk boot")
    return disk, plain, uuid


def luks1_lvm_boot():
    disk, plain, uuid = luks1_disks()
    before = {p: sha256(p) for p in (disk, plain)}
    g = Guest("luks-luks1-lvm", [disk, plain], "bootmenu.timeout=-1")
    try:
        g.wait_screen(r"Plain disk boot", 120)
        g.wait_screen(r"Encrypted: vda1, LUKS1 - Enter to unlock", 120)
        time.sleep(3)
        if "Passphrase:" in g.show():
            raise AssertionError("a dialog opened by itself beside a bootable entry")
        g.open_unlock("vda1", 1)
        g.wait_words(r"Unlock vda1 \(LUKS1\)", 10)
        # three wrong ones: back to the menu, still locked; then again
        for n in (2, 3):
            g.type_pass("wrong %d" % n)
            g.wait_words(r"Wrong passphrase, try %d of 3\." % n, 60)
        g.type_pass("wrong 4")
        g.wait_drawn(r"Wrong passphrase 3 times: vda1 stays locked", 60)
        g.wait_screen(r"Passphrase:", 30, gone=True)
        g.menu_back()
        g.wait_screen(r"Encrypted: vda1, LUKS1 - Enter to unlock", 10)
        g.open_unlock("vda1", 1)
        g.type_pass(PASS)
        g.wait_drawn(r"vda1 unlocked as luks-%s" % uuid, 120)
        g.wait_screen(r"LUKS1 LVM boot", 120)
        g.wait_screen(r"Encrypted: vda1", 10, gone=True)
        g.select("LUKS1 LVM boot")
        g.boots("luks1-lvm")
    finally:
        g.close()
    unchanged(before)


class Hostile:
    """One guest over a plain disk (vda) and four damaged LUKS2 volumes,
    whole disks: vdb primary header zeroed, vdc garbage JSON, vdd a 64 GiB
    Argon2 keyslot, vde a serpent data segment. Each case's outcome is
    kept for its own PASS or FAIL."""
    CASES = ("damaged_primary_header", "garbage_json", "argon2_64g", "cipher_not_in_kernel")

    def __init__(self):
        self.result = None
        self.steps = {}
        self.text = self.screen = ""
        self.after = {}
        self.ran = False

    def build(self):
        tools()
        plain, fs = os.path.join(W, "plain-b.img"), os.path.join(W, "secondary.ext4")
        boot_fs(plain, "plain", "Plain disk boot")
        boot_fs(fs, "luks-secondary", "LUKS2 secondary header boot")
        small = os.path.join(W, "small.ext4")
        ext4_image(small, os.path.join(W, "root-small"), {"/hello": "hi\n"}, "small", 4)
        self.disk = {c: os.path.join(W, c + ".img") for c in self.CASES}
        self.uuid = {}
        d = self.disk
        self.uuid["damaged_primary_header"] = volume(
            d["damaged_primary_header"], fs, EXT4_MAGIC, kdf="pbkdf2", label="cr_second",
            reserve_mib=4)
        luks2_zero_primary(d["damaged_primary_header"])
        for c, label in (("garbage_json", "cr_garbage"), ("argon2_64g", "cr_big"),
                         ("cipher_not_in_kernel", "cr_cipher")):
            self.uuid[c] = volume(d[c], small, EXT4_MAGIC, label=label, reserve_mib=4,
                                  kdf="pbkdf2" if c != "argon2_64g" else "argon2id")
        junk = bytes((i * 131 + 7) % 251 + 1 for i in range(3000))
        luks2_rewrite(d["garbage_json"], lambda m: b'{"keyslots":{"0":{"type":[[[' + junk)

        def big(m):
            for s in m["keyslots"].values():
                s["kdf"]["memory"] = 64 << 20  # KiB: 64 GiB
            return m
        luks2_rewrite(d["argon2_64g"], big)

        def serpent(m):
            m["segments"]["0"]["encryption"] = "serpent-xts-plain64"
            return m
        luks2_rewrite(d["cipher_not_in_kernel"], serpent)
        self.disks = [plain] + [d[c] for c in self.CASES]

    def step(self, name, fn):
        if self.result:
            self.steps[name] = "not reached: " + self.result
            return
        try:
            fn()
            self.steps[name] = None
        except Exception as e:  # a failed step, whatever raised
            self.steps[name] = "%s: %s" % (type(e).__name__, e)
            self.result = name + " failed"

    def run(self):
        try:
            self.build()
        except Skip:
            raise
        except Exception as e:
            self.result = "building the disks: %s: %s" % (type(e).__name__, e)
            return
        before = {p: sha256(p) for p in self.disks}
        u = self.uuid
        g = Guest("luks-hostile", self.disks, "bootmenu.shell bootmenu.timeout=-1")
        try:
            self.text, _ = g.shell_list()

            def menu():
                g.wait_screen(r"Plain disk boot", 120)
                g.wait_screen(r"Encrypted: ", 120)
                time.sleep(5)  # every disk probed: the lines there are all
                self.screen = g.show()
                if "Passphrase:" in self.screen:
                    raise AssertionError("a dialog opened by itself")
            self.step("menu", menu)
            lines = len(re.findall(r"Encrypted: ", self.screen or ""))

            def refused(dev, reason):
                def fn():
                    g.open_unlock(dev, lines)
                    g.type_pass(PASS)
                    g.wait_words(r"Cannot unlock %s" % dev, 180)
                    text = g.box_words()
                    if not re.search(reason, text[text.find("Cannot unlock"):]):
                        raise AssertionError("the error does not say /%s/:\n%s" % (
                            reason, g.screen.text()))
                    g.keys("x")
                    g.wait_screen(r"Cannot unlock", 30, gone=True)
                    g.menu_back()
                    g.wait_screen(r"Encrypted: %s" % dev, 10)
                return fn
            self.step("argon2_64g", refused("vdd", r"65536 MiB"))
            self.step("cipher_not_in_kernel", refused("vde", r"serpent"))

            def secondary():
                g.open_unlock("vdb", lines)
                g.type_pass(PASS)
                g.wait_drawn(r"vdb unlocked as luks-%s" % u["damaged_primary_header"], 120)
                g.wait_screen(r"LUKS2 secondary header boot", 120)
                g.wait_screen(r"Encrypted: vdb", 10, gone=True)
                g.select("LUKS2 secondary header boot")
                g.boots("luks-secondary")
            self.step("damaged_primary_header", secondary)
        finally:
            g.close()
            self.after = {p: sha256(p) == h for p, h in before.items()}

    # what each case's device must show: (its listing line, its menu line
    # or None for none)
    def seen(self, name):
        u = self.uuid
        return {
            "damaged_primary_header": (
                r"^device: vdb crypto_LUKS: locked: LUKS2 'cr_second' \(luks-%s\)"
                % u["damaged_primary_header"],
                r"Encrypted: vdb, LUKS2 'cr_second' - Enter to unlock"),
            "garbage_json": (r"^device: vdc crypto_LUKS: failed: \S", None),
            "argon2_64g": (r"^device: vdd crypto_LUKS: locked: LUKS2 'cr_big' \(luks-%s\)"
                           % u["argon2_64g"],
                           r"Encrypted: vdd, LUKS2 'cr_big' - Enter to unlock"),
            "cipher_not_in_kernel": (
                r"^device: vde crypto_LUKS: locked: LUKS2 'cr_cipher' \(luks-%s\)"
                % u["cipher_not_in_kernel"],
                r"Encrypted: vde, LUKS2 'cr_cipher' - Enter to unlock"),
        }[name]

    def case(self, name):
        def fn():
            if not self.ran:
                self.ran = True
                try:
                    self.run()
                except Skip:
                    self.ran = False
                    raise
                except Exception as e:  # the guest itself failed
                    self.result = "%s: %s" % (type(e).__name__, e)
            if self.result and not self.steps:
                raise AssertionError(self.result)
            listed, line = self.seen(name)
            want(self.text, [listed])
            if self.steps.get("menu"):
                raise AssertionError("menu: " + self.steps["menu"])
            if line and not re.search(line, self.screen):
                raise AssertionError("no /%s/ in the menu:\n%s" % (line, self.screen))
            if not line and re.search(r"Encrypted: vdc", self.screen):
                raise AssertionError("a menu line for the garbage header:\n" + self.screen)
            if self.steps.get(name, "" if name == "garbage_json" else "not reached"):
                raise AssertionError(self.steps.get(name, "not reached"))
            if not self.after[self.disk[name]]:
                raise AssertionError("%s.img was written to" % name)
            if not self.after[self.disks[0]]:
                raise AssertionError("the plain disk was written to")
        return fn


def run(*cmd):
    r = subprocess.run(list(cmd), capture_output=True, text=True)
    if r.returncode != 0:
        raise AssertionError("%s: %s" % (" ".join(cmd), r.stderr.strip()))
    return r.stdout


def opensuse_btrfs(path):
    """A 160 MiB btrfs in openSUSE's snapshot layout, through a loop mount:
    subvolumes @, @/.snapshots and @/.snapshots/1/snapshot (the default
    subvolume) whose /boot holds the test target and a grub2/grub.cfg with
    btrfs_relative_path."""
    with open(path, "wb") as f:
        f.truncate(160 << 20)
    run("mkfs.btrfs", "-q", "-f", path)
    mnt = tempfile.mkdtemp(dir=W)
    run("mount", "-o", "loop", path, mnt)
    try:
        snap = os.path.join(mnt, "@", ".snapshots", "1", "snapshot")
        run("btrfs", "subvolume", "create", os.path.join(mnt, "@"))
        run("btrfs", "subvolume", "create", os.path.join(mnt, "@", ".snapshots"))
        os.makedirs(os.path.dirname(snap))
        run("btrfs", "subvolume", "create", snap)
        os.makedirs(os.path.join(snap, "boot", "grub2"))
        shutil.copy(need(os.path.join(B, "kernel", "bzImage")),
                    os.path.join(snap, "boot", "vmlinuz"))
        shutil.copy(need(os.path.join(B, "target-initrd.cpio.gz")),
                    os.path.join(snap, "boot", "initrd.gz"))
        with open(os.path.join(snap, "boot", "grub2", "grub.cfg"), "w") as f:
            f.write("set btrfs_relative_path=\"y\"\nset timeout=8\n"
                    "menuentry 'openSUSE Tumbleweed (encrypted)' {\n"
                    "  linux /boot/vmlinuz root=UUID=x %s demo.entry=luks-suse target.poweroff\n"
                    "  initrd /boot/initrd.gz\n}\n" % CON)
        run("btrfs", "subvolume", "set-default",
            run("btrfs", "inspect-internal", "rootid", snap).strip(), mnt)
    finally:
        subprocess.run(["umount", mnt])
        os.rmdir(mnt)


def opensuse_btrfs_snapshot():
    """openSUSE's encrypted install: LUKS2 with a PBKDF2 keyslot (what its
    GRUB can open) over btrfs with the snapshot layout, in a GPT partition
    after a BIOS boot one; the only disk, so the dialog opens by itself and
    the default snapshot's entry boots on the countdown."""
    tools()
    if not shutil.which("mkfs.btrfs"):
        raise Skip("mkfs.btrfs is not installed (Debian's btrfs-progs)")
    fs, vol, disk = (os.path.join(W, n) for n in ("suse.btrfs", "suse.luks", "suse.img"))
    opensuse_btrfs(fs)
    uuid = volume(vol, fs, (0x10040, b"_BHRfS_M"), kdf="pbkdf2", label="cr_suse")
    os.unlink(fs)
    gpt_disk(disk, [(1, BIOS_BOOT, None, "bios"), (180, LINUX_LUKS, vol, "cr_suse")], 184)
    os.unlink(vol)
    before = {disk: sha256(disk)}
    g = Guest("luks-opensuse", [disk], "bootmenu.timeout=5")
    try:
        g.wait_words(r"Unlock vda2 \(LUKS2 'cr_suse'\)", 120)
        g.type_pass(PASS)
        g.wait_drawn(r"vda2 unlocked as luks-%s" % uuid, 120)
        got = g.q.expect(BOOTED, 240).group(1)
        if got != "luks-suse":
            raise AssertionError("the countdown booted entry=%s, not luks-suse" % got)
        g.not_restarted()
    finally:
        g.close()
    unchanged(before)


def hotplug_stick():
    """A USB stick, a whole-disk LUKS2 (PBKDF2) over an ext4 with a
    syslinux entry, plugged (QEMU's monitor) into the menu of the demo
    disk: its `Encrypted: sda` line arrives at the list's end; unlocked,
    its entry arrives and boots."""
    tools()
    fs, stick = os.path.join(W, "stick.ext4"), os.path.join(W, "stick.img")
    ext4_image(fs, os.path.join(W, "root-stick"), {
        "/boot/vmlinuz": need(os.path.join(B, "kernel", "bzImage")),
        "/boot/initrd.gz": need(os.path.join(B, "target-initrd.cpio.gz")),
        "/syslinux/syslinux.cfg": "LABEL s\n  MENU LABEL Encrypted stick 4733\n"
                                  "  KERNEL /boot/vmlinuz\n  INITRD /boot/initrd.gz\n"
                                  "  APPEND %s demo.entry=luks-stick target.poweroff\n" % CON,
    }, "stick", 16)
    uuid = volume(stick, fs, EXT4_MAGIC, kdf="pbkdf2", label="cr_stick", reserve_mib=4)
    before = {stick: sha256(stick)}
    g = Guest("luks-hotplug", [], "bootmenu.timeout=-1",
              shared=[need(os.path.join(B, "demo.img"))],
              extra=["-device", "qemu-xhci,id=xhci"])
    try:
        g.wait_screen(r"Demo BLS \(bootmenu kernel\)", 120)
        g.menu_back()
        out = g.q.monitor("drive_add 0 if=none,id=stick1,file=%s,format=raw" % stick)
        if "OK" not in out:
            raise AssertionError("drive_add: %s" % out[-300:])
        out = g.q.monitor("device_add usb-storage,bus=xhci.0,drive=stick1,id=s1")
        if "rror" in out:
            raise AssertionError("device_add: %s" % out[-300:])
        g.wait_screen(r"Encrypted: sda, LUKS2 'cr_stick' - Enter to unlock", 120)
        g.open_unlock("sda", 1)
        g.type_pass(PASS)
        g.wait_drawn(r"sda unlocked as luks-%s" % uuid, 120)
        g.wait_screen(r"Encrypted stick 4733", 120)
        g.select("Encrypted stick 4733", 20)
        g.boots("luks-stick")
    finally:
        g.close()
    unchanged(before)


# images/luks-debian.sh's disk: its volume's UUID and crypttab name
DEBIAN_DISK = os.path.join(B, "luks-debian", "disk.img")
DEBIAN_UUID = "33e2e0ce-d3b1-4a50-8c4a-000000000033"
DEBIAN_NAME = "vda2_crypt"
ASKED = r"Please unlock disk"


def debian_boot(name, conf):
    """A guest (1 GiB: Debian's 38 MB initrd is loaded beside the menu) on
    the Debian disk, behind a snapshot. With @conf, bootmenu.conf is
    written from the rescue shell first. The menu asks at once (nothing
    else to boot), the passphrase is typed once, the countdown boots
    Debian's entry. Returns the guest and where in its output Debian's
    kernel starts."""
    need(EFI)
    if not os.path.exists(DEBIAN_DISK):
        raise Skip("missing %s (made by images/luks-debian.sh as root: debootstrap, "
                   "chroot; see its message in the build log)" % DEBIAN_DISK)
    with open(os.path.join(B, "debkernel", "VERSION")) as f:
        ver = f.read().strip()
    g = Guest(name, [], ("bootmenu.shell " if conf else "") + "bootmenu.timeout=3",
              shared=[DEBIAN_DISK], mem=1024)
    try:
        if conf:
            g.q.expect(r"rescue shell", 90)
            g.q.send("dmesg -n 1; printf '%s\\n' > /etc/bootmenu.conf; "
                     "echo CONF-$((1+1)); exit\n" % conf)
            g.q.expect(r"CONF-2", 30)
        g.wait_words(r"Unlock vda2 \(LUKS2 'cr_debian'\)", 120)
        g.type_pass(PASS)
        g.wait_drawn(r"vda2 unlocked as luks-%s" % DEBIAN_UUID, 120)
        g.q.expect(r"Linux version %s " % re.escape(ver), 240)
        g.not_restarted()
        return g, g.q.pos
    except BaseException:
        g.close()
        raise


def debian_type_once():
    g, start = debian_boot("luks-debian-once", "luks_pass_key = yes")
    try:
        before = g.q.output()[:start]
        # one dialog, one passphrase: each opening of the dialog first asks
        # the TPM ("Asking the TPM..." under its title); its title alone
        # is drawn again when the screen is repainted under it (a status
        # line that changes while the prompt waits)
        opened = before.count("Asking the TPM...")
        if ("Unlock vda2 (LUKS2" not in before or opened != 1 or
                "Wrong passphrase" in before):
            raise AssertionError("bootmenu's unlock dialog opened %d times, not once" % opened)
        if "unknown key" in before:
            raise AssertionError("bootmenu does not know luks_pass_key: " +
                                 re.search(r"[^\r\n]*unknown key", before).group(0))
        cmdline = g.q.expect(r"Command line: ([^\r\n]*)", 60).group(1)
        # Debian's cryptroot asks, or systemd's getty prints its prompt
        m = g.q.expect(ASKED + r"[^\r\n]*|luks-debian login:", 360)
        if m.group(0).startswith("Please"):
            raise AssertionError("Debian's initramfs asked again: `%s`; its command line: %s"
                                 % (m.group(0).strip(), cmdline))
        after = g.q.output()[start:]
        if re.search(ASKED, after):
            raise AssertionError("Debian's initramfs asked again for the passphrase")
        if not re.search(r"%s: set up successfully" % DEBIAN_NAME, after):
            raise AssertionError("no `%s: set up successfully` from Debian's cryptroot"
                                 % DEBIAN_NAME)
        # how: Debian's cryptroot told where the key is (its crypttab
        # is replaced by cryptopts=)
        for part in ("cryptopts=target=%s," % DEBIAN_NAME, "source=UUID=%s" % DEBIAN_UUID,
                     "key=/etc/cryptsetup-keys.d/%s.key" % DEBIAN_NAME):
            if part not in cmdline:
                raise AssertionError("Debian's command line has no %s: %s" % (part, cmdline))
    finally:
        g.close()


def debian_asks_twice_without():
    g, start = debian_boot("luks-debian-twice", None)
    try:
        cmdline = g.q.expect(r"Command line: ([^\r\n]*)", 60).group(1)
        if "cryptopts=" in cmdline or "cryptsetup-keys" in cmdline:
            raise AssertionError("a key handed on without luks_pass_key: " + cmdline)
        g.q.expect(ASKED + " " + DEBIAN_NAME, 300)
        if "login:" in g.q.output()[start:]:
            raise AssertionError("Debian reached login: without its passphrase")
        # typed a second time, at Debian's prompt: the disk itself boots to
        # login: (so a failure of the test above is the key's, not the disk's)
        time.sleep(1)
        g.q.send(PASS + "\r")
        g.q.expect(r"%s: set up successfully" % DEBIAN_NAME, 120)
        g.q.expect(r"luks-debian login:", 360)
    finally:
        g.close()


def cleanup():
    for f in os.listdir(W):
        p = os.path.join(W, f)
        if os.path.isdir(p):
            shutil.rmtree(p)
        else:
            os.unlink(p)


ok = True
for name, fn in (("e2e.luks.argon2id_ext4_boot", argon2id_ext4_boot),
                 ("e2e.luks.luks1_lvm_boot", luks1_lvm_boot),
                 ("e2e.luks.opensuse_btrfs_snapshot", opensuse_btrfs_snapshot),
                 ("e2e.luks.hotplug_stick", hotplug_stick),
                 ("e2e.luks.debian_type_once", debian_type_once),
                 ("e2e.luks.debian_asks_twice_without", debian_asks_twice_without)):
    ok = check(name, fn) and ok
hostile = Hostile()
for c in Hostile.CASES:
    ok = check("e2e.luks." + c, hostile.case(c)) and ok
if os.path.isdir(W) and not os.environ.get("KEEP_DISKS"):
    cleanup()
sys.exit(0 if ok else 1)
