#!/usr/bin/env python3
"""Power cuts during an install (issue #37, item 3).

UEFI (`bootmenu install --default --removable` from the rescue shell
under OVMF, our kernel and this tree's initramfs, installing
build/bootmenu.efi from a stick): test_install.py's disk (GPT, an ESP, an ext4
/boot with a grub.cfg) whose ESP already holds another loader at the
removable path, \\EFI\\BOOT\\BOOTX64.EFI: the stand-in (build/standin.efi,
which prints "BOOTMENU-STANDIN"). Blank variables, so the firmware starts
the stand-in until the install says otherwise.
- clean: one install, its window measured from its first "write:" line to
  its exit, with the disk throttled (QEMU, 2 MB/s) so that writing two
  copies of bootmenu.efi lasts seconds; the result boots bootmenu.
- CUTS (POWERCUT_CUTS, default 20) installs, each on a fresh disk and
  fresh variables, killed (SIGKILL of QEMU) at the first "write:" line
  plus i/(CUTS-1) x 1.2 x the window: evenly spread over the window and a
  little past it. After each, on the host: the ESP (its bytes cut out of
  the disk) passes `fsck.vfat -n`, where the dirty bit alone is allowed:
  the kill came while Linux had it mounted read-write, Linux sets it at
  mount and clears it at unmount, and the firmware's FAT driver does not
  look at it (the boot checks below read such ESPs). The summary line says
  how many cuts landed before any change reached the disk (nothing under
  \\EFI\\bootmenu yet: the first file's bytes were still on their way),
  during (something of bootmenu's, no record or a temporary file) and
  after (the record written, no temporary file).
- BOOTS (POWERCUT_BOOTS, default 6) of the cuts, spread, and always the
  first one "during": OVMF starts from the cut disk with the cut
  variables: it must start the stand-in or bootmenu (its menu shows the
  grub.cfg entry), never neither, and bootmenu when the cut came after
  the record. On RECOVERS (POWERCUT_RECOVERS, default
  3) of those, a second `bootmenu install --default --removable` must
  succeed, and then the firmware must start bootmenu.

BIOS (`bootmenu-install --bios`, a host process as in
test_install_bios.py, on a loop device of test_install_bios's disk whose
first 440 bytes are now a real other loader: 23 bytes of 16-bit code
printing "OLD-MBR-LOADER" on COM1): the installer runs under strace,
every writing call (write, pwrite64, rename, mkdir, unlink, fsync, syncfs,
ioctl) of it and of extlinux held BIOS_DELAY s at its entry, so that the
kill lands between two calls. A clean run times the window; the CUTS kills (SIGKILL of the whole process group) are
spread evenly over 0..1.1 x the window. This is a process cut, not a
power cut: the kernel still writes what the killed installer had written
(the partition is unmounted after the kill), which is what a cut of the
installer on a running system leaves. After each: `e2fsck -fn` of the
/boot partition finds nothing; the summary line counts the cuts that left
nothing of bootmenu's (before: the old boot code, no /bootmenu), the
record and syslinux's boot code (after: the record is written just
before the boot code, so that it holds the old bytes first), or something
between (during). BOOTS of them, spread, and the first "during", are
booted by SeaBIOS from the disk alone: the old loader's line or
bootmenu's init, never neither (bootmenu "after"); on RECOVERS of those, a second
install succeeds and then SeaBIOS starts bootmenu. On every cut but the
"before" ones, a second install and then --uninstall (on a copy, no boot)
must put the old loader's 440 bytes back.

The saved default on btrfs: bootmenu does not write btrfs (savedef.c:
"btrfs filesystems are not written (ext4 and vfat are)"), so there is
nothing to cut: `--save-default` on a btrfs /boot with a grubenv fails
with that sentence and the image stays byte-identical. The saved default
on a FAT ESP is cut in test_savedef.py (its vfat case, the state file).

Two faults this test found, both fixed in bootmenu/install/: on FAT, a
rename and the directory's fsync left the renamed files' entries unwritten
(a cut after an install that had returned found BOOTX64.EFI and
bootmenu.efi 0 bytes long: nothing to start; file.c now syncfs()es), and
a BIOS cut between the boot code and the record lost the old loader's
440 bytes for --uninstall (bios.c now writes the record first).
"""
import os
import re
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))
from qemu import Qemu, Skip, check, need  # noqa: E402
import test_install as ti  # noqa: E402
import test_install_bios as tb  # noqa: E402
from disks import sha256  # noqa: E402

