#!/usr/bin/env python3
"""The installer in QEMU under OVMF (issue #20); never this machine's disks,
firmware or variables.

The disk, made here without mounting: GPT, an empty ESP (vda1, vfat) and
an ext4 /boot (vda2) holding the test kernel and initrd and a
grub/grub.cfg whose one entry boots them. A second disk, an ext4 stick,
holds build/bootmenu.efi for the installer to copy. The firmware's
variables are a writable copy of OVMF_VARS_4M.fd.

1. bootmenu.efi started with -kernel into its rescue shell mounts the ESP
   at /boot/efi and runs `bootmenu install --default` (the ESP found by
   itself); the printed list names the file, a Boot#### "bootmenu" and
   BootOrder with it first. Then OVMF starts from that disk alone, with
   those variables: it loads Boot#### "bootmenu", bootmenu's menu shows
   the grub.cfg entry, and choosing it boots the target (its marker).
2. `--removable` with --no-nvram, then the variables reset to a blank
   copy: the firmware finds \\EFI\\BOOT\\BOOTX64.EFI by itself and bootmenu
   comes up and boots the grub.cfg entry.
4. `--print --default --removable`: the disk image is byte-identical
   afterwards (sha256), and so is every variable as the guest sees it
   (the firmware rewrites its own store on each boot, so the variables
   are compared inside the guest, before and after). The same for a
   refusal: the ESP mounted read-only.
5. On the host as a user would: build/host/bootmenu-install with --esp on a
   plain directory and --no-nvram writes bootmenu.efi, the fallback and
   its record there and nothing under /etc, /usr, /boot, /efi or /root.
6. Behind shim (issue #39), under OVMF enforcing Secure Boot with the
   snakeoil key in db (standing in for Microsoft's): the rescue shell runs
   `bootmenu install --shim ... --default` with bootmenu-sb.efi signed
   only by a test Machine Owner Key, then writes the MOK request as
   `mokutil --import` would; the list names shimx64.efi, grubx64.efi, a
   Boot#### pointing at shimx64.efi, and the warning. At the next boot the
   firmware starts that Boot####, shim shows MokManager for the request,
   which is confirmed over the serial line; at the one after, shim checks
   bootmenu against the MOK and starts it: our kernel locks down and the
   menu shows the grub.cfg entry. It needs images/shim.sh's files in
   build/shim-test/ (SHIM_NEEDS below) and reports SKIP, not PASS, when
   one is missing.
The ESP starts empty: the installer makes \\EFI itself."""
import os
import re
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))
from qemu import OVMF_VARS, Qemu, check, need  # noqa: E402
try:
    from qemu import Skip  # noqa: E402
except ImportError:  # a qemu.py without SKIP: main() prints it itself
    Skip = None
from screen import ScreenGuest  # noqa: E402
from disks import sha256, stick_ext4  # noqa: E402
import test_menu_faults as mf  # noqa: E402

B = os.path.abspath(sys.argv[1])
EFI = os.path.join(B, "bootmenu.efi")
KERNEL = os.path.join(B, "kernel", "bzImage")
INITRD = os.path.join(B, "target-initrd.cpio.gz")
W = os.path.join(B, "e2e-install")
DOWN, ENTER = "\x1b[B", "\r"
TITLE = "Installed Linux (test target)"
GRUB_CFG = """set default=0
set timeout=5
menuentry '%s' {
	linux /vmlinuz-6.1-test console=ttyS0,115200 no_timer_check demo.entry=install-grub target.poweroff
	initrd /initrd.img-6.1-test
}
""" % TITLE
MARKER = r"BOOTMENU-TARGET: booted entry=install-grub "
LOCKED_LINE = r"Kernel is locked down from EFI Secure Boot"
EFIVARS = "/sys/firmware/efi/efivars"

# What the shim case needs, made by images/shim.sh in build/shim-test/
SHIM_TEST = os.path.join(B, "shim-test")
SHIM_GUID = "605dab50-e046-4300-abb6-3dd810dd8b23"
SHIM_NEEDS = [
    (os.path.join(SHIM_TEST, "esp", "EFI", "BOOT", "BOOTX64.EFI"),
     "Debian's shimx64.efi signed with the snakeoil db key"),
    (os.path.join(SHIM_TEST, "esp", "EFI", "BOOT", "mmx64.efi"),
     "Debian's MokManager signed likewise"),
    (os.path.join(SHIM_TEST, "esp", "EFI", "BOOT", "grubx64.efi"),
     "bootmenu-sb.efi signed only with the test MOK"),
    (os.path.join(SHIM_TEST, "fallback", "mok", "MokNew-" + SHIM_GUID),
     "the MokNew variable `mokutil --import mok.der` writes"),
    (os.path.join(SHIM_TEST, "fallback", "mok", "MokAuth-" + SHIM_GUID),
     "and its MokAuth"),
    (os.path.join(SHIM_TEST, "fallback", "mok", "password"),
     "the request's password"),
]


