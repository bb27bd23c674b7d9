#!/usr/bin/env python3
"""kexload boots a target kernel from our tiny kernel, in QEMU.

Our kernel boots with build/initramfs.cpio.gz (plus a small cpio carrying
the freshly built build/target/kexload) and `bootmenu.shell`. On the shell
we mount a disk holding the target kernels, the target initrd and a
payload cpio, run `kexload -l ... --initrd target-initrd.cpio.gz --initrd
payload.cpio --append "... marker=..."` and `kexload -e`. The target
(tests/target/testinit.c) prints its /proc/cmdline and a CRC-32 of every
file under /payload: both must match. Through kexec_load (-c), with the
purgatory's SHA-256 check (--sha256), through kexec_file_load (-s),
through the automatic choice with kexec_load failing
EPERM (BOOTMENU_KEXEC_FAULT), for our kernel (bzImage, ELF vmlinux and
the vmlinux gzip-compressed) and Debian's, under OVMF, a panic kernel
loaded into a crashkernel= reservation and one booted by a real panic,
and refusals in a real kernel (nothing left loaded after a failure; the
half-of-memory rule).

Debian's kernel also boots with Debian's own initrd (initramfs-tools, made
by scripts/debian-kernel.sh): the disk is its root too (root=/dev/vda,
/sbin/init is the test target), so the target only prints its marker when
Debian's initrd loaded virtio_blk and ext4 (modules in Debian's kernel),
mounted the disk and ran its init. Through both syscalls, BIOS and OVMF.
"""
import os
import random
import re
import subprocess
import sys
import zlib

sys.path.insert(0, os.path.dirname(__file__))
from qemu import Qemu, check, need  # noqa: E402

B = os.path.abspath(sys.argv[1])
W = os.path.join(B, "test-kexec")
KERNEL = os.path.join(B, "kernel", "bzImage")
DEBKERNEL = os.path.join(B, "debkernel", "vmlinuz")
VMLINUX = os.path.join(B, "kernel", "obj", "vmlinux")  # the ELF kernel
INITRAMFS = os.path.join(B, "initramfs.cpio.gz")
TARGET_INITRD = os.path.join(B, "target-initrd.cpio.gz")
KEXLOAD = os.path.join(B, "target", "kexload")
# the fault build (kexec calls from tests/double/): BOOTMENU_KEXEC_FAULT
# works only in it, as /bin/kexload-fault beside the real one
KEXLOAD_FAULT = os.path.join(B, "target", "kexload-fault")
TESTINIT = os.path.join(B, "target", "testinit")
DEBINITRD = os.path.join(B, "debkernel", "initrd.img")


def cpio_newc(entries):
    """entries: (name, mode, data or None for a directory) -> bytes."""
    out = b""
    ino = 1000
    for name, mode, data in entries + [("TRAILER!!!", 0, b"")]:
        data = data or b""
        nm = name.encode() + b"\0"
        hdr = "070701" + "".join("%08X" % v for v in (
            ino, mode, 0, 0, 1, 0, len(data), 0, 0, 0, 0, len(nm), 0))
        out += hdr.encode() + nm
        out += b"\0" * (-len(out) % 4)
        out += data
        out += b"\0" * (-len(out) % 4)
        ino += 1
    return out


