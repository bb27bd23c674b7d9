#!/usr/bin/env python3
"""The menu's failure paths in QEMU (issues #6 and #7).

bootmenu.efi with the demo disk (and a small extra disk made here), the
countdown off (bootmenu.timeout=-1). What the serial line shows is
replayed through the vt220 model of screen.py; entries are chosen
with the keys a VT220 sends, and each choice is confirmed with `i` (the
details screen names the selected entry) before Enter.

One guest goes through the failures that stop before the jump: every
format of the demo disk is listed; the grub entry whose kernel is missing;
an entry whose initrd is larger than the guest's RAM, and one whose initrd
is smaller than the RAM but larger than the free RAM; kexec_load refused
with EBUSY, EINVAL and ENOMEM, each on the first load only (the test
double of the kexec calls, BOOTMENU_KEXEC_FAULT=load:EBUSY/1,...: these
two guests boot the fault build, our kernel with
build/initramfs-fault.cpio.gz, qemu.fault_boot). Each failure must be
a dialog with its reason, a key must bring the menu back, and the last try
must boot. A second guest, told it is locked down
(BOOTMENU_KEXEC_LOCKDOWN), gets EPERM from kexec_file_load once, then
boots another entry. A third boots through OVMF from build/esp.img.
A fourth has a password in /etc/bootmenu.conf (written from the rescue
shell before the menu starts): the static build checks it with its own
SHA-512 crypt; a wrong one three times goes back to the menu, the right
one opens the editor of an entry that is not the default, whose edited
command line reaches the booted kernel; the typed password never shows.
In every guest /init must never have restarted bootmenu."""
import os
import re
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))
from qemu import Qemu, check, fault_boot, need  # noqa: E402
from disks import fill_tree  # noqa: E402
from screen import BOOTED, ScreenGuest  # noqa: E402

B = os.path.abspath(sys.argv[1])
EFI = os.path.join(B, "bootmenu.efi")
DEMO = os.path.join(B, "demo.img")
ESP = os.path.join(B, "esp.img")
KERNEL = os.path.join(B, "kernel", "bzImage")
W = os.path.join(B, "e2e-menu-faults")
HOME, END, DOWN, RIGHT, ENTER = "\x1b[1~", "\x1b[4~", "\x1b[B", "\x1b[C", "\r"
CANNOT = "Cannot boot this entry"
HUGE_TITLE = "Huge initrd 0900"
HUGE_MIB = 900  # sparse; the guests have 512 MiB (491 MiB MemTotal)
BIG_TITLE = "Big initrd 0480"
BIG_MIB = 480  # less than all RAM, more than the free RAM: once an OOM kill
UP = "\x1b[A"
MISSING_TITLE = "Missing kernel (demo of an error)"
BLS, BLS_RESCUE = "Demo BLS (bootmenu kernel)", "Demo BLS rescue (extra initrd option)"
# (filesystem header, titles) per format on the demo disk (README's list)
FORMATS = [
    (r"vda1 .* bls /loader/entries/", [BLS, BLS_RESCUE]),
    (r"vda2 .* grub /boot/grub/grub\.cfg",
     ["Debian GNU/Linux", "[+] Advanced options for Debian GNU/Linux"]),
    (r"vda3 .* syslinux /syslinux/syslinux\.cfg",
     ["Demo syslinux (bootmenu kernel)", "Demo syslinux, INITRD keyword"]),
    (r"vda4 .* lilo /etc/lilo\.conf", ["Slackware"]),
    (r"vda5 .* bare /boot/vmlinuz-6\.1\.192-bootmenu", ["Linux 6.1.192-bootmenu"]),
]


def extra_disk():
    """An ext4 (whole disk, vdb in the guest) with our kernel, sparse
    initrds of HUGE_MIB and BIG_MIB MiB, a syslinux.cfg with an entry for
    each, and /lockdown, a lockdown file in integrity mode."""
    os.makedirs(W, exist_ok=True)
    root, img = os.path.join(W, "extra-root"), os.path.join(W, "extra.img")
    fill_tree(root, {
        "/boot/vmlinuz": need(KERNEL),
        "/syslinux/syslinux.cfg":
            "LABEL huge\n  MENU LABEL %s\n  KERNEL /boot/vmlinuz\n"
            "  INITRD /boot/huge.img\n  APPEND console=ttyS0 demo.entry=huge\n"
            "LABEL big\n  MENU LABEL %s\n  KERNEL /boot/vmlinuz\n"
            "  INITRD /boot/big.img\n  APPEND console=ttyS0 demo.entry=big\n"
            % (HUGE_TITLE, BIG_TITLE),
        "/lockdown": "none [integrity] confidentiality\n",
    })
    for name, mib in (("huge.img", HUGE_MIB), ("big.img", BIG_MIB)):
        with open(os.path.join(root, "boot", name), "wb") as f:
            f.truncate(mib << 20)
    if os.path.exists(img):
        os.unlink(img)
    subprocess.run(["mke2fs", "-q", "-F", "-t", "ext4", "-L", "faults",
                    "-d", root, img, "32M"], check=True, stdout=subprocess.DEVNULL)
    return img


