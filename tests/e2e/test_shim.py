#!/usr/bin/env python3
"""bootmenu behind shim, end to end (issue #39).

Debian's shim 16.1 (shim-unsigned) signed with the snakeoil key in place
of Microsoft's signature, under OVMF_CODE_4M.secboot.fd (q35, SMM) with a
copy of OVMF_VARS_4M.snakeoil.fd kept across the boots here
(images/shim.sh: build/shim-test/). bootmenu-sb.efi, with its .sbat
section, is shim's second stage \\EFI\\BOOT\\grubx64.efi, signed only with
a test Machine Owner Key that no firmware database holds.

0. The .sbat section of build/bootmenu-sb.efi, and of the signed second
   stage on the disk, is configs/sbat.csv byte for byte (its comments
   dropped, VERSION and Debian's linux-source-6.1 version put in), at a
   sound place in the image.
1. Without the MOK, shim refuses bootmenu ("Verification failed: (0x1A)
   Security Violation") and nothing of Linux starts from the first disk;
   the firmware then boots the second disk, bootmenu signed with the db
   key, whose rescue shell writes MokNew and MokAuth through efivarfs
   (the bytes `mokutil --import` writes: images/mok-request.py) and
   reads them back.
2. At the next boot shim starts MokManager for the request; over the
   serial console: a key within its countdown, "Enroll MOK", "Continue",
   "Yes", the password, "Reboot".
3. shim starts bootmenu: the kernel locks down, the title says "Secure
   Boot: on"; the rescue shell shows the request consumed, MokListRT
   there, and what the kernel's keyrings loaded (dmesg "Loaded X.509
   cert" lines: the MOK must be among the platform keyring's); the
   unsigned kernel gives the dialog and the menu stays; the kernel signed
   only with the MOK boots through kexec_file_load.
4. shim -> bootmenu -> Debian's signed kernel with Debian's initrd, to
   the test target's userspace (a SKIP when the disk has no Debian initrd:
   it is made only as root).
What the rescue shell showed of the keyrings, and what Debian's kernel
loaded after the kexec, is in BUILD/test-logs/shim-keyrings.txt.
Step 3 needs kernel/patches/0002-integrity-moklist-without-ima.patch in
our kernel: without IMA, load_uefi_certs() never reads MokListRT."""
import os
import re
import subprocess
import struct
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))
from qemu import Qemu, check, need  # noqa: E402
try:
    from qemu import Skip  # noqa: E402
except ImportError:  # a qemu.py without SKIP: a failure, with the reason
    Skip = AssertionError
from screen import ScreenGuest  # noqa: E402
import test_menu_faults as mf  # noqa: E402

B = os.path.abspath(sys.argv[1])
SRC = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
W = os.path.join(B, "shim-test")
DISK = os.path.join(W, "disk.img")
FALLBACK = os.path.join(W, "fallback.img")
SB_EFI = os.path.join(B, "bootmenu-sb.efi")
GRUBX64 = os.path.join(W, "esp", "EFI", "BOOT", "grubx64.efi")
LOGS = os.environ.get("TEST_LOGS") or os.path.join(B, "test-logs")
# the machine's variables, kept across its boots (not in LOGS, which a
# tests/run.sh starting meanwhile empties)
VARS = os.path.join(B, "e2e-shim", "OVMF_VARS.fd")
SHIM_GUID = "605dab50-e046-4300-abb6-3dd810dd8b23"
DOWN, ENTER = "\x1b[B", "\r"
MOK_SIGNED, UNSIGNED = "MOK-signed test kernel", "Unsigned test kernel"
LOCKED_LINE = r"Kernel is locked down from EFI Secure Boot"
REFUSED = r"Verification failed: \(0x1A\) Security Violation"
LINUX = r"EFI stub: |Linux version \d"
SHELL_PROMPT = r"rescue shell; exit returns to the menu"


def not_trusted(path):
    return (r"the kernel %s is not signed by a key this machine trusts: "
            r"under Secure Boot \(lockdown\) only a signed kernel boots" %
            re.escape(path))