def run(*cmd, **kw):
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, **kw)


def make_disk(name):
    """W/@name: GPT, vda1 an empty 32 MiB ESP, vda2 a 24 MiB ext4 /boot."""
    os.makedirs(W, exist_ok=True)
    esp, boot, img = (os.path.join(W, name + s) for s in (".esp", ".boot", ""))
    for p in (esp, boot, img):
        if os.path.exists(p):
            os.unlink(p)
    run("mkfs.vfat", "-C", "-n", "INSTESP", esp, str(32 * 1024))
    tree = os.path.join(W, name + ".tree")
    shutil.rmtree(tree, ignore_errors=True)
    os.makedirs(os.path.join(tree, "grub"))
    shutil.copy(need(KERNEL), os.path.join(tree, "vmlinuz-6.1-test"))
    shutil.copy(need(INITRD), os.path.join(tree, "initrd.img-6.1-test"))
    with open(os.path.join(tree, "grub", "grub.cfg"), "w") as f:
        f.write(GRUB_CFG)
    run("mkfs.ext4", "-q", "-F", "-L", "INSTBOOT", "-d", tree, boot, "24M")
    shutil.rmtree(tree)
    run("truncate", "-s", "60M", img)
    subprocess.run(["sfdisk", "-q", img], check=True, text=True, input=(
        "label: gpt\n"
        "start=1MiB, size=32MiB, type=U, name=\"EFI system partition\"\n"
        "start=33MiB, size=24MiB, type=L, name=boot\n"))
    run("dd", "if=" + esp, "of=" + img, "bs=1M", "seek=1", "conv=notrunc",
        "status=none")
    run("dd", "if=" + boot, "of=" + img, "bs=1M", "seek=33", "conv=notrunc",
        "status=none")
    os.unlink(esp)
    os.unlink(boot)
    return img


def make_stick():
    path = os.path.join(W, "stick.img")
    stick_ext4(path, os.path.join(W, "stick-tree"),
               {"/bootmenu.efi": need(EFI)}, label="INSTSTICK", size="16M")
    return path


def blank_vars(name):
    path = os.path.join(W, name)
    shutil.copy(OVMF_VARS, path)
    return path


def shell_run(q, cmd, timeout=180):
    """@cmd in the rescue shell; its output (up to a marker) and status."""
    start = len(q.output())
    q.send("%s; echo CMD-RC=$?\n" % cmd)
    m = q.expect(r"CMD-RC=(\d+)", timeout)
    return q.output()[start:m.start()].replace("\r", ""), int(m.group(1))


def installer_guest(name, disk, vars_file, args, before_after="",
                    esp_opts="rw,noatime", uefi=True, stick=None,
                    image="/mnt/stick/bootmenu.efi", then=""):
    """bootmenu.efi by -kernel into its rescue shell, the ESP of @disk
    mounted at /boot/efi, `bootmenu install --image @image @args` run
    (@stick, default make_stick(), at /mnt/stick), then @then; the QEMU
    quits after the ESP is unmounted. Returns (its output, its status,
    @before_after's output before and after the install)."""
    q = Qemu(B, name, kernel=need(EFI), append="bootmenu.shell", uefi=uefi,
             vars_file=vars_file,
             disks=[{"file": disk, "snapshot": False}, stick or make_stick()],
             extra=["-nic", "none"])
    try:
        q.expect(r"rescue shell", 120)
        out, rc = shell_run(q, "mkdir -p /boot/efi /mnt/stick && "
                            "mount -o ro /dev/vdb /mnt/stick && "
                            "mount -t vfat -o %s /dev/vda1 /boot/efi" % esp_opts)
        if rc:
            raise AssertionError("cannot mount in the guest:\n" + out[-800:])
        seen = []
        if before_after:
            seen.append(shell_run(q, before_after)[0])
        out, rc = shell_run(q, "bootmenu install --image %s %s" % (image, args))
        if before_after:
            seen.append(shell_run(q, before_after)[0])
        if then and shell_run(q, then)[1]:
            raise AssertionError("failed in the guest: " + then)
        _, urc = shell_run(q, "umount /boot/efi && sync")
        if urc:
            raise AssertionError("cannot unmount the ESP")
        q.monitor("quit")
        q.wait_exit(60)
    finally:
        q.close()
    return out, rc, seen