def prepare():
    os.makedirs(W, exist_ok=True)
    rnd = random.Random(3)
    payload = bytes(rnd.getrandbits(8) for _ in range(300 * 1024))
    crc = "%08x" % (zlib.crc32(payload) & 0xffffffff)
    stage = os.path.join(W, "disk")
    os.makedirs(stage, exist_ok=True)
    with open(os.path.join(stage, "payload.cpio"), "wb") as f:
        f.write(cpio_newc([("payload", 0o40755, None),
                           ("payload/blob.bin", 0o100644, payload)]))
    for sub in ("sbin", "dev", "proc", "sys", "run"):
        os.makedirs(os.path.join(stage, sub), exist_ok=True)
    for src, dst in ((need(KERNEL), "bzImage"), (need(DEBKERNEL), "vmlinuz"),
                     (need(TARGET_INITRD), "target-initrd.cpio.gz"),
                     (need(DEBINITRD), "debian-initrd.img"),
                     (need(TESTINIT), "sbin/init")):
        with open(src, "rb") as s, open(os.path.join(stage, dst), "wb") as d:
            d.write(s.read())
    os.chmod(os.path.join(stage, "sbin", "init"), 0o755)
    if os.path.exists(VMLINUX):
        with open(VMLINUX, "rb") as s, open(os.path.join(stage, "vmlinux"),
                                             "wb") as d:
            d.write(s.read())
        # the same ELF kernel compressed as a whole, as gzip writes it
        with open(os.path.join(stage, "vmlinux.gz"), "wb") as d:
            subprocess.run(["gzip", "-n", "-c", VMLINUX], stdout=d,
                           check=True)
    disk = os.path.join(W, "disk.img")
    if os.path.exists(disk):
        os.unlink(disk)
    subprocess.run(["mke2fs", "-q", "-F", "-t", "ext4", "-d", stage, disk,
                    "256M"], check=True)
    # the initramfs, then our kexload over its /bin/kexload
    with open(need(KEXLOAD), "rb") as f, open(need(KEXLOAD_FAULT), "rb") as g:
        extra = cpio_newc([("bin/kexload", 0o100755, f.read()),
                           ("bin/kexload-fault", 0o100755, g.read())])
    initrd = os.path.join(W, "initrd.cpio")
    with open(need(INITRAMFS), "rb") as f:
        base = f.read()
    with open(initrd, "wb") as f:
        f.write(base + b"\0" * (-len(base) % 4) + extra)
    return disk, initrd, crc


DISK, INITRD, CRC = prepare()


def kexec_once(name, target, flags, env="", uefi=False, want_efi=None):
    marker = "m%d" % random.randrange(10**6, 10**7)
    q = Qemu(B, "kexec-" + name, kernel=KERNEL, append="bootmenu.shell",
             initrd=INITRD, disks=[DISK], uefi=uefi, mem=1024)
    try:
        q.expect(r"rescue shell", 120)
        # no_timer_check: under TCG on a loaded machine the IO-APIC timer
        # check can fail and panic the target (images/demo.sh says so too)
        append = ("console=ttyS0 no_timer_check target.poweroff marker=" +
                  marker)
        prog = "kexload-fault" if "BOOTMENU_KEXEC_FAULT" in env else "kexload"
        q.send("mount -t ext4 -o ro /dev/vda /mnt && cd /mnt && "
               "%s %s %s -l %s --initrd target-initrd.cpio.gz "
               "--initrd payload.cpio --append '%s' && kexload -e\n"
               % (env, prog, flags, target, append))
        m = q.expect(r"kexload: (loaded \S+ with (\S+)|.*)\r?\n", 120)
        if not m.group(2):
            raise AssertionError("kexload failed: " + m.group(0).strip())
        syscall = m.group(2)
        t0 = q.elapsed()
        m = q.expect(r"BOOTMENU-TARGET: booted entry=\S+ kernel=(\S+) "
                     r"efi=(\w+)", 240)
        print("  note: %s: %.1fs from the load to the target's init"
              % (name, q.elapsed() - t0))
        efi = m.group(2)
        m = q.expect(r"BOOTMENU-TARGET: cmdline=(.*?)\r?\n", 30)
        if not m.group(1).endswith(append):
            raise AssertionError("cmdline %r does not end with %r"
                                 % (m.group(1), append))
        m = q.expect(r"BOOTMENU-TARGET: payload blob.bin bytes=(\d+) "
                     r"crc32=([0-9a-f]+)", 30)
        if m.group(1) != str(300 * 1024) or m.group(2) != CRC:
            raise AssertionError("payload %s/%s, want %d/%s" % (
                m.group(1), m.group(2), 300 * 1024, CRC))
        q.expect(r"BOOTMENU-TARGET: done", 30)
        q.wait_exit(60)
        if want_efi is not None and efi != want_efi:
            raise AssertionError("target efi=%s, want %s" % (efi, want_efi))
        return syscall
    finally:
        q.close()


