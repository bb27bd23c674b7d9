#!/usr/bin/env python3
"""Which default boots unattended, and what is tried when it fails.

bootmenu(8)'s rule: the candidates of an unattended boot are the saved
default, bootmenu.conf's `default`, its `default_device`, then each
filesystem's own config default with grub's `fallback` entries right after
it (filesystems: the one bootmenu came from, internal disks in device
order, removable/USB media last), then the first bootable entry. When a
candidate fails to load during the countdown's boot, the menu shows a box
"The default cannot boot" naming the entry and the reason, with `Trying
"<next title>" in 3 s`, and then tries the next one; a boot the user chose
keeps the "Cannot boot this entry" dialog that waits for a key.

Each case is one guest: bootmenu.efi under `-kernel` (TCG, -m 512, no
network), bootmenu.timeout=1, whole-disk ext4 images made here without
mounting (mke2fs -d) in BUILD/e2e-fallback/, and no key ever sent. Every
good entry boots our kernel with the target initrd (tests/target/
testinit.c), which prints `BOOTMENU-TARGET: booted entry=<demo.entry>` and
its command line, where each entry puts its own word (fallback.word=...).
The serial console is replayed through screen.py's vt220 model.

- broken_first_disk_falls_to_second: vda's grub.cfg has one entry, whose
  kernel is a symlink to a directory; vdb's grub default is good. The box
  must name the broken entry and "Is a directory" and say it tries vdb's
  entry, which then boots with its word.
- grub_fallback_on_same_disk: vda has `set default=0`, `set fallback=1`,
  entry 0 broken, entry 1 good (word B); vdb's default is good (word C).
  B must boot (and the box must say it tries B), not C.
- usb_stick_does_not_take_over: a virtio disk (vda) with a good grub
  default (word D) and a USB stick present at power-on (usb-storage on
  xHCI, QEMU's default properties as in test_hotplug.py: sda, sorting
  before vda) with a good syslinux default (word E). The stick's entry
  must be listed, D must boot, and no failure box may appear.

A case fails at once (not after its time limit) when the menu shows
"Cannot boot this entry" during the unattended boot: that dialog waits
for a key that never comes."""
import os
import re
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))
from qemu import Qemu, check, need  # noqa: E402
from disks import fill_tree, stick_ext4  # noqa: E402
from screen import BOOTED, RESTARTED, ScreenGuest  # noqa: E402

B = os.path.abspath(sys.argv[1])
EFI = os.path.join(B, "bootmenu.efi")
KERNEL = os.path.join(B, "kernel", "bzImage")
INITRD = os.path.join(B, "target-initrd.cpio.gz")
W = os.path.join(B, "e2e-fallback")
APPEND = "bootmenu.timeout=1"
CON = "console=ttyS0,115200 no_timer_check"
BOX = "The default cannot boot"
CANNOT = "Cannot boot this entry"
CASE_SECONDS = 120  # power-on to the target's command line, TCG, loaded host
NO_NET = ["-nic", "none"]
BOX_MIN_S = 2.0  # of the box's 3 s, as the screen polls (0.2 s) see it

# titles and words (each good entry's word is also its demo.entry=)
BROKEN1 = "Broken kernel on vda 7301"
GOOD1 = "Good entry on vdb 7302"
WORD1 = "fbwordvdb"
BROKEN2 = "Broken entry 0 7311"
GOOD2B = "Fallback entry 1 7312"
WORD2B = "fbwordb"
GOOD2C = "Other disk default 7313"
WORD2C = "fbwordc"
GOOD3D = "Internal disk default 7321"
WORD3D = "fbwordd"
STICK3E = "USB stick default 7322"
WORD3E = "fbworde"
EISDIR = "Is a directory"


def grub_entry(title, word, kernel="/boot/vmlinuz"):
    return ('menuentry "%s" --id %s {\n'
            '  linux %s %s demo.entry=%s fallback.word=%s\n'
            '  initrd /boot/initrd.img\n}\n' % (title, word, kernel, CON, word, word))


