#!/usr/bin/env python3
"""A LUKS2 /boot unlocked by the TPM (issue #33, test 4).

The disk is one whole-disk LUKS2 volume (encrypted offline by Debian's
cryptsetup, PBKDF2 kept fast) holding an ext4 /boot whose grub.cfg
boots the test target. Its second keyslot is a systemd-tpm2 token, put
there by Debian 12's systemd-cryptenroll (systemd 252) against a swtpm
whose PCR 7 was first extended to what it holds in the VM when bootmenu
runs. That swtpm's state is then QEMU's TPM (SeaBIOS, tpm-tis).

PCR 7 at bootmenu's time under SeaBIOS was read in a VM boot of
bootmenu's rescue shell with a fresh swtpm (/sys/class/tpm/tpm0/pcr-*/7,
as tests/e2e/test_tpm.py reads PCRs): SeaBIOS's one event there is its
separator, whose measured bytes are ff ff ff ff (sha256 e21b703e...,
sha1 3a3f780f...); sealed_pcr7() extends exactly that.

- sealed to that PCR 7: the volume opens with no prompt, the menu says
  `vda unlocked with the TPM as luks-<uuid>`, the entry inside boots;
- sealed to another PCR 7: the unlock dialog shows `TPM: ...` naming
  PCR 7, the passphrase typed opens it, and the entry boots;
- enrolled with a PIN: `TPM PIN:` is asked first, the PIN opens it;
- no TPM in the machine: the passphrase alone is asked, no word of a TPM.
No disk is written (sha256 before and after)."""
import hashlib
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))
from qemu import Qemu, Skip, check, need  # noqa: E402
from disks import fill_tree, sha256  # noqa: E402
from screen import BOOTED, ScreenGuest  # noqa: E402

B = os.path.abspath(sys.argv[1])
EFI = os.path.join(B, "bootmenu.efi")
W = os.path.join(B, "e2e-luks-tpm")
CON = "console=ttyS0,115200"
PASSPHRASE = "correct horse"
PIN = "4711"
# SeaBIOS's separator event in PCR 7 (see above)
SEPARATOR = b"\xff\xff\xff\xff"
TOOLS = (("swtpm", "swtpm"), ("systemd-cryptenroll", "systemd"),
         ("cryptsetup", "cryptsetup-bin"), ("mke2fs", "e2fsprogs"),
         ("tpm2_pcrextend", "tpm2-tools"), ("tpm2_shutdown", "tpm2-tools"))


def need_tools():
    for tool, pkg in TOOLS:
        if not shutil.which(tool):
            raise Skip("%s is not installed (Debian's %s package)" % (tool, pkg))
    # systemd 252 and tpm2-tools load the swtpm TCTI by name
    out = subprocess.run(["ldconfig", "-p"], capture_output=True, text=True).stdout
    if "libtss2-tcti-swtpm.so.0" not in out:
        raise Skip("libtss2-tcti-swtpm.so.0 is missing (Debian's libtss2-tcti-swtpm0)")


def luks_disk(path, entry):
    """A 48 MiB whole disk: LUKS2 with PASSPHRASE in keyslot 0 over a
    32 MiB ext4 /boot whose grub.cfg boots the target as @entry. Returns
    the LUKS UUID."""
    root = os.path.join(W, "root-" + entry)
    fill_tree(root, {
        "/boot/vmlinuz": need(os.path.join(B, "kernel", "bzImage")),
        "/boot/initrd.gz": need(os.path.join(B, "target-initrd.cpio.gz")),
        "/boot/grub/grub.cfg": "set timeout=2\nmenuentry '%s' {\n  linux /boot/vmlinuz %s "
                               "demo.entry=%s target.poweroff\n  initrd /boot/initrd.gz\n}\n"
                               % (entry, CON, entry),
    })
    if os.path.exists(path):
        os.unlink(path)
    with open(path, "wb") as f:
        f.truncate(48 << 20)
    subprocess.run(["mke2fs", "-q", "-F", "-t", "ext4", "-L", "cr_boot", "-d", root,
                    path, "32M"], check=True, stdout=subprocess.DEVNULL)
    pw = os.path.join(W, "pw")
    with open(pw, "w") as f:
        f.write(PASSPHRASE)
    # offline: the header goes in the first half of the 16 MiB the
    # filesystem leaves free, and the data moves up behind it
    subprocess.run(["cryptsetup", "reencrypt", "--encrypt", "--type", "luks2",
                    "--batch-mode", "--pbkdf", "pbkdf2", "--pbkdf-force-iterations", "1000",
                    "--label", "cr_root", "--reduce-device-size", "16M", "--key-file", pw,
                    path], check=True, stdout=subprocess.DEVNULL)
    return subprocess.run(["cryptsetup", "luksUUID", path], check=True,
                          capture_output=True, text=True).stdout.strip()