class Guest(mf.Guest):
    """OVMF enforcing Secure Boot, the variables of this test's machine."""

    def __init__(self, name, disks):
        ScreenGuest.__init__(self, Qemu(B, name, uefi="secboot",
                                        disks=[need(d) for d in disks],
                                        extra=["-nic", "none"],
                                        vars_file=VARS))

    def shell(self, script, timeout=60):
        """Runs @script in the rescue shell (`s`), returns what it printed
        between the markers; the shell is left open."""
        self.q.send(script + "; echo SCRIPT-$((20+19))-END\n")
        m = self.q.expect(r"\n([\s\S]*)SCRIPT-39-END", timeout)
        return m.group(1)


# --- 0. the .sbat section

def expected_sbat():
    """configs/sbat.csv as the section must hold it, derived here on its
    own (not through scripts/pe-sbat.py)."""
    version = open(os.path.join(SRC, "VERSION")).read().strip()
    linux = subprocess.run(["dpkg-query", "-W", "-f=${Version}", "linux-source-6.1"],
                           check=True, capture_output=True, text=True).stdout
    lines = [ln for ln in open(os.path.join(SRC, "configs", "sbat.csv")).read().split("\n")
             if ln.strip() and not ln.startswith("#")]
    text = "\n".join(lines).replace("@VERSION@", version).replace(
        "@LINUX_VERSION@", linux) + "\n"
    return text.encode()


def sections(data):
    pe = struct.unpack_from("<I", data, 0x3c)[0]
    if data[pe:pe + 4] != b"PE\0\0":
        raise AssertionError("no PE header")
    n, opt_size = struct.unpack_from("<H", data, pe + 6)[0], \
        struct.unpack_from("<H", data, pe + 20)[0]
    opt = pe + 24
    salign, falign = struct.unpack_from("<II", data, opt + 32)
    size_of_image, = struct.unpack_from("<I", data, opt + 56)
    secdir = struct.unpack_from("<II", data, opt + 112 + 4 * 8)
    table = opt + opt_size
    out = []
    for i in range(n):
        name, vsize, va, rsize, rptr = struct.unpack_from("<8sIIII", data, table + 40 * i)
        out.append((name.rstrip(b"\0").decode(), vsize, va, rsize, rptr))
    return out, dict(salign=salign, falign=falign, image=size_of_image,
                     table_end=table + 40 * n, secdir=secdir)


def sbat_of(path, want):
    data = open(need(path), "rb").read()
    secs, h = sections(data)
    found = [s for s in secs if s[0] == ".sbat"]
    if len(found) != 1:
        raise AssertionError("%s: %d .sbat sections" % (path, len(found)))
    name, vsize, va, rsize, rptr = found[0]
    raw = data[rptr:rptr + rsize]
    if vsize != len(want) or raw[:vsize] != want or raw[vsize:].strip(b"\0"):
        raise AssertionError("%s: .sbat is %r, not %r" % (path, raw, want))
    # the bzImage's setup header starts at 0x1ef: the table must end before
    if h["table_end"] > 0x1ef or data[0x1fe:0x200] != b"\x55\xaa" or \
            data[0x202:0x206] != b"HdrS":
        raise AssertionError("%s: the section table (to %#x) ran into the "
                             "setup header" % (path, h["table_end"]))
    if rptr % h["falign"] or va % h["salign"] or va + vsize > h["image"]:
        raise AssertionError("%s: .sbat at file %#x, memory %#x, image %#x" %
                             (path, rptr, va, h["image"]))
    for s in secs:
        if s[0] != ".sbat" and (s[2] + s[1] > va or s[4] + s[3] > rptr):
            raise AssertionError("%s: %s overlaps .sbat" % (path, s[0]))
    if h["secdir"][1] and rptr + rsize > h["secdir"][0]:
        raise AssertionError("%s: .sbat runs into the signature" % path)