def expect_syscall(name, target, flags, want, env="", uefi=False,
                   want_efi=None):
    def run():
        got = kexec_once(name, target, flags, env, uefi, want_efi)
        if got != want:
            raise AssertionError("loaded with %s, want %s" % (got, want))
    return run


def debian_initrd(name, flags, want, uefi):
    """Debian's kernel + Debian's initrd, root=/dev/vda, marker on the
    command line; the target must be the disk's /sbin/init."""
    def run():
        marker = "m%d" % random.randrange(10**6, 10**7)
        q = Qemu(B, "kexec-" + name, kernel=KERNEL, append="bootmenu.shell",
                 initrd=INITRD, disks=[DISK], uefi=uefi, mem=1024)
        try:
            q.expect(r"rescue shell", 120)
            append = ("console=ttyS0 no_timer_check root=/dev/vda ro "
                      "target.poweroff marker=" + marker)
            q.send("mount -t ext4 -o ro /dev/vda /mnt && cd /mnt && "
                   "kexload %s -l vmlinuz --initrd debian-initrd.img "
                   "--append '%s' && cd / && umount /mnt && kexload -e\n"
                   % (flags, append))
            m = q.expect(r"kexload: (loaded \S+ with (\S+)|.*)\r?\n", 120)
            if m.group(2) != want:
                raise AssertionError("kexload: " + m.group(0).strip())
            t0 = q.elapsed()
            q.expect(r"Linux version 6\.1\.\S+ .*Debian", 120)
            # Debian's initrd at work: its init, its modules, the root mount
            q.expect(r"Loading, please wait", 240)
            q.expect(r"virtio_blk virtio\d+: \[vda\]", 240)
            q.expect(r"EXT4-fs \(vda\): mounted filesystem", 240)
            m = q.expect(r"BOOTMENU-TARGET: booted entry=\S+ kernel=(\S+) "
                         r"efi=(\w+)", 240)
            print("  note: %s: %.1fs from the load to the target's init"
                  % (name, q.elapsed() - t0))
            if not m.group(1).endswith("-amd64"):
                raise AssertionError("target kernel " + m.group(1))
            if m.group(2) != ("yes" if uefi else "no"):
                raise AssertionError("target efi=" + m.group(2))
            m = q.expect(r"BOOTMENU-TARGET: cmdline=(.*?)\r?\n", 30)
            if not m.group(1).endswith(append):
                raise AssertionError("cmdline %r does not end with %r"
                                     % (m.group(1), append))
            q.expect(r"BOOTMENU-TARGET: done", 30)
            q.wait_exit(60)
        finally:
            q.close()
    return run


