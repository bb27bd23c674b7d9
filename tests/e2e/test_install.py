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
The ESP starts empty: the installer makes \\EFI itself."""
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(__file__))
from qemu import OVMF_VARS, Qemu, check, need  # noqa: E402
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
                    esp_opts="rw,noatime"):
    """bootmenu.efi by -kernel into its rescue shell, the ESP of @disk
    mounted at /boot/efi, `bootmenu install @args` run; the QEMU quits
    after the ESP is unmounted. Returns (its output, its status,
    @before_after's output before and after the install)."""
    q = Qemu(B, name, kernel=need(EFI), append="bootmenu.shell", uefi=True,
             vars_file=vars_file,
             disks=[{"file": disk, "snapshot": False}, make_stick()],
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
        out, rc = shell_run(q, "bootmenu install --image "
                            "/mnt/stick/bootmenu.efi " + args)
        if before_after:
            seen.append(shell_run(q, before_after)[0])
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
    sys.exit(0 if ok else 1)
