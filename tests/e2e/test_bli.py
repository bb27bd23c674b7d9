#!/usr/bin/env python3
"""systemd's Boot Loader Interface (issue #34): a real Debian 12 userspace
with its own systemd 252 sees and steers bootmenu.

One OVMF guest (QEMU restarts it on each reset, its variables kept)
boots bootmenu.efi, which boots Debian from a GPT disk: an ESP with two
BLS entries (debian-a.conf, the default in loader.conf, and
debian-b.conf, Debian's kernel and initrd) and Debian's root made by
images/bli-debian.sh. In Debian, bli-report.service prints `bootctl
status`, `bootctl list`, `systemd-analyze` and the loader variables
between markers, then runs the ESP's bli/steer-<boot number>:
  1 (a, the default) systemctl reboot --boot-loader-entry=debian-b.conf
  2 (b, with no key) systemctl reboot
  3 (a again) bootctl set-default debian-b.conf;
    systemctl reboot --boot-loader-menu=10
  4 (b; the menu counted down from 10 s) systemctl reboot
  5 (b again, the usual 2 s countdown) bootctl set-default debian-a.conf;
    bootctl set-oneshot debian-missing.conf; systemctl reboot
  6 (a; the menu said the one-shot names no entry) powers off
Each of the first four checks reads its part of that one run; those boots
use kexec_load (with the firmware's runtime map, SETUP_EFI). The fifth
boots once more with bootmenu's kernel locked down, which makes it use
kexec_file_load."""
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(__file__))
from qemu import Qemu, Skip, Timeout, check, need  # noqa: E402

B = os.path.abspath(sys.argv[1])
EFI = os.path.join(B, "bootmenu.efi")
ROOT = os.path.join(B, "bli-debian", "root.ext4")
DEBK = os.path.join(B, "debkernel")
ESP_UUID = "0b1ee5b0-0000-4000-8000-000000000001"
ROOT_UUID = "0b1ee5b0-0000-4000-8000-000000000002"
ESP_TYPE = "C12A7328-F81F-11D2-BA4B-00A0C93EC93B"
LINUX_TYPE = "0FC63DAF-8483-4772-8E79-3D69D8477DE4"
ESP_MIB = 96
# bootmenu's own countdown, 2 s; the menu on the serial console
APPEND = "bootmenu.timeout=2 console=ttyS0,115200"
STEER = {
    1: "systemctl reboot --boot-loader-entry=debian-b.conf",
    2: "systemctl reboot",
    3: "bootctl set-default debian-b.conf && "
       "systemctl reboot --boot-loader-menu=10",
    4: "systemctl reboot",
    5: "bootctl set-default debian-a.conf && "
       "bootctl set-oneshot debian-missing.conf && systemctl reboot",
}
BOOTS = 6
GUID = "4a67b082-0a4c-41cf-b6c7-440b29bb8c4f"


def entry(tag):
    return ("title Debian %s\nversion 6.1\nlinux /vmlinuz\ninitrd /initrd.img\n"
            "options root=PARTUUID=%s rw console=ttyS0,115200 quiet "
            "systemd.show_status=0 bli.tag=%s\n" % (tag.upper(), ROOT_UUID, tag))


def make_esp(work, steer):
    """The ESP as a FAT image: loader.conf, two entries, Debian's kernel
    and initrd, the steering scripts (mtools: nothing is mounted)."""
    esp = os.path.join(work, "esp.fat")
    subprocess.run(["mkfs.vfat", "-C", "-n", "BLIESP", esp,
                    str(ESP_MIB * 1024)], check=True, stdout=subprocess.DEVNULL)
    env = dict(os.environ, MTOOLS_SKIP_CHECK="1")
    files = {"loader/loader.conf": "default debian-a.conf\ntimeout 2\n",
             "loader/entries/debian-a.conf": entry("a"),
             "loader/entries/debian-b.conf": entry("b")}
    for n, cmd in steer.items():
        files["bli/steer-%d" % n] = cmd + "\n"
    subprocess.run(["mmd", "-i", esp, "::/loader", "::/loader/entries", "::/bli"],
                   check=True, env=env)
    for path, text in files.items():
        src = os.path.join(work, path.replace("/", "_"))
        with open(src, "w") as f:
            f.write(text)
        subprocess.run(["mcopy", "-i", esp, src, "::/" + path], check=True, env=env)
    subprocess.run(["mcopy", "-i", esp, os.path.join(DEBK, "vmlinuz"), "::/vmlinuz"],
                   check=True, env=env)
    subprocess.run(["mcopy", "-i", esp, os.path.join(DEBK, "initrd.img"),
                    "::/initrd.img"], check=True, env=env)
    return esp