class Guest(ScreenGuest):
    """A guest in the menu, its countdown off, driven by keys."""

    def __init__(self, name, append="", disks=(), uefi=False, fault=False):
        """@fault: the fault build (qemu.fault_boot), which takes
        BOOTMENU_KEXEC_FAULT and BOOTMENU_KEXEC_LOCKDOWN in @append."""
        boot = fault_boot(B) if fault else {"kernel": need(EFI)}
        if uefi:
            q = Qemu(B, name, uefi=True, disks=list(disks))
        else:
            q = Qemu(B, name, disks=list(disks),
                     append="bootmenu.timeout=-1 " + append, **boot)
        super().__init__(q)

    def selected(self):
        """The selected entry's title, from its details screen (`i`)."""
        self.keys("i")
        self.wait_screen(r"^source: ", 30)
        title = self.screen.text().splitlines()[0].strip()
        self.keys("x")  # any key closes it
        self.wait_screen(r"^source: ", 30, gone=True)
        return title

    def select(self, title):
        """Home, then down until the details name @title."""
        self.keys(HOME)
        for _ in range(8):
            if self.selected() == title:
                return
            self.keys(DOWN)
        raise AssertionError("no entry %r in the menu:\n%s" % (title, self.show()))

    def choose(self, title, *keys):
        self.keys(*keys)
        got = self.selected()
        if got != title:
            raise AssertionError("the keys selected %r, not %r" % (got, title))

    def box_text(self):
        """The words in the dialog's columns, in one line (at 80 columns
        the box is 72 wide and its text 68, from column 6; the menu shows
        at both sides and above and below)."""
        cols = [ln[6:74] for ln in self.show().splitlines()]
        return re.sub(r"\s+", " ", " ".join(cols))

    def dialog(self, title, reason):
        """Enter on the selection: a dialog @title whose text says @reason
        (a regex over its words); a key closes it and the menu is back."""
        mark = len(self.q.output())
        self.keys(ENTER)
        end = time.monotonic() + 120
        while not re.search(r"Press any key", self.show()):
            if re.search(BOOTED, self.q.output()[mark:]):
                raise AssertionError("a target booted although the load should fail")
            if time.monotonic() > end:
                raise AssertionError("no dialog after 120 s:\n%s" % self.screen.text())
            time.sleep(0.3)
        text = self.box_text()
        if title not in text:
            raise AssertionError("the dialog is not %r:\n%s" % (title, self.screen.text()))
        text = text[text.index(title):]
        if not re.search(reason, text):
            raise AssertionError("the dialog does not say /%s/:\n%s" % (
                reason, self.screen.text()))
        if re.search(BOOTED, self.q.output()[mark:]):
            raise AssertionError("a target booted although the load failed")
        self.keys("x")
        self.wait_screen(r"Press any key", 30, gone=True)
        self.wait_screen(r"Enter boot  e edit", 10)
        self.not_restarted()
        return text

    def boots(self, entry):
        self.keys(ENTER)
        got = self.q.expect(BOOTED, 180).group(1)
        if got != entry:
            raise AssertionError("booted entry=%s, not %s" % (got, entry))
        self.not_restarted()



class Steps:
    """Cases that share one guest: each step's outcome is kept for its own
    PASS or FAIL line; after a failure the later steps are not reached."""

    def __init__(self):
        self.result = {}
        self.broken = None

    def run(self, name, fn):
        if self.broken:
            self.result[name] = "not reached: %s failed" % self.broken
            return
        try:
            fn()
            self.result[name] = None
        except Exception as e:  # a failed step, whatever raised
            self.result[name] = "%s: %s" % (type(e).__name__, e)
            self.broken = name

    def case(self, name):
        def fn():
            if name not in self.result:
                raise AssertionError("not reached: %s" % self.broken)
            if self.result[name]:
                raise AssertionError(self.result[name])
        return fn