B = os.path.abspath(sys.argv[1])
W = os.path.join(B, "e2e-powercut")
STANDIN = os.path.join(B, "standin.efi")
# the installer runs from this initramfs (this tree's bootmenu) on our
# kernel; the image it installs is build/bootmenu.efi
# (POWERCUT_INITRAMFS: another one, e.g. an older tree's, to compare)
INITRAMFS = os.environ.get("POWERCUT_INITRAMFS") or os.path.join(B, "initramfs.cpio.gz")
CUTS = int(os.environ.get("POWERCUT_CUTS", "20"))
BOOTS = int(os.environ.get("POWERCUT_BOOTS", "6"))
RECOVERS = int(os.environ.get("POWERCUT_RECOVERS", "3"))
ONLY = os.environ.get("POWERCUT_ONLY", "")
THROTTLE = "virtio,throttling.bps-total=2000000"
ARGS = "--default --removable"
ANCHOR = r"\nwrite: +EFI/"
OLD_MARK = r"BOOTMENU-STANDIN"
NEW_MARK = re.escape(ti.TITLE)
ESP_AT, ESP_LEN = 1 << 20, 32 << 20  # make_disk's vda1
os.environ["MTOOLS_SKIP_CHECK"] = "1"
ti.W = W


def run(*args):
    return subprocess.run(list(args), capture_output=True, text=True)


def uefi_disk(name):
    """make_disk's disk with the stand-in as the removable path's loader,
    and blank variables."""
    disk = ti.make_disk(name + ".img")
    img = "%s@@%d" % (disk, ESP_AT)
    r = run("mmd", "-i", img, "::/EFI", "::/EFI/BOOT")
    if r.returncode == 0:
        r = run("mcopy", "-i", img, need(STANDIN), "::/EFI/BOOT/BOOTX64.EFI")
    if r.returncode:
        raise AssertionError("cannot put the stand-in on the ESP: " + r.stderr)
    return disk, ti.blank_vars(name + ".vars.fd")


DIRTY_WORDS = ("Dirty bit is set", "Automatically removing dirty bit",
               "Leaving filesystem unchanged", "fsck.fat ", "files, ")


def esp_check(disk):
    """fsck.vfat -n of the ESP (the dirty bit alone allowed, see above);
    returns the ESP's file list (mdir -/ -b)."""
    esp = disk + ".esp"
    with open(disk, "rb") as f, open(esp, "wb") as o:
        f.seek(ESP_AT)
        o.write(f.read(ESP_LEN))
    r = run("fsck.vfat", "-n", esp)
    other = [ln for ln in r.stdout.splitlines()
             if ln.strip() and not any(w in ln for w in DIRTY_WORDS)]
    if other or (r.returncode != 0 and "Dirty bit is set" not in r.stdout):
        raise AssertionError("fsck.vfat -n (%d):\n%s" % (r.returncode, r.stdout))
    files = run("mdir", "-i", esp, "-/", "-b", "::/").stdout
    os.unlink(esp)
    return [ln.strip() for ln in files.splitlines() if ln.strip()]


def state_of(files):
    """before: nothing written yet; after: the record is there and no
    temporary or aside file; during: anything else."""
    names = [f.replace("\\", "/") for f in files]
    if any(n.endswith("/EFI/bootmenu/install.rec") for n in names) and \
            not any(n.endswith(".bootmenu-tmp") for n in names):
        return "after"
    if any("/EFI/bootmenu" in n for n in names):
        return "during"
    return "before"


def install_guest(name, disk, vars_file, throttle=True):
    d = {"file": disk, "snapshot": False}
    if throttle:
        d["if"] = THROTTLE
    q = Qemu(B, name, kernel=need(ti.KERNEL), initrd=need(INITRAMFS),
             append="console=ttyS0,115200 bootmenu.shell", uefi=True,
             vars_file=vars_file, disks=[d, STICK[0]], extra=["-nic", "none"])
    q.expect(r"rescue shell", 180)
    out, rc = ti.shell_run(q, "mkdir -p /boot/efi /mnt/stick && "
                           "mount -o ro /dev/vdb /mnt/stick && "
                           "mount -t vfat -o rw,noatime /dev/vda1 /boot/efi")
    if rc:
        q.close()
        raise AssertionError("cannot mount in the guest:\n" + out[-800:])
    q.send("bootmenu install --image /mnt/stick/bootmenu.efi %s; "
           "echo CMD-RC=$?\n" % ARGS)
    return q


STICK = []