class DiskGuest(mf.Guest):
    """OVMF starting from @disk alone, its menu driven by keys."""

    def __init__(self, name, disk, vars_file):
        ScreenGuest.__init__(self, Qemu(B, name, uefi=True,
                                        vars_file=vars_file, disks=[disk],
                                        extra=["-nic", "none"]))


def boots_from_disk(name, disk, vars_file, loads):
    """OVMF from @disk alone: the firmware loads @loads (a regex), the menu
    shows the grub.cfg entry, choosing it boots the target."""
    g = DiskGuest(name, disk, vars_file)
    try:
        g.q.expect(loads, 300)
        g.wait_screen(re.escape(TITLE), 300)
        g.keys(DOWN)  # the countdown stops
        g.select(TITLE)
        g.keys(ENTER)
        g.q.expect(MARKER, 300)
    finally:
        g.close()


def want_lines(out, *patterns):
    for p in patterns:
        if not re.search(p, out, re.M):
            raise AssertionError("no /%s/ in the installer's output:\n%s"
                                 % (p, out[-2000:]))


# every variable's hash, as the guest sees them, and what the ESP holds
VAR_SUMS = ("cd /sys/firmware/efi/efivars && sha256sum * && "
            "ls /boot/efi/EFI 2>&1; cd /")


def unchanged(disk, disk_sha, seen, what):
    """The variables (@seen: VAR_SUMS before and after) and @disk as they
    were."""
    sums = [re.findall(r"^[0-9a-f]{64}  \S+", s, re.M) for s in seen]
    if not sums[0] or sums[0] != sums[1]:
        raise AssertionError("the variables changed under %s:\n%s\n---\n%s"
                             % (what, "\n".join(sums[0]), "\n".join(sums[1])))
    if sha256(disk) != disk_sha:
        raise AssertionError("the disk image changed under %s" % what)


class Installed:
    """A fresh disk and blank variables, `bootmenu install @args` run on
    them in the guest, which must succeed: .disk, .vars_file, .disk_sha
    (the disk's hash before the guest), .out (the installer's output),
    .seen (@before_after's outputs before and after it)."""

    def __init__(self, name, args, before_after=""):
        self.disk = make_disk(name + ".img")
        self.disk_sha = sha256(self.disk)
        self.vars_file = blank_vars(name + ".vars.fd")
        self.out, rc, self.seen = installer_guest(
            "install-" + name, self.disk, self.vars_file, args, before_after)
        if rc != 0:
            raise AssertionError("bootmenu install %s exited %d:\n%s"
                                 % (args, rc, self.out))


def default_entry():
    i = Installed("default", "--default")
    out = i.out
    want_lines(out, r"^esp: +/boot/efi \(partition 1 of /dev/vda",
               r"^write: +EFI/bootmenu/bootmenu\.efi \(\d+ bytes",
               r"^variable: Boot([0-9A-F]{4}) \"bootmenu\" HD\(1,GPT,",
               r"^variable: BootOrder ([0-9A-F]{4}),",
               r"^write: +EFI/bootmenu/install\.rec")
    num = re.search(r"variable: (Boot[0-9A-F]{4}) \"bootmenu\"", out).group(1)
    first = re.search(r"variable: BootOrder ([0-9A-F]{4})", out).group(1)
    if num != "Boot" + first:
        raise AssertionError("%s is not first in BootOrder:\n%s" % (num, out))
    boots_from_disk("install-default-boot", i.disk, i.vars_file,
                    r"BdsDxe: loading %s \"bootmenu\"" % num)


def removable_blank_vars():
    i = Installed("removable", "--removable --no-nvram")
    out = i.out
    want_lines(out, r"^write: +EFI/BOOT/BOOTX64\.EFI \(\d+ bytes")
    if "variable:" in out:
        raise AssertionError("--no-nvram changed a variable:\n" + out)
    boots_from_disk("install-removable-boot", i.disk,
                    blank_vars("removable.vars.fd"),
                    r"BdsDxe: starting Boot[0-9A-F]{4} \"UEFI Misc Device\"")