def format_missing(text):
    """What of FORMATS is not on the screen @text, or None."""
    for header, titles in FORMATS:
        if not re.search("^" + header, text, re.M):
            return "the header /%s/" % header
        for t in titles:
            if not re.search(r"^ +(\* )?%s" % re.escape(t), text, re.M):
                return "the entry %r" % t
    # the demo's default, marked
    if not re.search(r"^  \* %s" % re.escape(BLS), text, re.M):
        return "the default marked *"
    return None


def every_format_listed(g):
    g.wait_screen(re.escape(HUGE_TITLE), 120)
    # kernel messages may cross the menu until it is redrawn: wait for it
    end = time.monotonic() + 60
    while format_missing(g.show()):
        if time.monotonic() > end:
            raise AssertionError("%s is not on the screen:\n%s" % (
                format_missing(g.show()), g.screen.text()))
        time.sleep(0.5)


def missing_kernel(g):
    # the submenu is the 4th row from the top (`i` shows nothing for a
    # submenu: its opening by Right says the keys reached it)
    g.keys(HOME, DOWN, DOWN, DOWN, RIGHT)
    g.wait_screen(re.escape(MISSING_TITLE), 30)
    g.choose(MISSING_TITLE, DOWN, DOWN, DOWN)
    g.dialog(CANNOT, r"cannot open the kernel /boot/vmlinuz-does-not-exist "
             r"on \S+: No such file or directory")


def too_big(title, mib, *keys):
    def fn(g):
        g.choose(title, *keys)
        total = ((mib << 20) + os.path.getsize(KERNEL)) >> 20
        g.dialog(CANNOT, r'the kernel and initrds of "%s" \(%d MiB\) do not '
                 r'fit in the free RAM \(\d+ MiB\)' % (re.escape(title), total))
    return fn


def refusal(errno_reason, title, *keys):
    def fn(g):
        g.choose(title, *keys)
        g.dialog(CANNOT, errno_reason)
    return fn


EBUSY = (r"kexec_load refused: a kexec load is already in progress or the "
         r"loaded kernel is in use \(EBUSY\); try again")
EINVAL = r"kexec_load refused the image or its segments as invalid \(EINVAL\)"
ENOMEM = (r"kexec_load failed: the running kernel is out of memory for the "
          r"segments \(ENOMEM\)")
LOCKED = (r"the kernel /demo/vmlinuz is not signed by a key this machine "
          r"trusts: under Secure Boot \(lockdown\) only a signed kernel boots "
          r"\(kexec_file_load: Operation not permitted\)")


def failures_guest(steps):
    g = Guest("menu-faults-refusals", disks=[need(DEMO), extra_disk()],
              append="BOOTMENU_KEXEC_FAULT=load:EBUSY/1,load:EINVAL/1,load:ENOMEM/1",
              fault=True)
    try:
        steps.run("every_format_listed",
                  lambda: (g.q.expect(r"init: bootmenu \d+\.\d+", 90),
                           every_format_listed(g)))
        steps.run("missing_kernel", lambda: missing_kernel(g))
        # vdb sorts after the demo's vda*: its entries are the last two
        steps.run("initrd_larger_than_ram", lambda: too_big(HUGE_TITLE, HUGE_MIB, END, UP)(g))
        steps.run("initrd_larger_than_free_ram", lambda: too_big(BIG_TITLE, BIG_MIB, END)(g))
        steps.run("ebusy", lambda: refusal(EBUSY, BLS, HOME)(g))
        steps.run("einval", lambda: refusal(EINVAL, BLS_RESCUE, HOME, DOWN)(g))
        steps.run("enomem", lambda: refusal(ENOMEM, BLS, HOME)(g))
        steps.run("then_another_boots",
                  lambda: (g.choose(BLS_RESCUE, HOME, DOWN), g.boots("bls-rescue")))
    finally:
        g.close()


def lockdown_eperm():
    g = Guest("menu-faults-lockdown", disks=[need(DEMO), extra_disk()],
              append="BOOTMENU_KEXEC_FAULT=file:EPERM/1 "
                     "BOOTMENU_KEXEC_LOCKDOWN=/run/bootmenu/vdb/lockdown",
              fault=True)
    try:
        g.q.expect(r"init: bootmenu \d+\.\d+", 90)
        g.wait_screen(re.escape(HUGE_TITLE), 120)  # vdb, the lockdown file's disk
        g.choose(BLS, HOME)
        g.dialog(CANNOT, LOCKED)
        g.choose(BLS_RESCUE, HOME, DOWN)
        g.boots("bls-rescue")
        # "Starting <title> (loaded with kexec_file_load)"
        before = g.q.output().split("BOOTMENU-TARGET")[0]
        if "with kexec_file_load" not in before:
            raise AssertionError("bootmenu does not say it used kexec_file_load")
    finally:
        g.close()