def firmware_starts(name, disk, vars_file):
    """OVMF from @disk alone with a copy of @vars_file: "old" (the
    stand-in) or "new" (bootmenu's menu); raises when neither comes."""
    vcopy = vars_file + ".boot"
    shutil.copy(vars_file, vcopy)
    q = Qemu(B, name, uefi=True, vars_file=vcopy,
             disks=[{"file": disk, "snapshot": True}], extra=["-nic", "none"])
    try:
        m = q.expect("(%s)|(%s)" % (OLD_MARK, NEW_MARK), 300)
        return "old" if m.group(1) else "new"
    finally:
        q.close()
        os.unlink(vcopy)


def clean_install():
    """Returns the window (s) from the first write: line to the exit."""
    os.makedirs(W, exist_ok=True)
    STICK.append(ti.make_stick())
    disk, vars_file = uefi_disk("clean")
    q = install_guest("powercut-clean", disk, vars_file)
    try:
        q.expect(ANCHOR, 120)
        t0 = time.monotonic()
        rc = q.expect(r"CMD-RC=(\d+)", 300).group(1)
        window = time.monotonic() - t0
        if rc != "0":
            raise AssertionError("install exited %s:\n%s" % (rc, q.tail(1500)))
        ti.shell_run(q, "umount /boot/efi && sync")
    finally:
        q.close()
    if state_of(esp_check(disk)) != "after":
        raise AssertionError("the clean install left no record")
    got = firmware_starts("powercut-clean-boot", disk, vars_file)
    if got != "new":
        raise AssertionError("after a clean install the firmware started the stand-in")
    print("  clean install: %.2f s from the first write to the exit (2 MB/s)" % window)
    sys.stdout.flush()
    return window


def cut_series(kind, window, spread, one_cut, starts, again):
    """CUTS cuts, the i-th at i/(CUTS-1) x @spread x @window s: @one_cut(i,
    delay) makes it and checks the filesystem, returning "before",
    "during" or "after"; @starts(i) boots the cut disk ("old" or "new");
    @again(i) installs again and checks that bootmenu starts. Which cuts
    boot and recover: see the docstring. Prints the counts."""
    stats = {"before": 0, "during": 0, "after": 0, "old": 0, "new": 0}
    boot_at = set(round(k * (CUTS - 1) / max(BOOTS - 1, 1)) for k in range(BOOTS))
    first_during, recovered, t_start = None, 0, time.monotonic()
    for i in range(CUTS):
        delay = i / max(CUTS - 1, 1) * spread * window
        try:
            state = one_cut(i, delay)
        except AssertionError as e:
            raise AssertionError("%s cut %d (%.2f s): %s" % (kind, i, delay, e))
        stats[state] += 1
        boot = i in boot_at
        if state == "during" and first_during is None:
            first_during, boot = i, True
        if not boot:
            continue
        got = starts(i)
        stats[got] += 1
        if got == "old" and state == "after":
            raise AssertionError("%s cut %d: the record is written, the old loader started"
                                 % (kind, i))
        if recovered < RECOVERS and state != "before":
            again(i)
            recovered += 1
    print("  %d %s cuts (window %.2f s, kills evenly over 0..%.1f x window): %d before "
          "any change on the disk, %d during, %d after; %d booted: %d the old loader, %d bootmenu; "
          "%d recovered by a second install; %.0f s"
          % (CUTS, kind, window, spread, stats["before"], stats["during"], stats["after"],
             stats["old"] + stats["new"], stats["old"], stats["new"], recovered,
             time.monotonic() - t_start))
    sys.stdout.flush()
    if not stats["during"]:
        raise AssertionError("no %s cut landed during the install: nothing was tested" % kind)


def uefi_cuts(window):
    cur = {}

    def one_cut(i, delay):
        cur["disk"], cur["vars"] = uefi_disk("cut")
        q = install_guest("powercut-cut-%02d" % i, cur["disk"], cur["vars"])
        try:
            q.expect(ANCHOR, 120)
            time.sleep(delay)
        finally:
            q.close()  # SIGKILL: the power cut
        return state_of(esp_check(cur["disk"]))

    cut_series("UEFI", window, 1.2, one_cut,
               lambda i: firmware_starts("powercut-cut-%02d-boot" % i, cur["disk"], cur["vars"]),
               lambda i: recover(i, cur["disk"], cur["vars"]))


def recover(i, disk, vars_file):
    q = install_guest("powercut-cut-%02d-again" % i, disk, vars_file, throttle=False)
    try:
        m = q.expect(r"CMD-RC=(\d+)", 300)
        if m.group(1) != "0":
            raise AssertionError("cut %d: the second install exited %s:\n%s"
                                 % (i, m.group(1), q.tail(1500)))
        ti.shell_run(q, "umount /boot/efi && sync")
    finally:
        q.close()
    if state_of(esp_check(disk)) != "after":
        raise AssertionError("cut %d: the second install left no record" % i)
    if firmware_starts("powercut-cut-%02d-again-boot" % i, disk, vars_file) != "new":
        raise AssertionError("cut %d: after a second install the stand-in started" % i)