def sbat_section():
    want = expected_sbat()
    if not want.startswith(b"sbat,1,SBAT Version,sbat,1,https://github.com/"
                           b"rhboot/shim/blob/main/SBAT.md\nbootmenu,"):
        raise AssertionError("configs/sbat.csv does not start as SBAT.md says")
    sbat_of(SB_EFI, want)
    sbat_of(GRUBX64, want)
    # scripts/pe-sbat.py's own check agrees
    r = subprocess.run(["python3", os.path.join(SRC, "scripts", "pe-sbat.py"),
                        "show", SB_EFI], capture_output=True)
    if r.returncode or r.stdout != want:
        raise AssertionError("pe-sbat.py show: %r" % r.stdout)


# --- 1 to 4: the boots

def der(pem_path):
    return subprocess.run(["openssl", "x509", "-in", pem_path, "-outform", "DER"],
                          check=True, capture_output=True).stdout


def fresh_vars():
    os.makedirs(LOGS, exist_ok=True)
    os.makedirs(os.path.dirname(VARS), exist_ok=True)
    if os.path.exists(VARS):
        os.unlink(VARS)


def refused_then_request():
    """Boot 1: shim refuses bootmenu; the second disk's bootmenu (db
    signed) writes the MOK request."""
    g = Guest("shim-1-refused", [DISK, FALLBACK])
    try:
        m = g.q.expect(REFUSED + "|" + LINUX, 240)
        if not re.match(REFUSED, m.group(0)):
            raise AssertionError("Linux started before shim refused anything "
                                 "(shim started its second stage without the MOK)")
        refused_at = m.start()
        # shim's box waits for a key; then MokManager for the refused image
        # (its countdown runs out), shim tries once more, refuses again, and
        # gives up: the firmware boots the next disk
        g.keys(ENTER)
        g.q.expect(r"Press any key to perform MOK management", 120)
        g.q.expect(REFUSED, 120)
        g.keys(ENTER)
        m = g.q.expect(r"start_image\(\) returned Security Policy Violation", 60)
        if re.search(LINUX, g.q.output()[refused_at:m.start()]):
            raise AssertionError("Linux started from the shim disk")
        # the firmware's next boot option: the second disk (db-signed)
        m = g.q.expect(r'BdsDxe: starting Boot\d{4} "UEFI Misc Device 2"|' + LINUX, 120)
        if not m.group(0).startswith("BdsDxe"):
            raise AssertionError("Linux started before the firmware went on "
                                 "to the second disk")
        g.q.expect(LOCKED_LINE, 240)
        g.wait_screen(r"Secure Boot: on", 240)
        g.wait_screen(re.escape(MOK_SIGNED), 60)
        g.keys(DOWN)  # the countdown stops
        g.keys("s")
        g.q.expect(SHELL_PROMPT, 60)
        time.sleep(1)
        ev = "/sys/firmware/efi/efivars"
        out = g.shell(
            "dmesg -n 1; mkdir -p /tmp/fb && mount -t vfat -o ro /dev/vdb1 /tmp/fb"
            " && for v in MokNew MokAuth; do dd if=/tmp/fb/mok/$v-%s of=%s/$v-%s"
            " bs=4096 2>/dev/null; done; sha256sum /tmp/fb/mok/Mok*-%s %s/Mok*-%s"
            % (SHIM_GUID, ev, SHIM_GUID, SHIM_GUID, ev, SHIM_GUID))
        # each variable's sha256sum twice: the request's file, efivarfs's
        sums = {}
        for h, p in re.findall(r"([0-9a-f]{64})\s+(\S+)", out):
            sums.setdefault(os.path.basename(p), []).append(h)
        for v in ("MokNew", "MokAuth"):
            got = sums.get("%s-%s" % (v, SHIM_GUID), [])
            if len(got) != 2 or got[0] != got[1]:
                raise AssertionError("%s in efivarfs is not the request's:\n%s" % (v, out))
        g.q.send("sync; poweroff -f\n")
        g.q.wait_exit(60)
    finally:
        g.close()


