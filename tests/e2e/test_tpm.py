#!/usr/bin/env python3
"""Measured boot (issue #40): what bootmenu boots is measured into a TPM
2.0 (swtpm on QEMU's tpm-tis), under SeaBIOS and OVMF.

Each boot goes through the rescue shell: the PCRs are read from sysfs
before anything is booted, `bootmenu --list --json` says what it will
measure, then `bootmenu --boot N` boots the entry, and the target
(tests/target/testinit.c) prints its PCRs 8, 9, 11, 12 in every bank and
the event log bootmenu handed on. The test computes the values itself
from the files and the command line (GRUB's forms for PCRs 8 and 9,
systemd-stub's for PCR 12, `systemd-measure calculate` for a UKI's PCR
11, and a PCR 11 policy signed by `systemd-measure sign` that it must
meet), checks the target reads them, that --list --json predicted them,
and that the log replays to them (our reading, and tpm2_eventlog's)."""
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import struct
import tempfile
import time

sys.path.insert(0, os.path.dirname(__file__))
from qemu import Qemu, Skip, check, need  # noqa: E402

B = os.path.abspath(sys.argv[1])
EFI = os.path.join(B, "bootmenu.efi")
DEMO = os.path.join(B, "demo.img")
KERNEL = os.path.join(B, "kernel", "bzImage")
INITRD = os.path.join(B, "target-initrd.cpio.gz")
BANKS = ("sha1", "sha256", "sha384", "sha512")
# the target kernel's built-in command line, put before what it is passed
BUILTIN = "console=tty0 console=ttyS0,115200 "
CON = "console=tty0 console=ttyS0,115200 no_timer_check"
STUB = "/usr/lib/systemd/boot/efi/linuxx64.efi.stub"
MEASURE = "/usr/lib/systemd/systemd-measure"


def H(bank, data):
    return hashlib.new(bank, data).digest()


def extend(bank, pcr, digest):
    return H(bank, pcr + digest)


def replay(bank, start, datas):
    v = start
    for d in datas:
        v = extend(bank, v, H(bank, d))
    return v


def systemd_cmdline(line):
    """systemd-stub 252's PCR 12 bytes for load options @line: control
    characters become spaces, trailing spaces go, UTF-16LE with NUL."""
    s = "".join(" " if ord(c) <= 0x1f else c for c in line).rstrip(" ")
    return s.encode("utf-16-le") + b"\0\0"


def read_target(q):
    """The target's PCRs {bank: {pcr: bytes}} and the log it was handed."""
    q.expect(r"BOOTMENU-TARGET: done", 240)
    out = q.output()
    pcrs = {}
    for b, n, v in re.findall(r"BOOTMENU-TARGET: pcr (\w+) (\d+)=([0-9A-Fa-f]+)", out):
        pcrs.setdefault(b, {})[int(n)] = bytes.fromhex(v)
    log = bytes.fromhex("".join(re.findall(r"BOOTMENU-TARGET: tpmlog ([0-9a-f]+)\r?\n", out)))
    m = re.search(r"BOOTMENU-TARGET: tpmlog end (\d+)", out)
    if not m or int(m.group(1)) != len(log):
        raise AssertionError("the target saw no whole event log: " + q.tail(600))
    cmdline = re.search(r"BOOTMENU-TARGET: cmdline=([^\r\n]*)", out).group(1)
    if not cmdline.startswith(BUILTIN):
        raise AssertionError("unexpected command line " + cmdline)
    return pcrs, log, cmdline[len(BUILTIN):]


def shell_pcrs(q, tag):
    """PCRs 8, 9, 11, 12 of every bank, read in the rescue shell."""
    q.send("for b in %s; do for p in 8 9 11 12; do echo %s $b $p=$(cat "
           "/sys/class/tpm/tpm0/pcr-$b/$p); done; done; echo %s-$((6*7))-DONE\n"
           % (" ".join(BANKS), tag, tag))
    # (the typed line echoes too: wait for what only the shell prints)
    q.expect(tag + "-42-DONE", 30)
    got = {}
    for b, n, v in re.findall(tag + r" (\w+) (\d+)=([0-9A-Fa-f]+)", q.output()):
        got.setdefault(b, {})[int(n)] = bytes.fromhex(v)
    if set(got) != set(BANKS):
        raise AssertionError("the TPM's banks in sysfs: %s" % sorted(got))
    return got