def print_changes_nothing():
    i = Installed("print", "--print --default --removable",
                  before_after=VAR_SUMS)
    out = i.out
    want_lines(out, r"^write: +EFI/BOOT/BOOTX64\.EFI",
               r"^variable: BootOrder", r"^nothing was changed \(--print\)")
    unchanged(i.disk, i.disk_sha, i.seen, "--print")


def read_only_esp_refused():
    disk = make_disk("ro.img")
    disk_sha = sha256(disk)
    out, rc, seen = installer_guest("install-ro", disk, blank_vars("ro.vars.fd"),
                                    "--default --removable", VAR_SUMS, "ro")
    if rc != 1 or "remount,rw" not in out:
        raise AssertionError("a read-only ESP: status %d, no advice to "
                             "remount it:\n%s" % (rc, out))
    unchanged(disk, disk_sha, seen, "a refusal")


def host_directory_only():
    import tempfile
    import time
    os.makedirs(W, exist_ok=True)
    esp = tempfile.mkdtemp(dir=W)
    stamp = os.path.join(W, "stamp")
    with open(stamp, "w"):
        pass
    time.sleep(1.1)  # mtimes on this filesystem may have 1 s steps
    r = subprocess.run([need(os.path.join(B, "host", "bootmenu-install")), "--esp", esp,
                        "--no-nvram", "--removable", "--image", need(EFI)],
                       capture_output=True, text=True)
    if r.returncode != 0:
        raise AssertionError("status %d: %s" % (r.returncode, r.stderr))
    wrote = sorted(os.path.relpath(os.path.join(d, f), esp)
                   for d, _, fs in os.walk(esp) for f in fs)
    want = ["EFI/BOOT/BOOTX64.EFI", "EFI/bootmenu/bootmenu.efi"]
    if [w for w in wrote if w in want] != want:
        raise AssertionError("under the directory: %s" % wrote)
    dirs = [d for d in ("/etc", "/usr", "/boot", "/efi", "/root") if os.path.isdir(d)]
    out = subprocess.run(["find"] + dirs + ["-xdev", "-newer", stamp, "-not", "-type", "d"],
                         capture_output=True, text=True).stdout.split()
    if out:
        raise AssertionError("written outside the directory: %s" % out[:10])
    shutil.rmtree(esp)


def shim_missing():
    """What the shim case lacks, as "path (what it is)"; empty: nothing."""
    return ["%s (%s)" % (p, what) for p, what in SHIM_NEEDS
            if not os.path.exists(p)]


def shim_stick():
    """A stick holding the shim and MokManager (/shim), bootmenu signed
    with the MOK alone (/bootmenu.mok.efi: only shim, through MokList,
    starts it; the firmware's db holds the snakeoil key), and the MOK
    request (/mok)."""
    shim, mm, second, new, auth, _ = (p for p, _ in SHIM_NEEDS)
    path = os.path.join(W, "shim-stick.img")
    stick_ext4(path, os.path.join(W, "shim-stick-tree"),
               {"/shim/shimx64.efi": shim, "/shim/mmx64.efi": mm,
                "/bootmenu.mok.efi": second,
                "/mok/" + os.path.basename(new): new,
                "/mok/" + os.path.basename(auth): auth},
               label="SHIMSTICK", size="32M")
    return path


# what `mokutil --import mok.der` does: the request into efivarfs
MOK_REQUEST = ("for v in MokNew MokAuth; do dd if=/mnt/stick/mok/$v-%s "
               "of=%s/$v-%s bs=4096 2>/dev/null || exit 1; done"
               % (SHIM_GUID, EFIVARS, SHIM_GUID))


def mokmanager_enrols(q, password):
    """MokManager, started by shim for the request, over the serial line:
    a key within its countdown, "Enroll MOK", "Continue", "Yes", the
    password, "Reboot" (QEMU runs with -no-reboot, so it exits)."""
    q.expect(r"Press any key to perform MOK management", 300)
    q.send(ENTER)
    q.expect(r"Perform MOK management", 60)
    q.expect(r"Enroll MOK", 30)
    for step in (r"\[Enroll MOK\]", r"Enroll the key\(s\)\?", r"Password:"):
        time.sleep(1)
        q.send(DOWN)
        time.sleep(0.3)
        q.send(ENTER)
        q.expect(step, 30)
    time.sleep(1)
    for c in password:
        q.send(c)
        time.sleep(0.1)
    q.send(ENTER)
    m = q.expect(r"Reboot|Password doesn't match|Failed to enroll", 60)
    if m.group(0) != "Reboot":
        raise AssertionError("MokManager: " + m.group(0))
    time.sleep(1)
    q.send(ENTER)
    q.wait_exit(60)