def enrol_with_mokmanager():
    """Boot 2: MokManager enrols the request, driven over the serial line."""
    pw = open(need(os.path.join(W, "fallback", "mok", "password"))).read().strip()
    g = Guest("shim-2-mokmanager", [DISK])
    try:
        g.q.expect(r"Press any key to perform MOK management", 240)
        g.keys(ENTER)
        g.q.expect(r"Perform MOK management", 60)
        g.q.expect(r"Enroll MOK", 30)
        time.sleep(1)
        g.keys(DOWN)
        g.keys(ENTER)
        g.q.expect(r"\[Enroll MOK\]", 30)
        g.q.expect(r"View key 0", 30)
        time.sleep(1)
        g.keys(DOWN)
        g.keys(ENTER)
        g.q.expect(r"Enroll the key\(s\)\?", 30)
        time.sleep(1)
        g.keys(DOWN)
        g.keys(ENTER)
        g.q.expect(r"Password:", 30)
        time.sleep(1)
        for c in pw:
            g.q.send(c)
            time.sleep(0.1)
        g.keys(ENTER)
        m = g.q.expect(r"Reboot|Password doesn't match|Failed to enroll", 60)
        if m.group(0) != "Reboot":
            raise AssertionError("MokManager: " + m.group(0))
        time.sleep(1)
        g.keys(ENTER)
        g.q.wait_exit(60)  # the reset (QEMU runs with -no-reboot)
    finally:
        g.close()


KEYRINGS = os.path.join(LOGS, "shim-keyrings.txt")


def shim_starts_bootmenu():
    """Boot 3: shim -> bootmenu, locked down; keyrings; unsigned refused;
    the MOK-signed kernel boots."""
    g = Guest("shim-3-bootmenu", [DISK])
    try:
        m = g.q.expect(LOCKED_LINE + "|" + REFUSED, 240)
        if re.match(REFUSED, m.group(0)):
            raise AssertionError("shim refused bootmenu after the enrolment")
        g.wait_screen(r"Secure Boot: on", 240)
        g.wait_screen(re.escape(MOK_SIGNED), 60)
        g.keys(DOWN)  # the countdown stops
        g.keys("s")
        g.q.expect(SHELL_PROMPT, 60)
        time.sleep(1)
        out = g.shell(
            "dmesg -n 1; dmesg | grep -E 'X\\.509|[Kk]eyring|MOK|Mok|integrity:'; "
            "echo VARS:; ls /sys/firmware/efi/efivars | grep -E '^(Mok|Sbat|Shim)'; "
            "echo LOCKDOWN: $(cat /sys/kernel/security/lockdown); echo MOKLISTRT:; "
            "xxd -p /sys/firmware/efi/efivars/MokListRT-%s | tr -d '\\n'; "
            "echo; echo :MOKLISTRT" % SHIM_GUID)
        out = out.replace("\r", "")
        m = re.search(r"MOKLISTRT:\n([0-9a-f]*)\n:MOKLISTRT", out)
        moklist = bytes.fromhex(m.group(1)) if m else b""
        mok = open(os.path.join(W, "mok", "mok.der"), "rb").read()
        debian_ca = der(os.path.join(SRC, "kernel", "keys", "debian-uefi-ca.pem"))
        with open(KEYRINGS, "w") as f:
            f.write(out[:m.start() if m else len(out)])
            f.write("MokListRT: %d bytes; the test MOK in it: %s; Debian's CA "
                    "(shim's vendor certificate) in it: %s\n" % (
                        len(moklist), mok in moklist, debian_ca in moklist))
        if not re.search(r"LOCKDOWN: .*\[integrity\]", out):
            raise AssertionError("not locked down:\n" + out)
        names = re.findall(r"^(\w+)-%s" % SHIM_GUID, out, re.M)
        for v in ("MokNew", "MokAuth"):
            if v in names:
                raise AssertionError("%s is still there: not enrolled" % v)
        if mok not in moklist:
            raise AssertionError("MokListRT (%d bytes) does not hold the MOK:\n%s"
                                 % (len(moklist), out))
        if not re.search(r"integrity: Loading X\.509 certificate: UEFI:MokListRT", out):
            raise AssertionError("the kernel did not read MokListRT into the "
                                 "platform keyring:\n" + out)
        if not re.search(r"integrity: Loaded X\.509 cert 'bootmenu test MOK", out):
            raise AssertionError("the MOK is not in the platform keyring:\n" + out)
        g.q.send("exit\n")
        g.wait_screen(r"Enter boot  e edit", 60)
        g.select(UNSIGNED)
        g.dialog(mf.CANNOT, not_trusted("/k/unsigned"))
        g.select(MOK_SIGNED)
        g.boots("shim-mok")
        before = g.q.output().split("BOOTMENU-TARGET")[0]
        if "with kexec_file_load" not in before:
            raise AssertionError("bootmenu does not say it used kexec_file_load")
    finally:
        g.close()