def refusals_in_a_real_kernel():
    """In our kernel at -m 160: a failed load leaves nothing loaded, not
    even the kernel loaded before it; Debian's kernel (init_size 64 MiB)
    with Debian's initrd through kexec_file_load is more than half of
    MemTotal, which kexec refuses: kexload says so before the syscall;
    through kexec_load (the kernel segment is the file's 8 MiB) it loads."""
    q = Qemu(B, "kexec-refusals", kernel=KERNEL, append="bootmenu.shell",
             initrd=INITRD, disks=[DISK], mem=160)
    try:
        q.expect(r"rescue shell", 120)
        q.send("mount -t ext4 -o ro /dev/vda /mnt && cd /mnt && "
               "kexload -c -l bzImage --initrd target-initrd.cpio.gz; "
               "echo LOADED=$(cat /sys/kernel/kexec_loaded)\n")
        q.expect(r"kexload: loaded bzImage with kexec_load", 60)
        q.expect(r"LOADED=1", 30)
        q.send("BOOTMENU_KEXEC_FAULT=load:ENOMEM kexload-fault -c -l bzImage; "
               "echo RC=$? LOADED=$(cat /sys/kernel/kexec_loaded)\n")
        q.expect(r"kexload: bzImage: kexec_load failed: the running kernel "
                 r"is out of memory for the segments \(ENOMEM\)", 60)
        q.expect(r"RC=1 LOADED=0", 30)
        q.send("kexload -s -l vmlinuz --initrd debian-initrd.img; "
               "echo RC=$? LOADED=$(cat /sys/kernel/kexec_loaded)\n")
        m = q.expect(r"kexload: vmlinuz: (.*?)\r?\n", 60)
        if not re.match(r"the new kernel needs \d+ MiB to load \(the "
                        r"kernel 64 MiB with its init_size room, the initrd "
                        r"\d+ MiB\), more than half of the running kernel's "
                        r"\d+ MiB \(MemTotal\)", m.group(1)):
            raise AssertionError("-s: " + m.group(1))
        q.expect(r"RC=1 LOADED=0", 30)
        # kexec_load's kernel segment is the file (8 MiB), not init_size
        q.send("kexload -c -l vmlinuz --initrd debian-initrd.img; "
               "echo RC=$? LOADED=$(cat /sys/kernel/kexec_loaded)\n")
        q.expect(r"kexload: loaded vmlinuz with kexec_load", 60)
        q.expect(r"RC=0 LOADED=1", 30)
    finally:
        q.close()


def panic_kernel_loads():
    q = Qemu(B, "kexec-panic", kernel=KERNEL,
             append="bootmenu.shell crashkernel=160M", initrd=INITRD,
             disks=[DISK], mem=1024)
    try:
        q.expect(r"rescue shell", 120)
        q.send("mount -t ext4 -o ro /dev/vda /mnt && cd /mnt && "
               "grep -i 'crash kernel' /proc/iomem; kexload -c -p bzImage "
               "--initrd target-initrd.cpio.gz --append 'console=ttyS0'; "
               "echo CRASH-LOADED=$(cat /sys/kernel/kexec_crash_loaded); "
               "kexload -u -p; echo CRASH-AFTER=$(cat "
               "/sys/kernel/kexec_crash_loaded)\n")
        m = q.expect(r"([0-9a-f]+)-([0-9a-f]+) : Crash kernel", 60)
        lo, hi = int(m.group(1), 16), int(m.group(2), 16)
        q.expect(r"kexload: loaded bzImage as the panic kernel with "
                 r"kexec_load", 60)
        q.expect(r"CRASH-LOADED=1", 30)
        q.expect(r"CRASH-AFTER=0", 30)
        if hi - lo + 1 != 160 << 20:
            raise AssertionError("reservation %x-%x" % (lo, hi))
    finally:
        q.close()