def list_json(q):
    q.send("bootmenu --list --json > /tmp/l.json 2>/tmp/l.err; echo LIST=$?; "
           "cat /tmp/l.json; echo; echo JSON-END-$((6*7))\n")
    text = q.expect(r"(?s)LIST=0\r?\n(.*?)\r?\nJSON-END-42", 300).group(1)
    return json.loads(text)


def entry_index(doc, title):
    for i, e in enumerate(doc["entries"]):
        if e.get("title") == title:
            return i, e  # --boot counts from 0, as --list numbers
    raise AssertionError("no entry %r in %s" % (title, [e.get("title") for e in doc["entries"]]))


def check_boot(q, title, files, uki=None):
    """From the rescue shell: PCRs before, --list --json, boot @title;
    then compare. @files: the bytes measured into PCR 9, in order."""
    q.expect(r"rescue shell", 120)
    before = shell_pcrs(q, "BEFORE")
    doc = list_json(q)
    n, entry = entry_index(doc, title)
    if "tpm" not in entry:
        raise AssertionError("--list --json has no tpm for %r: %s" % (title, entry))
    q.send("bootmenu --boot %d\n" % n)
    pcrs, log, passed = read_target(q)
    want = {}
    for b in BANKS:
        want[b] = {
            9: replay(b, before[b][9], files),
            8: replay(b, before[b][8], [passed.encode()]),
        }
        if uki is None:
            want[b][12] = replay(b, before[b][12], [systemd_cmdline(passed)])
        else:
            want[b][12] = before[b][12]
            want[b][11] = uki[b]
        for p, v in want[b].items():
            if pcrs[b][p] != v:
                raise AssertionError("PCR %d %s: target read %s, expected %s"
                                     % (p, b, pcrs[b][p].hex(), v.hex()))
            # what bootmenu extends it predicted beforehand
            if p in ((8, 9, 11) if uki else (8, 9, 12)):
                said = entry["tpm"]["pcrs"].get(b, {}).get(str(p))
                if said != v.hex():
                    raise AssertionError("--list --json predicted PCR %d %s=%s, the target read %s"
                                         % (p, b, said, v.hex()))
    check_log(log, before, pcrs)


def check_log(log, before, pcrs):
    """The handed-on log replays to the PCRs: each PCR it touches, from
    its value before bootmenu, extended by the log's events."""
    with tempfile.NamedTemporaryFile(suffix=".bin", delete=False) as f:
        f.write(log)
        path = f.name
    try:
        if not shutil.which("tpm2_eventlog"):
            raise Skip("tpm2_eventlog is not installed (Debian's tpm2-tools)")
        out = subprocess.run(["tpm2_eventlog", path], capture_output=True,
                             text=True, timeout=60)
    finally:
        os.unlink(path)
    if out.returncode:
        raise AssertionError("tpm2_eventlog refused the log: " + out.stderr[-400:])
    digests = {}  # bank -> pcr -> [digest]
    ev_pcr = None
    for line in out.stdout.splitlines():
        m = re.match(r"\s*PCRIndex: (\d+)", line)
        if m:
            ev_pcr = int(m.group(1))
        m = re.match(r"\s*- AlgorithmId: (\w+)", line)
        if m:
            alg = m.group(1)
        m = re.match(r"\s*Digest: \"([0-9a-f]+)\"", line)
        if m and ev_pcr is not None and ev_pcr != 0:
            digests.setdefault(alg, {}).setdefault(ev_pcr, []).append(bytes.fromhex(m.group(1)))
    if not digests:
        raise AssertionError("tpm2_eventlog found no events: " + out.stdout[:400])
    for b, per in digests.items():
        for p, ds in per.items():
            v = before[b][p]
            for d in ds:
                v = extend(b, v, d)
            if v != pcrs[b][p]:
                raise AssertionError("the log replays PCR %d %s to %s, the TPM holds %s"
                                     % (p, b, v.hex(), pcrs[b][p].hex()))