def sealed_pcr7(event):
    """tpm2_pcrextend's argument: PCR 7 extended by @event's digest, in
    the sha1 and sha256 banks (systemd 252 picks its bank by which holds
    values)."""
    return "7:sha1=%s,sha256=%s" % (hashlib.sha1(event).hexdigest(),
                                    hashlib.sha256(event).hexdigest())


def enroll(state, img, event, pin=None):
    """Enroll @img's TPM2 token with systemd-cryptenroll against a swtpm
    on @state (made when missing) whose PCR 7 holds @event (with @pin
    when given), then shut
    that TPM down in order (an unorderly stop counts against its
    dictionary-attack limit)."""
    os.makedirs(state, exist_ok=True)
    sock = os.path.join(state, "sock")
    tpm = subprocess.Popen(["swtpm", "socket", "--tpm2", "--tpmstate", "dir=" + state,
                            "--server", "type=unixio,path=" + sock,
                            "--ctrl", "type=unixio,path=" + sock + ".ctrl",
                            "--flags", "startup-clear"],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    tcti = "swtpm:path=" + sock
    try:
        for _ in range(200):
            if os.path.exists(sock) and os.path.exists(sock + ".ctrl"):
                break
            time.sleep(0.05)
        subprocess.run(["tpm2_pcrextend", "-T", tcti, sealed_pcr7(event)], check=True)
        env = dict(os.environ, PASSWORD=PASSPHRASE)
        args = ["systemd-cryptenroll", "--tpm2-device=" + tcti, "--tpm2-pcrs=7"]
        if pin:
            env["NEWPIN"] = pin
            args.append("--tpm2-with-pin=yes")
        out = subprocess.run(args + [img], env=env, capture_output=True, text=True,
                             timeout=180)
        if out.returncode:
            raise AssertionError("systemd-cryptenroll: " + out.stderr[-400:])
        subprocess.run(["tpm2_shutdown", "-T", tcti, "-c"], check=True)
    finally:
        tpm.terminate()
        tpm.wait()
    check_policy(img, event, bool(pin))


def check_policy(img, event, pin):
    """The token's policy is PolicyPCR over PCR 7 = extend(0, H(@event))
    in its bank (TPM 2.0 Part 3 23.7: H(0^n || TPM_CC_PolicyPCR ||
    TPML_PCR_SELECTION || H(PCR value))), then with @pin PolicyAuthValue
    (23.18: H(that || TPM_CC_PolicyAuthValue)): the key is sealed to what
    the test means, before any VM runs."""
    meta = json.loads(subprocess.run(["cryptsetup", "luksDump", "--dump-json-metadata", img],
                                     check=True, capture_output=True, text=True).stdout)
    toks = [t for t in meta["tokens"].values() if t.get("type") == "systemd-tpm2"]
    if len(toks) != 1 or toks[0].get("tpm2-pcrs") != [7] or toks[0].get("tpm2-pin") != pin:
        raise AssertionError("not one systemd-tpm2 token over PCR 7: %s" % meta["tokens"])
    bank = toks[0].get("tpm2-pcr-bank", "sha256")
    alg = {"sha1": 0x0004, "sha256": 0x000B}[bank]
    h = lambda b: hashlib.new(bank, b).digest()  # noqa: E731
    pcr = h(bytes(len(h(b""))) + h(event))
    sel = struct.pack(">IHB", 1, alg, 3) + bytes([0x80, 0, 0])
    want = h(bytes(len(pcr)) + struct.pack(">I", 0x17F) + sel + h(pcr))
    if pin:
        want = h(want + struct.pack(">I", 0x16B))
    if toks[0].get("tpm2-policy-hash") != want.hex():
        raise AssertionError("the token's policy %s is not PCR 7 = %s (%s)"
                             % (toks[0].get("tpm2-policy-hash"), pcr.hex(), bank))


def qemu_tpm(state, name):
    """A swtpm over a copy of @state for QEMU, and QEMU's arguments."""
    run = os.path.join(W, name + ".tpm")
    shutil.rmtree(run, ignore_errors=True)
    shutil.copytree(state, run, ignore=shutil.ignore_patterns("sock*"))
    ctrl = os.path.join(run, "ctrl.sock")
    tpm = subprocess.Popen(["swtpm", "socket", "--tpm2", "--tpmstate", "dir=" + run,
                            "--ctrl", "type=unixio,path=" + ctrl, "--terminate"],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(200):
        if os.path.exists(ctrl):
            break
        time.sleep(0.05)
    return tpm, ["-chardev", "socket,id=chrtpm,path=" + ctrl,
                 "-tpmdev", "emulator,id=tpm0,chardev=chrtpm",
                 "-device", "tpm-tis,tpmdev=tpm0"]


def booted(g, entry):
    got = g.q.expect(BOOTED, 300).group(1)
    g.q.expect(r"BOOTMENU-TARGET: done", 60)
    if got != entry:
        raise AssertionError("booted %s, want %s" % (got, entry))
    g.not_restarted()


def words(g):
    """The screen's words on one line: a dialog's text wraps."""
    return re.sub(r"\s+", " ", g.show())


def wait_words(g, want, timeout):
    end = time.monotonic() + timeout
    while want not in words(g):
        if time.monotonic() > end:
            raise AssertionError("no %r on the screen after %d s:\n%s"
                                 % (want, timeout, g.screen.text()))
        time.sleep(0.3)


def tpm_case(name, event, entry, run, pin=None, tpm=True):
    """A disk enrolled against PCR 7 = @event (and @pin), booted under
    SeaBIOS with that TPM state (@tpm False: with no TPM at all);
    @run(guest, uuid) drives and checks the boot."""
    need_tools()
    efi = need(EFI)
    os.makedirs(W, exist_ok=True)
    img = os.path.join(W, name + ".img")
    state = os.path.join(W, name + ".enrolled")
    shutil.rmtree(state, ignore_errors=True)
    uuid = luks_disk(img, entry)
    enroll(state, img, event, pin)
    before = sha256(img)
    tpm, args = qemu_tpm(state, name) if tpm else (None, [])
    g = ScreenGuest(Qemu(B, name, kernel=efi, append="bootmenu.timeout=3",
                         disks=[{"file": img, "snapshot": False}], snapshot=False,
                         extra=args))
    try:
        run(g, uuid)
    finally:
        g.close()
        if tpm and tpm.poll() is None:
            tpm.kill()
        if tpm:
            tpm.wait()
    if sha256(img) != before:
        raise AssertionError("the LUKS disk was written to")


def unlocked_by_tpm():
    """Nothing typed: the dialog that opens by itself (nothing else to
    boot) has the TPM open the volume, and its entry boots."""
    def run(g, uuid):
        wait_words(g, "vda unlocked with the TPM as luks-" + uuid, 300)
        if "Passphrase:" in g.q.output():
            raise AssertionError("a passphrase was asked for although the TPM unlocked it")
        booted(g, "tpm-boot")
    tpm_case("luks-tpm-ok", SEPARATOR, "tpm-boot", run)


def pcr7_changed_asks():
    """Sealed to another PCR 7: the dialog says why the TPM did not
    open it, above the passphrase prompt; the passphrase does."""
    def run(g, uuid):
        wait_words(g, "Unlock vda (LUKS2 'cr_root')", 300)
        g.wait_screen(r"Passphrase:", 120)
        wait_words(g, "TPM: the TPM's PCR 7 is not what the key was sealed to", 10)
        if "unlocked with the TPM" in words(g):
            raise AssertionError("the TPM unlocked a key sealed to another PCR 7")
        g.keys(PASSPHRASE, "\r")
        wait_words(g, "vda unlocked as luks-" + uuid, 120)
        booted(g, "pass-boot")
    tpm_case("luks-tpm-pcr7", b"not what SeaBIOS measures", "pass-boot", run)


def pin_asked():
    """A token enrolled with a PIN: the dialog asks `TPM PIN:` first, and
    the PIN has the TPM open the volume."""
    def run(g, uuid):
        wait_words(g, "Unlock vda (LUKS2 'cr_root')", 300)
        g.wait_screen(r"TPM PIN:", 120)
        g.keys(PIN, "\r")
        wait_words(g, "vda unlocked with the TPM as luks-" + uuid, 120)
        if "Passphrase:" in g.q.output():
            raise AssertionError("a passphrase was asked for although the TPM unlocked it")
        booted(g, "pin-boot")
    tpm_case("luks-tpm-pin", SEPARATOR, "pin-boot", run, pin=PIN)


def no_tpm_asks_quietly():
    """The same token on a machine without a TPM: just the passphrase,
    with no word about the TPM."""
    def run(g, uuid):
        wait_words(g, "Unlock vda (LUKS2 'cr_root')", 300)
        g.wait_screen(r"Passphrase:", 120)
        if "TPM" in words(g):
            raise AssertionError("the dialog speaks of a TPM there is not:\n" + g.screen.text())
        g.keys(PASSPHRASE, "\r")
        wait_words(g, "vda unlocked as luks-" + uuid, 120)
        booted(g, "no-tpm-boot")
    tpm_case("luks-tpm-none", SEPARATOR, "no-tpm-boot", run, tpm=False)


def cleanup():
    if os.path.isdir(W):
        shutil.rmtree(W, ignore_errors=True)


ok = True
for name, fn in (("e2e.luks_tpm.unlocked_by_tpm_no_prompt", unlocked_by_tpm),
                 ("e2e.luks_tpm.pcr7_changed_asks_passphrase", pcr7_changed_asks),
                 ("e2e.luks_tpm.pin_asked_then_unlocked", pin_asked),
                 ("e2e.luks_tpm.no_tpm_asks_passphrase_quietly", no_tpm_asks_quietly)):
    ok = check(name, fn) and ok
cleanup()
sys.exit(0 if ok else 1)