def ext4_disk(name, files, broken_kernel=False, kernel=True):
    """W/NAME.img: a 32 MB whole-disk ext4 (label NAME) holding @files
    ({path: host file or str content}) plus the target initrd and, with
    @kernel, our kernel as /boot/vmlinuz; with @broken_kernel also
    /boot/broken, a symlink to the directory /boot/kdir (opening it as the
    kernel gives EISDIR). Without @kernel no bare entry is listed."""
    os.makedirs(W, exist_ok=True)
    root, img = os.path.join(W, name + "-root"), os.path.join(W, name + ".img")
    files = dict(files)
    if kernel:
        files["/boot/vmlinuz"] = need(KERNEL)
    files["/boot/initrd.img"] = need(INITRD)
    if broken_kernel:
        files["/boot/kdir/README"] = "a directory, not a kernel\n"
    fill_tree(root, files)
    if broken_kernel:
        os.symlink("kdir", os.path.join(root, "boot", "broken"))
    if os.path.exists(img):
        os.unlink(img)
    subprocess.run(["mke2fs", "-q", "-F", "-t", "ext4", "-L", name,
                    "-E", "root_owner=0:0", "-d", root, img, "32M"],
                   check=True, stdout=subprocess.DEVNULL)
    return img


class Guest(ScreenGuest):
    """bootmenu.efi with @disks (and @extra QEMU arguments), countdown 1 s,
    no network; no key is ever sent."""

    def __init__(self, name, disks, extra=()):
        super().__init__(Qemu(B, "fallback-" + name, kernel=need(EFI),
                              append=APPEND, disks=disks,
                              extra=NO_NET + list(extra)))
        self.boxes = []  # the failure box's text, each time it was seen
        self.box_seen = []  # monotonic times the box was on the screen

    def box_text(self, screen):
        """The words of the failure box (its rows from the title, columns
        6 to 73: at 80 columns the box is 72 wide, its text 68 from
        column 6), in one line."""
        rows = screen.splitlines()
        top = next(i for i, r in enumerate(rows) if BOX in r)
        text = " ".join(r[6:74] for r in rows[top:top + 12])
        return re.sub(r"\s+", " ", text).strip()

    def until_booted(self):
        """Watch the screen until a target prints its marker; returns
        (entry, its /proc/cmdline). Collects the failure box's texts in
        self.boxes. Raises at once on "Cannot boot this entry" (it waits
        for a key that never comes), when QEMU exits, or after
        CASE_SECONDS."""
        end = time.monotonic() + CASE_SECONDS
        while True:
            screen = self.show()
            if BOX in screen:
                self.box_seen.append(time.monotonic())
                text = self.box_text(screen)
                if not self.boxes or self.boxes[-1] != text:
                    self.boxes.append(text)
            if CANNOT in screen:
                raise AssertionError(
                    "the unattended boot stopped at %r, which waits for a "
                    "key (after %.0f s):\n%s" % (CANNOT, self.q.elapsed(), screen))
            m = re.search(BOOTED, self.q.output())
            if m:
                break
            if self.q.proc.poll() is not None:
                raise AssertionError("QEMU exited (%s) before a target booted:\n%s"
                                     % (self.q.proc.returncode, screen))
            if time.monotonic() > end:
                raise AssertionError("no target booted within %d s:\n%s"
                                     % (CASE_SECONDS, screen))
            time.sleep(0.2)
        self.q.pos = m.end()
        cmdline = self.q.expect(r"BOOTMENU-TARGET: cmdline=([^\r\n]*)", 30).group(1)
        m2 = re.search(RESTARTED + ".*", self.q.output())
        if m2:
            raise AssertionError("/init restarted bootmenu: " + m2.group(0))
        return m.group(1), cmdline

    def expect_boot(self, entry, word):
        got, cmdline = self.until_booted()
        if got != entry:
            raise AssertionError("booted entry=%s (cmdline %s), not %s"
                                 % (got, cmdline, entry))
        if not re.search(r"(^| )fallback\.word=%s( |$)" % re.escape(word), cmdline):
            raise AssertionError("the booted command line lacks fallback.word=%s: %s"
                                 % (word, cmdline))

    def expect_box(self, failed_title, reason, next_title):
        """The failure box was seen naming @failed_title, saying @reason
        (a regex) and `Trying "@next_title" in N s`, and stayed on the
        screen for at least BOX_MIN_S of its 3 s (first to last sighting)."""
        if not self.boxes:
            raise AssertionError("%r was never on the screen before the boot" % BOX)
        want = [re.escape(failed_title), reason,
                r'Trying "%s" in \d+ s' % re.escape(next_title)]
        if not any(all(re.search(w, text) for w in want) for text in self.boxes):
            last = self.boxes[-1]
            missing = [w for w in want if not re.search(w, last)]
            raise AssertionError("the box %r does not say /%s/: %s"
                                 % (BOX, "/, /".join(missing), last))
        shown = self.box_seen[-1] - self.box_seen[0]
        if shown < BOX_MIN_S:
            raise AssertionError("the box %r was on the screen %.1f s, not about 3 s"
                                 % (BOX, shown))