def demo_files():
    with open(need(KERNEL), "rb") as k, open(need(INITRD), "rb") as i:
        return [k.read(), i.read()]


def bios_bls():
    q = Qemu(B, "tpm-bios-bls", kernel=need(EFI), append="bootmenu.shell",
             disks=[need(DEMO)], tpm=True)
    try:
        check_boot(q, "Demo BLS (bootmenu kernel)", demo_files())
    finally:
        q.close()


def bios_grub():
    q = Qemu(B, "tpm-bios-grub", kernel=need(EFI), append="bootmenu.shell",
             disks=[need(DEMO)], tpm=True)
    try:
        check_boot(q, "Debian GNU/Linux, with Linux 6.1.192-bootmenu", demo_files())
    finally:
        q.close()


def ovmf_bls():
    q = Qemu(B, "tpm-ovmf-bls", kernel=need(EFI), append="bootmenu.shell",
             disks=[need(DEMO)], uefi=True, tpm=True)
    try:
        check_boot(q, "Demo BLS (bootmenu kernel)", demo_files())
    finally:
        q.close()


def make_uki(work):
    """A UKI of our kernel and the target's initrd on a FAT disk, as
    systemd 252's documentation builds one; PCR 11 as systemd-measure
    predicts it."""
    for p in (STUB, MEASURE):
        if not os.path.exists(p):
            raise Skip("missing %s (Debian's systemd-boot-efi, systemd)" % p)
    osrel = os.path.join(work, "os-release")
    cmdline = os.path.join(work, "cmdline")
    with open(osrel, "w") as f:
        f.write('NAME="bootmenu UKI"\nID=bootmenu-uki\nPRETTY_NAME="Demo UKI"\n')
    with open(cmdline, "w") as f:
        f.write(CON + " demo.entry=uki\n")
    uki = os.path.join(work, "demo-uki.efi")
    subprocess.run(["objcopy",
                    "--add-section", ".osrel=" + osrel, "--change-section-vma", ".osrel=0x20000",
                    "--add-section", ".cmdline=" + cmdline, "--change-section-vma", ".cmdline=0x30000",
                    "--add-section", ".linux=" + KERNEL, "--change-section-vma", ".linux=0x2000000",
                    "--add-section", ".initrd=" + INITRD, "--change-section-vma", ".initrd=0x3000000",
                    STUB, uki], check=True)
    pcr11 = {}
    for b in BANKS:
        out = subprocess.run([MEASURE, "calculate", "--linux=" + KERNEL, "--osrel=" + osrel,
                              "--cmdline=" + cmdline, "--initrd=" + INITRD, "--bank=" + b,
                              "--phase="], capture_output=True, text=True, check=True).stdout
        m = re.search(r"11:%s=([0-9a-f]+)" % b, out)
        if not m:
            raise AssertionError("systemd-measure said: " + out)
        pcr11[b] = bytes.fromhex(m.group(1))
    disk = os.path.join(work, "uki.img")
    subprocess.run(["mkfs.vfat", "-C", "-n", "UKIESP", disk, str(16 * 1024)],
                   check=True, stdout=subprocess.DEVNULL)
    env = dict(os.environ, MTOOLS_SKIP_CHECK="1")
    subprocess.run(["mmd", "-i", disk, "::/EFI", "::/EFI/Linux"], check=True, env=env)
    subprocess.run(["mcopy", "-i", disk, uki, "::/EFI/Linux/demo-uki.efi"], check=True, env=env)
    with open(uki, "rb") as f:
        return disk, f.read(), pcr11