def panic_kernel_boots():
    """A panic really boots the panic kernel: our kernel with crashkernel=
    and busybox's sh as PID 1 (rdinit=/bin/sh) loads a target with -p,
    then PID 1 exits, the kernel panics ("Attempted to kill init") and
    crash_kexec() starts the target, which prints its marker."""
    marker = "m%d" % random.randrange(10**6, 10**7)
    q = Qemu(B, "kexec-panic-boots", kernel=KERNEL,
             append="rdinit=/bin/sh crashkernel=160M console=ttyS0",
             initrd=INITRD, disks=[DISK], mem=1024)
    try:
        q.expect(r"Run /bin/sh as init process", 120)
        # no_timer_check: under TCG on a loaded machine the IO-APIC timer
        # check can fail and panic the target (images/demo.sh says so too)
        append = ("console=ttyS0 no_timer_check target.poweroff marker=" +
                  marker)
        q.send("mount -t proc proc /proc; mount -t sysfs sys /sys; "
               "mount -t devtmpfs dev /dev; mount -t ext4 -o ro /dev/vda "
               "/mnt && kexload -p -l /mnt/bzImage --initrd "
               "/mnt/target-initrd.cpio.gz --append '%s' && echo "
               "CRASH-LOADED=$(cat /sys/kernel/kexec_crash_loaded)\n"
               % append)
        q.expect(r"kexload: loaded /mnt/bzImage as the panic kernel with "
                 r"kexec_load", 60)
        q.expect(r"CRASH-LOADED=1", 30)
        q.send("umount /mnt; exit\n")
        q.expect(r"Kernel panic - not syncing: Attempted to kill init", 60)
        t0 = q.elapsed()
        # the panic kernel's RAM: the reservation and the low 640 KiB only
        m = q.expect(r"Memory: \d+K/(\d+)K available", 120)
        if int(m.group(1)) > 160 * 1024 + 640:
            raise AssertionError("the panic kernel saw %sK" % m.group(1))
        q.expect(r"BOOTMENU-TARGET: booted entry=\S+ kernel=\S+ efi=no", 120)
        print("  note: panic_kernel_boots: %.1fs from the panic to the "
              "target's init" % (q.elapsed() - t0))
        m = q.expect(r"BOOTMENU-TARGET: cmdline=(.*?)\r?\n", 30)
        if not m.group(1).endswith(append):
            raise AssertionError("cmdline %r does not end with %r"
                                 % (m.group(1), append))
        q.expect(r"BOOTMENU-TARGET: done", 30)
        q.wait_exit(60)
    finally:
        q.close()


ok = True
only = os.environ.get("KEXEC_TESTS", "")
cases = [
    ("tiny_load", "bzImage", "-c", "kexec_load", "", False, "no"),
    ("tiny_file", "bzImage", "-s", "kexec_file_load", "", False, "no"),
    ("debian_load", "vmlinuz", "-c", "kexec_load", "", False, "no"),
    ("elf_vmlinux_load", "vmlinux", "-c", "kexec_load", "", False, "no"),
    ("elf_vmlinux_gz_load", "vmlinux.gz", "-c", "kexec_load", "", False,
     "no"),
    ("tiny_load_sha256", "bzImage", "-c --sha256", "kexec_load", "", False,
     "no"),
    ("tiny_auto_eperm_falls_back", "bzImage", "", "kexec_file_load",
     "BOOTMENU_KEXEC_FAULT=load:EPERM", False, None),
    ("uefi_tiny_load", "bzImage", "-c", "kexec_load", "", True, "yes"),
    ("uefi_debian_load", "vmlinuz", "-c", "kexec_load", "", True, "yes"),
]
# Debian's kernel with Debian's initrd (these replace the test-initrd runs
# of Debian's kernel through kexec_file_load)
debian_cases = [
    ("debian_initrd_load", "-c", "kexec_load", False),
    ("debian_initrd_file", "-s", "kexec_file_load", False),
    ("uefi_debian_initrd_load", "-c", "kexec_load", True),
    ("uefi_debian_initrd_file", "-s", "kexec_file_load", True),
]
for c in cases:
    if only and c[0] not in only.split(","):
        continue
    if c[1].startswith("vmlinux") and not os.path.exists(VMLINUX):
        print("SKIP e2e.kexec.%s: %s absent (run make)" % (c[0], VMLINUX))
        continue
    ok &= check("e2e.kexec." + c[0], expect_syscall(c[0], *c[1:]))
for c in debian_cases:
    if not only or c[0] in only.split(","):
        ok &= check("e2e.kexec." + c[0], debian_initrd(*c))
if not only or "refusals" in only.split(","):
    ok &= check("e2e.kexec.refusals_in_a_real_kernel", refusals_in_a_real_kernel)
if not only or "panic" in only.split(","):
    ok &= check("e2e.kexec.panic_kernel_loads", panic_kernel_loads)
if not only or "panic_boots" in only.split(","):
    ok &= check("e2e.kexec.panic_kernel_boots", panic_kernel_boots)
sys.exit(0 if ok else 1)