def make_disk(work, steer):
    """GPT: the ESP, then Debian's root, each at its fixed PARTUUID."""
    esp = make_esp(work, steer)
    root_mib = (os.path.getsize(ROOT) + (1 << 20) - 1) >> 20
    disk = os.path.join(work, "disk.img")
    with open(disk, "wb") as f:
        f.truncate((1 + ESP_MIB + root_mib + 1) << 20)
    layout = ("label: gpt\n"
              "start=2048, size=%d, type=%s, uuid=%s, name=ESP\n"
              "size=%d, type=%s, uuid=%s, name=root\n"
              % (ESP_MIB * 2048, ESP_TYPE, ESP_UUID, root_mib * 2048,
                 LINUX_TYPE, ROOT_UUID))
    subprocess.run(["sfdisk", "-q", disk], input=layout.encode(), check=True)
    for img, mib in ((esp, 1), (ROOT, 1 + ESP_MIB)):
        subprocess.run(["dd", "if=" + img, "of=" + disk, "bs=1M",
                        "seek=%d" % mib, "conv=notrunc,sparse", "status=none"],
                       check=True)
    return disk


RUN = {}


def guest(name, steer, append):
    """A guest over a fresh disk with the steering scripts @steer."""
    need(EFI)
    if not os.path.exists(ROOT):
        raise Skip("missing %s (make %s as root: debootstrap)" % (ROOT, ROOT))
    need(os.path.join(DEBK, "vmlinuz"))
    need(os.path.join(DEBK, "initrd.img"))
    logs = os.environ.get("TEST_LOGS") or os.path.join(B, "test-logs")
    work = os.path.join(logs, name + "-work")
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    disk = make_disk(work, steer)
    return Qemu(B, name, kernel=EFI, append=append, disks=[disk],
                uefi=True, mem=1024, reboot=True)


def run():
    """The one guest run; each boot's serial output by its number."""
    if RUN:
        if "error" in RUN:
            raise AssertionError(RUN["error"])
        return RUN
    q = guest("bli-debian", STEER, APPEND)
    try:
        for n in range(1, BOOTS + 1):
            q.expect(r"BLI-BOOT %d tag=" % n, 420)
            q.expect(r"BLI-STEER-END|BLI-DONE", 240)
        q.wait_exit(120)
        RUN["out"] = q.output()
    except (Timeout, AssertionError) as e:
        RUN["error"] = "%s; serial: %s" % (e, q.tail(1500))
        raise AssertionError(RUN["error"])
    finally:
        q.close()
    out = RUN["out"]
    # boot N: from after boot N-1's report to the end of its own
    marks = [m.start() for m in re.finditer(r"BLI-BOOT \d+ tag=", out)]
    ends = [0] + [out.find("BLI-STEER-END", m) for m in marks]
    RUN["boot"] = {}
    for i, m in enumerate(marks):
        n = i + 1
        seg = out[ends[i]:ends[i + 1] if ends[i + 1] > 0 else len(out)]
        tag = re.search(r"BLI-BOOT \d+ tag=(\w*)", out[m:]).group(1)
        RUN["boot"][n] = {"tag": tag, "text": seg}
    return RUN


def part(text, name):
    m = re.search(r"BLI-%s-BEGIN\r?\n(.*?)BLI-%s-END rc=(\d+)" % (name, name),
                  text, re.S)
    if not m:
        raise AssertionError("no %s report in: %s" % (name, text[-1500:]))
    return m.group(1), int(m.group(2))


def selected(lst, title, id_):
    """bootctl list marks the entry LoaderEntrySelected names."""
    if not re.search(r"title: %s.*\(selected\).*\n\s*id: %s\s" % (title, re.escape(id_)), lst):
        raise AssertionError("bootctl list does not show %s as selected: %s" % (id_, lst))


def tags():
    return [RUN["boot"][n]["tag"] for n in sorted(RUN["boot"])]