def broken_first_disk_falls_to_second():
    vda = ext4_disk("fb1a", {"/boot/grub/grub.cfg":
                             "set default=0\nset timeout=5\n" +
                             grub_entry(BROKEN1, "fbbroken1", "/boot/broken")},
                    broken_kernel=True, kernel=False)  # its only entry
    vdb = ext4_disk("fb1b", {"/boot/grub/grub.cfg":
                             "set default=0\nset timeout=5\n" + grub_entry(GOOD1, WORD1)})
    g = Guest("broken-first-disk", [vda, vdb])
    try:
        g.expect_boot(WORD1, WORD1)
        g.expect_box(BROKEN1, re.escape(EISDIR), GOOD1)
    finally:
        g.close()


def grub_fallback_on_same_disk():
    vda = ext4_disk("fb2a", {"/boot/grub/grub.cfg":
                             "set default=0\nset fallback=1\nset timeout=5\n" +
                             grub_entry(BROKEN2, "fbbroken2", "/boot/broken") +
                             grub_entry(GOOD2B, WORD2B)},
                    broken_kernel=True)
    vdb = ext4_disk("fb2b", {"/boot/grub/grub.cfg":
                             "set default=0\nset timeout=5\n" + grub_entry(GOOD2C, WORD2C)})
    g = Guest("grub-fallback", [vda, vdb])
    try:
        g.expect_boot(WORD2B, WORD2B)
        g.expect_box(BROKEN2, re.escape(EISDIR), GOOD2B)
    finally:
        g.close()


def usb_stick_does_not_take_over():
    vda = ext4_disk("fb3a", {"/boot/grub/grub.cfg":
                             "set default=0\nset timeout=5\n" + grub_entry(GOOD3D, WORD3D)})
    stick = os.path.join(W, "fb3stick.img")
    stick_ext4(stick, os.path.join(W, "fb3stick-root"), {
        "/boot/vmlinuz": need(KERNEL),
        "/boot/initrd.img": need(INITRD),
        "/syslinux/syslinux.cfg":
            "DEFAULT e\nTIMEOUT 50\n"
            "LABEL e\n  MENU LABEL %s\n  KERNEL /boot/vmlinuz\n"
            "  INITRD /boot/initrd.img\n  APPEND %s demo.entry=%s fallback.word=%s\n"
            % (STICK3E, CON, WORD3E, WORD3E),
    }, label="fb3stick", size="32M")
    g = Guest("usb-stick", [vda], extra=[
        "-device", "qemu-xhci,id=xhci",
        "-drive", "if=none,id=stick,format=raw,snapshot=on,file=" + stick,
        "-device", "usb-storage,bus=xhci.0,drive=stick,id=s1"])
    try:
        got, cmdline = g.until_booted()
        before = g.q.output()[:g.q.output().index("BOOTMENU-TARGET")]
        if not re.search(r"\[sd[a-z]\] Attached SCSI", before):
            raise AssertionError("the kernel did not attach the USB stick before the boot")
        if STICK3E not in before:
            raise AssertionError("the stick's entry %r was never drawn before the boot"
                                 % STICK3E)
        if g.boxes:
            raise AssertionError("a failure box was shown: %s" % g.boxes[-1])
        if got != WORD3D:
            raise AssertionError("booted entry=%s, not %s (the internal disk's default)"
                                 % (got, WORD3D))
        if "fallback.word=%s" % WORD3D not in cmdline:
            raise AssertionError("the booted command line lacks fallback.word=%s: %s"
                                 % (WORD3D, cmdline))
    finally:
        g.close()


CASES = [("e2e.fallback.broken_first_disk_falls_to_second", broken_first_disk_falls_to_second),
         ("e2e.fallback.grub_fallback_on_same_disk", grub_fallback_on_same_disk),
         ("e2e.fallback.usb_stick_does_not_take_over", usb_stick_does_not_take_over)]
if __name__ == "__main__":
    # a second argument runs only the cases whose name contains it
    only = sys.argv[2] if len(sys.argv) > 2 else ""
    ok = True
    for name, fn in CASES:
        if only in name:
            ok &= check(name, fn)
    sys.exit(0 if ok else 1)