# --- BIOS

BW = os.path.join(B, "e2e-powercut-bios")
BDISK = os.path.join(BW, "bios.img")
INST = os.path.join(B, "host", "bootmenu-install")
BIOS_DELAY = float(os.environ.get("POWERCUT_BIOS_DELAY", "0.1"))
WRITES = "write,pwrite64,rename,renameat,renameat2,mkdir,mkdirat,unlink,unlinkat," \
    "fsync,fdatasync,syncfs,ioctl"
# cli; xor ax,ax; mov ds,ax; mov si,msg; mov dx,0x3f8; cld;
# 1: lodsb; test al,al; jz 2f; out dx,al; jmp 1b; 2: hlt; jmp 2b; msg:
OLD_CODE = bytes.fromhex("fa31c08ed8be177cbaf803fcac84c07403eeebf8f4ebfd") + \
    b"\r\nOLD-MBR-LOADER\r\n\0"
OLD_CODE += bytes(440 - len(OLD_CODE))
BIOS_OLD = r"OLD-MBR-LOADER"
BIOS_NEW = r"init: bootmenu"


def must(*cmd):
    r = run(*cmd)
    if r.returncode != 0:
        raise AssertionError("%s: rc %d: %s%s" % (" ".join(cmd), r.returncode, r.stdout, r.stderr))
    return r.stdout


def bios_disk():
    """test_install_bios's disk, OLD_CODE in its first 440 bytes."""
    tb.W, tb.DISK = BW, BDISK
    tb.make_disk(OLD_CODE)


def bios_installer(m, extra=()):
    """bootmenu-install --bios under strace (see above), in a session of
    its own so that one killpg() takes strace, it and extlinux."""
    cmd = ["strace", "-f", "-qq", "-o", "/dev/null", "-e", "trace=" + WRITES,
           "-e", "inject=%s:delay_enter=%d" % (WRITES, BIOS_DELAY * 1e6),
           INST, "--bios", m.dev, "--boot-dir", m.mnt, "--force-bios",
           "--image", need(ti.EFI)] + list(extra)
    return subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True, start_new_session=True)


def bios_state():
    """e2fsck -fn of the partition (after the unmount), then before /
    during / after as the docstring says."""
    with open(BDISK, "rb") as f:
        code = f.read(440)
    part = BDISK + ".part"
    must("dd", "if=" + BDISK, "of=" + part, "bs=1M", "skip=1", "status=none")
    r = run("e2fsck", "-fn", part)
    if r.returncode != 0:
        raise AssertionError("e2fsck -fn (%d):\n%s" % (r.returncode, r.stdout))
    rec = run("debugfs", "-R", "stat /bootmenu/install.rec", part).stdout
    made = run("debugfs", "-R", "stat /bootmenu", part).stdout
    os.unlink(part)
    if "Inode:" in rec and code != OLD_CODE:  # the record comes before the code
        return "after"
    return "before" if code == OLD_CODE and "Inode:" not in made else "during"


def bios_boots(name):
    q = Qemu(B, name, disks=[{"file": BDISK, "snapshot": True}], extra=["-nic", "none"])
    try:
        m = q.expect("(%s)|(%s)" % (BIOS_OLD, BIOS_NEW), 240)
        return "old" if m.group(1) else "new"
    finally:
        q.close()


def bios_clean():
    if not shutil.which("strace"):
        raise Skip("no strace (Debian's strace package)")
    bios_disk()
    if bios_boots("powercut-bios-old") != "old":
        raise AssertionError("the old loader did not start")
    with tb.Mounted() as m:
        t0 = time.monotonic()
        p = bios_installer(m)
        out = p.communicate(timeout=300)[0]
        window = time.monotonic() - t0
        if p.returncode != 0:
            raise AssertionError("install: rc %d: %s" % (p.returncode, out))
    if bios_state() != "after" or bios_boots("powercut-bios-clean") != "new":
        raise AssertionError("the clean install did not give bootmenu")
    print("  clean BIOS install: %.2f s with %.2f s before each writing call"
          % (window, BIOS_DELAY))
    sys.stdout.flush()
    return window