def status_list_analyze():
    """1: bootctl status names bootmenu and the entry booted; bootctl list
    has our ids; systemd-analyze prints a loader time."""
    r = run()
    b1 = r["boot"][1]
    if b1["tag"] != "a":
        raise AssertionError("boot 1 booted %r, not the default a" % b1["tag"])
    if "loader variables not all written" in r["out"]:
        raise AssertionError("bootmenu could not write the variables: " +
                             r["out"].split("loader variables not all written")[1][:300])
    status, _ = part(b1["text"], "STATUS")
    if not re.search(r"Current Boot Loader:\s*\n\s*Product: bootmenu \d", status):
        raise AssertionError("bootctl status does not name bootmenu: " + status)
    # LoaderFirmwareType/Info, from the kernel's "EFI v2.70 by EDK II"
    if not re.search(r"Firmware: UEFI 2\.70 \(EDK II\)", status):
        raise AssertionError("bootctl status names no firmware: " + status)
    lst, rc = part(b1["text"], "LIST")
    selected(lst, "Debian A", "debian-a.conf")
    if not re.search(r"title: Debian B.*\n\s*id: debian-b\.conf", lst):
        raise AssertionError("bootctl list lacks debian-b.conf: " + lst)
    if re.search(r"not reported|reported/absent", lst):
        raise AssertionError("bootctl list and bootmenu disagree on the ids: " + lst)
    ana, rc = part(b1["text"], "ANALYZE")
    if rc != 0 or not re.search(r"\d[\d.]*m?s \(loader\)", ana):
        raise AssertionError("systemd-analyze shows no loader time: " + ana)


def oneshot_entry():
    """2: systemctl reboot --boot-loader-entry=debian-b.conf boots b once
    with no key; the boot after that is the default again."""
    run()
    if tags()[:3] != ["a", "b", "a"]:
        raise AssertionError("boots 1-3 booted %s, want a b a" % tags()[:3])
    selected(part(RUN["boot"][2]["text"], "LIST")[0], "Debian B", "debian-b.conf")
    if re.search("BLI-VAR LoaderEntryOneShot-", RUN["boot"][2]["text"]):
        raise AssertionError("LoaderEntryOneShot still set after the boot it named")


def set_default_and_menu():
    """3: bootctl set-default survives two reboots; systemctl reboot
    --boot-loader-menu=10 shows the menu counting from 10 s, once."""
    run()
    if tags()[3:5] != ["b", "b"]:
        raise AssertionError("boots 4-5 booted %s, want b b" % tags()[3:5])
    if not re.search(r"Booting Debian B in 10 s", RUN["boot"][4]["text"]):
        raise AssertionError("boot 4's menu did not count down from 10 s")
    for n in (3, 5):
        if re.search(r"Booting Debian [AB] in 10 s", RUN["boot"][n]["text"]):
            raise AssertionError("boot %d's menu counted from 10 s too" % n)


def oneshot_missing():
    """4: a one-shot naming no entry: the default boots, and the menu says
    so."""
    run()
    b6 = RUN["boot"][6]
    if b6["tag"] != "a":
        raise AssertionError("boot 6 booted %r, not the default a" % b6["tag"])
    if not re.search(r'LoaderEntryOneShot "debian-missing\.conf" names no entry',
                     b6["text"]):
        raise AssertionError("boot 6's menu did not say the one-shot names no entry")


def kexec_file_path():
    """5: the other kexec path keeps the firmware's runtime services too:
    bootmenu's kernel locked down (as under Secure Boot) loads Debian's
    signed kernel with kexec_file_load, and Debian still reads the
    variables (one boot, then it powers off)."""
    q = guest("bli-debian-file", {}, APPEND + " lockdown=integrity")
    try:
        q.expect(r"BLI-BOOT 1 tag=a", 420)
        q.expect(r"BLI-DONE", 240)
        out = q.output()
    finally:
        q.close()
    if not re.search(r"loaded with kexec_file_load", out):
        raise AssertionError("bootmenu did not use kexec_file_load: " + q.tail(800))
    status, _ = part(out, "STATUS")
    if not re.search(r"Product: bootmenu \d", status):
        raise AssertionError("after kexec_file_load bootctl status: " + status)
    selected(part(out, "LIST")[0], "Debian A", "debian-a.conf")


ok = True
ok &= check("e2e.bli.status_list_analyze", status_list_analyze)
ok &= check("e2e.bli.oneshot_entry", oneshot_entry)
ok &= check("e2e.bli.set_default_and_menu", set_default_and_menu)
ok &= check("e2e.bli.oneshot_missing", oneshot_missing)
ok &= check("e2e.bli.kexec_file_path", kexec_file_path)
sys.exit(0 if ok else 1)