class SecureDiskGuest(DiskGuest):
    """OVMF enforcing Secure Boot, starting from @disk alone."""

    def __init__(self, name, disk, vars_file):
        ScreenGuest.__init__(self, Qemu(B, name, uefi="secboot",
                                        vars_file=vars_file, disks=[disk],
                                        extra=["-nic", "none"]))


def shim_boots_through_mok():
    missing = shim_missing()
    if missing:
        raise Skip("missing " + "; ".join(missing))
    disk = make_disk("shim.img")
    vars_file = os.path.join(W, "shim.vars.fd")
    if os.path.exists(vars_file):
        os.unlink(vars_file)  # the guest copies the snakeoil template
    out, rc, _ = installer_guest(
        "install-shim", disk, vars_file,
        "--shim /mnt/stick/shim/shimx64.efi --default", uefi="secboot",
        stick=shim_stick(), image="/mnt/stick/bootmenu.mok.efi",
        then=MOK_REQUEST)
    if rc != 0:
        raise AssertionError("bootmenu install --shim exited %d:\n%s"
                             % (rc, out))
    want_lines(out, r"^shim: +/mnt/stick/shim/shimx64\.efi \(signed\)",
               r"^shim: +/mnt/stick/shim/mmx64\.efi \(MokManager",
               r"^image: +/mnt/stick/bootmenu\.mok\.efi \(signed; Secure "
               r"Boot is on\)",
               r"^write: +EFI/bootmenu/grubx64\.efi \(\d+ bytes",
               r"^write: +EFI/bootmenu/mmx64\.efi \(\d+ bytes",
               r"^write: +EFI/bootmenu/shimx64\.efi \(\d+ bytes",
               r"^variable: Boot[0-9A-F]{4} \"bootmenu\" HD\(1,GPT,[^)]*\)"
               r"/File\(\\EFI\\bootmenu\\shimx64\.efi\)",
               r"^WARNING: +Boot[0-9A-F]{4} \(shim, then bootmenu\) is FIRST")
    num = re.search(r"variable: (Boot[0-9A-F]{4}) \"bootmenu\"", out).group(1)
    loads = r"BdsDxe: loading %s \"bootmenu\" from [^\r\n]*shimx64\.efi" % num
    password = open(SHIM_NEEDS[5][0]).read().strip()
    q = Qemu(B, "install-shim-mokmanager", uefi="secboot", vars_file=vars_file,
             disks=[disk], extra=["-nic", "none"])
    try:
        q.expect(loads, 300)
        mokmanager_enrols(q, password)
    finally:
        q.close()
    g = SecureDiskGuest("install-shim-boot", disk, vars_file)
    try:
        g.q.expect(loads, 300)
        m = g.q.expect(LOCKED_LINE + "|Verification failed", 300)
        if "Verification" in m.group(0):
            raise AssertionError("shim refused bootmenu after the enrolment")
        g.wait_screen(r"Secure Boot: on", 240)
        g.wait_screen(re.escape(TITLE), 120)
    finally:
        g.close()


if __name__ == "__main__":
    only = sys.argv[2] if len(sys.argv) > 2 else ""
    ok = True
    if only in "print":
        ok &= check("e2e.install.print_changes_nothing", print_changes_nothing)
    if only in "default":
        ok &= check("e2e.install.default_boots_from_disk", default_entry)
    if only in "readonly":
        ok &= check("e2e.install.read_only_esp_refused", read_only_esp_refused)
    if only in "removable":
        ok &= check("e2e.install.removable_blank_vars", removable_blank_vars)
    if only in "host":
        ok &= check("e2e.install.host_writes_only_under_esp_dir", host_directory_only)
    if only in "shim":
        if Skip is None and shim_missing():  # never a PASS when not run
            print("SKIP e2e.install.shim_boots_through_mok: missing "
                  + "; ".join(shim_missing()))
            sys.stdout.flush()
        else:
            ok &= check("e2e.install.shim_boots_through_mok",
                        shim_boots_through_mok)
    sys.exit(0 if ok else 1)