PASSWORD = "open sesame"


def password_guest():
    # crypt(3)'s "$6$" form; no quote or space in it, so it goes in '...'
    hashed = subprocess.run(["openssl", "passwd", "-6", "-salt", "e2etest",
                             PASSWORD], check=True, capture_output=True,
                            text=True).stdout.strip()
    g = Guest("menu-faults-password", disks=[need(DEMO)], append="bootmenu.shell")
    try:
        g.q.expect(r"rescue shell", 90)
        g.q.send("dmesg -n 1; printf 'password = %%s\\n' '%s' > /etc/bootmenu.conf; "
                 "echo CONF-$((1+1)); exit\n" % hashed)
        g.q.expect(r"CONF-2", 30)
        g.wait_screen(re.escape(BLS_RESCUE), 120)
        g.choose(BLS_RESCUE, HOME, DOWN)
        # not the default: booting it asks; three wrong tries, back to the menu
        g.keys(ENTER)
        g.wait_screen(r"Booting this entry needs the password", 30)
        for n in (2, 3):
            g.keys("wrong", ENTER)
            g.wait_screen(r"Wrong password, try %d of 3" % n, 30)
        g.keys("wrong", ENTER)
        g.wait_screen(r"Wrong password 3 times: back to the menu", 30)
        if re.search(BOOTED + "|Starting ", g.q.output()):
            raise AssertionError("a wrong password let the entry boot")
        # the editor of the same entry, with the right password
        g.keys("e")
        g.wait_screen(r"Editing needs the password", 30)
        g.keys(PASSWORD)
        screen = g.wait_screen(r"Password: \*{%d}" % len(PASSWORD), 30).string
        if PASSWORD in screen:
            raise AssertionError("the typed password shows:\n" + screen)
        g.keys(ENTER)
        g.wait_screen(r"Edit the command line", 30)
        g.keys(" marker=unlocked", ENTER)
        got = g.q.expect(BOOTED, 180).group(1)
        if got != "bls-rescue":
            raise AssertionError("booted entry=%s, not bls-rescue" % got)
        g.q.expect(r"BOOTMENU-TARGET: cmdline=.*marker=unlocked", 10)
        g.not_restarted()
    finally:
        g.close()


def ovmf_menu_boots():
    g = Guest("menu-faults-ovmf", uefi=True, disks=[need(ESP), need(DEMO)])
    try:
        g.wait_screen(r"Booting %s in \d+ s" % re.escape(BLS), 240)
        g.wait_screen(r"^\s+\* %s" % re.escape(BLS), 5)
        # keys: the countdown stops; down and back up leaves the default
        # selected whatever the ESP lists above it
        g.keys(DOWN)
        g.keys(UP)
        g.wait_screen(r"Booting .* in \d+ s", 30, gone=True)
        if re.search(BOOTED + "|Starting ", g.show() + g.q.output()):
            raise AssertionError("the countdown booted before the key")
        g.keys(ENTER)
        m = g.q.expect(BOOTED + r".*efi=(\w+)", 180)
        if (m.group(1), m.group(2)) != ("bls", "yes"):
            raise AssertionError("booted entry=%s efi=%s, not bls with efi=yes" %
                                 (m.group(1), m.group(2)))
        # Secure Boot off: no lockdown, so kexec_load as under SeaBIOS
        before = g.q.output().split("BOOTMENU-TARGET")[0]
        if "with kexec_load" not in before:
            raise AssertionError("bootmenu does not say it used kexec_load")
        g.not_restarted()
    finally:
        g.close()


if __name__ == "__main__":
    # a second argument runs only the guests whose name contains it
    only = sys.argv[2] if len(sys.argv) > 2 else ""
    ok = True
    if only in "refusals":
        steps = Steps()
        try:
            failures_guest(steps)
        except Exception as e:  # the guest did not start
            steps.broken = steps.broken or "starting the guest (%s)" % e
        for name in ("every_format_listed", "missing_kernel",
                     "initrd_larger_than_ram", "initrd_larger_than_free_ram",
                     "ebusy", "einval", "enomem",
                     "then_another_boots"):
            ok &= check("e2e.menu_faults." + name, steps.case(name))
    if only in "lockdown":
        ok &= check("e2e.menu_faults.lockdown_eperm_then_another_boots",
                    lockdown_eperm)
    if only in "password":
        ok &= check("e2e.menu_faults.password_wrong_thrice_then_right_edits",
                    password_guest)
    if only in "ovmf":
        ok &= check("e2e.menu_faults.ovmf_menu_boots_default", ovmf_menu_boots)
    sys.exit(0 if ok else 1)