def signed_policy(work, osrel, cmdline):
    """`systemd-measure sign` of the UKI's sections with a test key (the
    TPM it needs for the policy digests: a swtpm of the test's own), as
    a distribution signs a PCR 11 policy: the first entry's "pol", the
    phase "enter-initrd" of SHA-256."""
    state = os.path.join(work, "swtpm")
    os.makedirs(state)
    sock = os.path.join(state, "sock")
    key, pub = os.path.join(work, "pcr.key"), os.path.join(work, "pcr.pub")
    subprocess.run(["openssl", "genpkey", "-algorithm", "RSA", "-pkeyopt",
                    "rsa_keygen_bits:2048", "-out", key], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    subprocess.run(["openssl", "rsa", "-in", key, "-pubout", "-out", pub],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    tpm = subprocess.Popen(["swtpm", "socket", "--tpm2", "--tpmstate", "dir=" + state,
                            "--server", "type=unixio,path=" + sock,
                            "--ctrl", "type=unixio,path=" + sock + ".ctrl",
                            "--flags", "startup-clear"],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(100):
            if os.path.exists(sock) and os.path.exists(sock + ".ctrl"):
                break
            time.sleep(0.05)
        out = subprocess.run([MEASURE, "sign", "--linux=" + KERNEL, "--osrel=" + osrel,
                              "--cmdline=" + cmdline, "--initrd=" + INITRD,
                              "--bank=sha256", "--private-key=" + key,
                              "--public-key=" + pub, "--tpm2-device=swtpm:path=" + sock],
                             capture_output=True, text=True, timeout=120)
    finally:
        tpm.kill()
        tpm.wait()
    if out.returncode:
        raise AssertionError("systemd-measure sign: " + out.stderr[-400:])
    return bytes.fromhex(json.loads(out.stdout)["sha256"][0]["pol"])


def policy_pcr11(pcr11):
    """TPM 2.0 Part 3, PolicyPCR over PCR 11 of SHA-256, from an empty
    policy: H(0^32 || TPM_CC_PolicyPCR || TPML_PCR_SELECTION || H(PCR))."""
    sel = struct.pack(">IHB", 1, 0x000B, 3) + bytes([0, 0x08, 0])
    return H("sha256", b"\0" * 32 + struct.pack(">I", 0x17F) + sel + H("sha256", pcr11))


def bios_uki():
    work = tempfile.mkdtemp(prefix="tpm-uki.", dir=B)
    try:
        disk, uki, pcr11 = make_uki(work)
        q = Qemu(B, "tpm-bios-uki", kernel=need(EFI), append="bootmenu.shell",
                 disks=[disk], tpm=True)
        try:
            # PCR 9 holds the UKI file as read; its own .cmdline is used,
            # so PCR 12 is left alone and PCR 11 is the stub's
            check_boot(q, "Demo UKI", [uki], uki=pcr11)
        finally:
            q.close()
        # the target read pcr11 (check_boot): a policy signed for this
        # UKI is met once systemd-pcrphase extends "enter-initrd"
        pol = signed_policy(work, os.path.join(work, "os-release"),
                            os.path.join(work, "cmdline"))
        now = extend("sha256", pcr11["sha256"], H("sha256", b"enter-initrd"))
        if policy_pcr11(now) != pol:
            raise AssertionError("the signed PCR 11 policy %s is not met by PCR 11 %s"
                                 % (pol.hex(), now.hex()))
    finally:
        shutil.rmtree(work, ignore_errors=True)


def no_tpm_unchanged():
    """Without a TPM the boot is as before: no event log handed on, no
    "measured" words, the target's sysfs has no TPM."""
    q = Qemu(B, "tpm-none", kernel=need(EFI), append="bootmenu.timeout=0",
             disks=[need(DEMO)])
    try:
        q.expect(r"BOOTMENU-TARGET: done", 240)
        out = q.output()
    finally:
        q.close()
    for bad in ("tpmlog", "BOOTMENU-TARGET: pcr", "measured", "TPM error"):
        if bad in out:
            raise AssertionError("without a TPM the boot said %r" % bad)
    if "Starting " not in out:
        raise AssertionError("no Starting line: " + out[-600:])


ok = True
ok &= check("e2e.tpm.bios_bls_measured", bios_bls)
ok &= check("e2e.tpm.bios_grub_measured", bios_grub)
ok &= check("e2e.tpm.ovmf_bls_measured", ovmf_bls)
ok &= check("e2e.tpm.bios_uki_pcr11_as_systemd_measure", bios_uki)
ok &= check("e2e.tpm.no_tpm_unchanged", no_tpm_unchanged)
sys.exit(0 if ok else 1)