DEBIAN_INITRD = os.path.join(W, "esp", "k", "debian-initrd.img")


def debian_kernel():
    """Boot 4: shim -> bootmenu -> Debian's signed kernel and initrd."""
    debv = open(os.path.join(B, "debkernel", "VERSION")).read().strip()
    g = Guest("shim-4-debian", [DISK])
    try:
        m = g.q.expect(LOCKED_LINE + "|" + REFUSED, 240)
        if re.match(REFUSED, m.group(0)):
            raise AssertionError("shim refused bootmenu (the MOK is gone?)")
        g.wait_screen(r"Secure Boot: on", 240)
        g.wait_screen(re.escape(MOK_SIGNED), 60)
        g.keys(DOWN)
        g.select("Debian signed kernel " + debv)
        g.keys(ENTER)
        g.q.expect(r"Linux version 6\.1\.\S+ .*Debian", 240)
        m = g.q.expect(r"BOOTMENU-TARGET: booted entry=(\S+) kernel=(\S+) "
                       r"efi=(\w+)", 300)
        if m.group(1) != "shim-debian" or not m.group(2).endswith("-amd64"):
            raise AssertionError("booted " + m.group(0))
        # for the record: what Debian's kernel, started by kexec, loaded
        debian = g.q.output().split("kexec_core: Starting new kernel")[-1]
        with open(KEYRINGS, "a") as f:
            f.write("\nDebian's kernel, after kexec:\n" + "".join(
                re.findall(r".*(?:X\.509|MOKvar|locked down).*\n", debian)).replace("\r", ""))
    finally:
        g.close()


def raiser(e):
    def fn():
        raise e
    return fn


if __name__ == "__main__":
    only = sys.argv[2] if len(sys.argv) > 2 else ""
    ok = True
    if only in "sbat":
        ok &= check("e2e.shim.sbat_section_is_configs_sbat_csv", sbat_section)
    if only in "boots":
        # one machine, booted four times: a step that fails leaves the
        # later ones "not reached"
        names = [("refused_without_mok_then_request_written", refused_then_request),
                 ("mokmanager_enrols_the_mok", enrol_with_mokmanager),
                 ("shim_starts_bootmenu_mok_kernel_boots", shim_starts_bootmenu),
                 ("debian_signed_kernel_boots", debian_kernel)]
        try:
            need(DISK)
            need(FALLBACK)
            fresh_vars()
            why = None
        except Exception as e:  # not built: each case says so (a SKIP)
            why = e
        broken = None
        for n, fn in names:
            if why:
                fn = raiser(why)
            elif broken:
                fn = raiser(AssertionError("not reached: %s failed" % broken))
            elif fn is debian_kernel and not os.path.exists(DEBIAN_INITRD):
                fn = raiser(Skip("no Debian initrd on the shim disk (made "
                                 "only as root: scripts/debian-kernel.sh)"))
            if not check("e2e.shim." + n, fn):
                ok = False
                broken = broken or n
    sys.exit(0 if ok else 1)