def undo_on_copy():
    """On a copy of the cut disk: a second install, then --uninstall,
    which must put the old loader's 440 bytes back."""
    copy = BDISK + ".undo"
    shutil.copy(BDISK, copy)
    tb.DISK = copy
    try:
        with tb.Mounted() as m:
            must(INST, "--bios", m.dev, "--boot-dir", m.mnt, "--force-bios",
                 "--image", need(ti.EFI))
            must(INST, "--uninstall", "--boot-dir", m.mnt)
        with open(copy, "rb") as f:
            if f.read(440) != OLD_CODE:
                raise AssertionError("install again, then --uninstall: the old loader's "
                                     "boot code is not back")
    finally:
        tb.DISK = BDISK
        os.unlink(copy)


def bios_cuts(window):
    def one_cut(i, delay):
        bios_disk()
        with tb.Mounted() as m:
            p = bios_installer(m)
            try:
                p.wait(delay)
            except subprocess.TimeoutExpired:
                os.killpg(p.pid, 9)
            p.communicate()
        state = bios_state()
        if state != "before":
            undo_on_copy()
        return state

    def again(i):
        with tb.Mounted() as m:
            out = must(INST, "--bios", m.dev, "--boot-dir", m.mnt, "--force-bios",
                       "--image", need(ti.EFI))
        if bios_boots("powercut-bios-cut-%02d-again" % i) != "new":
            raise AssertionError("cut %d: a second install does not start bootmenu:\n%s"
                                 % (i, out))

    cut_series("BIOS", window, 1.1, one_cut,
               lambda i: bios_boots("powercut-bios-cut-%02d" % i), again)


# --- the saved default on btrfs

GRUB_CFG2 = "".join('menuentry "Entry %s" --id entry-%s {\n  linux /boot/vmlinuz\n}\n'
                    % (t, t.lower()) for t in "AB")
GRUBENV = b"# GRUB Environment Block\nsaved_entry=entry-a\n"
GRUBENV += b"#" * (1024 - len(GRUBENV))


def btrfs_refused():
    os.makedirs(W, exist_ok=True)
    tree, img = os.path.join(W, "btrfs-tree"), os.path.join(W, "btrfs.img")
    shutil.rmtree(tree, ignore_errors=True)
    os.makedirs(os.path.join(tree, "boot", "grub"))
    with open(os.path.join(tree, "boot", "grub", "grub.cfg"), "w") as f:
        f.write(GRUB_CFG2)
    with open(os.path.join(tree, "boot", "grub", "grubenv"), "wb") as f:
        f.write(GRUBENV)
    with open(os.path.join(tree, "boot", "vmlinuz"), "wb") as f:
        f.write(b"not booted here")
    if os.path.exists(img):
        os.unlink(img)
    with open(img, "wb") as f:
        f.truncate(128 << 20)
    must("mkfs.btrfs", "-q", "-f", "-L", "SDBTRFS", "--rootdir", tree, img)
    shutil.rmtree(tree)
    before = sha256(img)
    q = Qemu(B, "powercut-btrfs", kernel=need(ti.KERNEL), initrd=need(INITRAMFS),
             append="console=ttyS0,115200 bootmenu.shell",
             disks=[{"file": img, "snapshot": False}], extra=["-nic", "none"])
    try:
        q.expect(r"rescue shell", 120)
        out, rc = ti.shell_run(q, "printf 'save_default = yes\\nsave_default_on = "
                               "LABEL=SDBTRFS\\n' > /tmp/b.conf && "
                               "bootmenu --config /tmp/b.conf --save-default 1")
    finally:
        q.close()
    if rc == 0 or "btrfs filesystems are not written (ext4 and vfat are)" not in out:
        raise AssertionError("--save-default on btrfs: status %d:\n%s" % (rc, out[-1500:]))
    if sha256(img) != before:
        raise AssertionError("the btrfs image changed")
    os.unlink(img)


if __name__ == "__main__":
    ok = True
    if ONLY in ("", "uefi"):
        win = []
        ok &= check("e2e.powercut.uefi_clean_install", lambda: win.append(clean_install()))
        if win:
            ok &= check("e2e.powercut.uefi_install_x%d" % CUTS, lambda: uefi_cuts(win[0]))
    if ONLY in ("", "bios"):
        win = []
        ok &= check("e2e.powercut.bios_clean_install", lambda: win.append(bios_clean()))
        if win:
            ok &= check("e2e.powercut.bios_install_x%d" % CUTS, lambda: bios_cuts(win[0]))
    if ONLY in ("", "btrfs"):
        ok &= check("e2e.powercut.savedef_btrfs_refused_unchanged", btrfs_refused)
    sys.exit(0 if ok else 1)
