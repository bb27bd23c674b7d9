#!/usr/bin/env python3
"""/boot on volumes: an LVM2 logical volume and md RAID1 mirrors.

Disks are written by Debian's lvm2 (without a device-mapper driver) and
by Debian's mdadm in a builder VM with Debian's kernel (mdadm_vm.py; the
md under LVM-on-md still from md's documented superblock layout), with an
ext4 /boot copied in at the volume's first byte. bootmenu reads each volume through a read-only
loop device, or device-mapper for an LV in several runs over two PVs or
striped over them:
the volume's default entry boots, a volume group with a
missing physical volume and a thin LV are listed with their reasons, a
RAID1 mirror with one member missing still boots, and every member image
is byte-identical afterwards (sha256)."""
import os
import re
import shutil
import sys

sys.path.insert(0, os.path.dirname(__file__))
from qemu import Qemu, check, need  # noqa: E402
from disks import sha256, ext4_image, lvm_disk, lvm_disks, md_member  # noqa: E402
import mdadm_vm  # noqa: E402

B = os.path.abspath(sys.argv[1])
EFI = os.path.join(B, "bootmenu.efi")
W = os.path.join(B, "e2e-volumes")
FIX = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fixtures", "lvm")
CON = "console=ttyS0,115200"


def boot_fs(path, entry):
    """A 16 MiB ext4 /boot whose grub.cfg boots the test target as @entry."""
    ext4_image(path, os.path.join(W, "root-" + entry), {
        "/vmlinuz": need(os.path.join(B, "kernel", "bzImage")),
        "/initrd.gz": need(os.path.join(B, "target-initrd.cpio.gz")),
        "/grub/grub.cfg": "set timeout=5\nmenuentry '%s' {\n  linux /vmlinuz %s demo.entry=%s target.poweroff\n"
                          "  initrd /initrd.gz\n}\n" % (entry, CON, entry),
    }, entry, 16)


def padded(src, dst, mib=64):
    """A whole disk from a fixture PV's first 64 KiB: zeros after."""
    with open(src, "rb") as s, open(dst, "wb") as d:
        d.write(s.read())
        d.truncate(mib << 20)
    return dst


def boots(name, disks, entry):
    """Boot bootmenu with @disks (written in place); the default must be
    @entry, reached with no key; each disk unchanged afterwards."""
    before = {p: sha256(p) for p in disks}
    q = Qemu(B, name, kernel=need(EFI), append="bootmenu.timeout=0",
             disks=[{"file": p, "snapshot": False} for p in disks], snapshot=False)
    try:
        got = q.expect(r"BOOTMENU-TARGET: booted entry=(\S+)", 240).group(1)
        q.expect(r"BOOTMENU-TARGET: done", 30)
    finally:
        q.close()
    if got != entry:
        raise AssertionError("booted %s, want %s" % (got, entry))
    changed = [os.path.basename(p) for p in disks if sha256(p) != before[p]]
    if changed:
        raise AssertionError("changed: " + ", ".join(changed))


def listing(name, disks):
    """`bootmenu --list` in the rescue shell over @disks: its text."""
    q = Qemu(B, name, kernel=need(EFI), append="bootmenu.shell",
             disks=[{"file": p, "snapshot": False} for p in disks], snapshot=False)
    try:
        q.expect(r"rescue shell", 90)
        q.send("bootmenu --list > /tmp/l.txt 2>&1; echo RC=$?; "
               "echo LIST-BEGIN; cat /tmp/l.txt; echo LIST-END\n")
        rc = q.expect(r"RC=(\d+)", 180).group(1)
        q.expect(r"LIST-BEGIN\r?\n", 10)
        start = q.pos
        q.expect(r"LIST-END", 30)
        text = q.output()[start:q.pos - len("LIST-END")].replace("\r", "")
    finally:
        q.close()
    if rc != "0":
        raise AssertionError("bootmenu --list exited %s: %s" % (rc, text[-600:]))
    return text


def want_lines(text, patterns):
    for p in patterns:
        if not re.search(p, text, re.M):
            raise AssertionError("no line /%s/ in:\n%s" % (p, text))


def lvm_boot():
    os.makedirs(W, exist_ok=True)
    fs = os.path.join(W, "lvm-boot.ext4")
    boot_fs(fs, "lvm-boot")
    disk = os.path.join(W, "lvm.img")
    lvm_disk(disk, "vgsys", [("root", 8, None), ("boot", 16, fs), ("home", 4, None)])
    boots("volumes-lvm-boot", [disk], "lvm-boot")


def lvm_runs_boot():
    """/boot in an LV of three runs over two PVs (lvextend after another
    LV took the next extents, then past the first PV's end): read through
    device-mapper; both PVs unchanged."""
    fs = os.path.join(W, "lvm-runs.ext4")
    boot_fs(fs, "lvm-runs")
    disks = [os.path.join(W, "lvm-runs-%d.img" % i) for i in range(2)]
    runs = lvm_disks(disks, "vgruns", [("create", "boot", 2), ("create", "root", 4),
                                       ("extend", "boot", 16)],
                     {"boot": fs}, size_mib=16)
    got = [(os.path.basename(p), size >> 20) for p, _, size in runs["boot"]]
    if len(got) != 3 or got[1][0] == got[2][0]:
        raise AssertionError("boot's runs are not three over two PVs: %s" % got)
    boots("volumes-lvm-runs", disks, "lvm-runs")


def lvm_striped_boots():
    """/boot in an LV striped over two PVs (lvcreate -i2 -I64k): read
    through device-mapper's striped target; both PVs unchanged."""
    fs = os.path.join(W, "lvm-striped.ext4")
    boot_fs(fs, "lvm-striped")
    disks = [os.path.join(W, "lvm-striped-%d.img" % i) for i in range(2)]
    runs = lvm_disks(disks, "vgstripe", [("striped", "boot", 16)], {"boot": fs},
                     size_mib=16)
    if len(runs["boot"]) != 2:
        raise AssertionError("boot is not striped over two PVs: %s" % runs["boot"])
    boots("volumes-lvm-striped", disks, "lvm-striped")


def lvm_runs_listed_then_unmapped():
    """`bootmenu --list` over the disks of lvm_runs_boot (an LV through
    device-mapper) and of lvm_on_md_boots (a loop device under another):
    both LVs are listed with their entries, and when bootmenu exits no
    device-mapper table and no bound loop device is left."""
    disks = [need(os.path.join(W, "lvm-runs-%d.img" % i)) for i in range(2)] + \
        [need(os.path.join(W, "lvm-md-%s.img" % c)) for c in "ab"]
    q = Qemu(B, "volumes-unmapped", kernel=need(EFI), append="bootmenu.shell",
             disks=[{"file": p, "snapshot": False} for p in disks], snapshot=False)
    try:
        q.expect(r"rescue shell", 90)
        q.send("bootmenu --list > /tmp/l.txt 2>&1; echo RC=$?; cat /tmp/l.txt; "
               "echo DM=$(ls /sys/block | grep -c '^dm-') "
               "LOOPS=$(cat /sys/block/loop*/size 2>/dev/null | grep -vc '^0$')\n")
        rc = q.expect(r"RC=(\d+)", 180).group(1)
        start = q.pos
        left = q.expect(r"DM=(\d+) LOOPS=(\d+)", 30)
        text = q.output()[start:q.pos].replace("\r", "")
    finally:
        q.close()
    if rc != "0":
        raise AssertionError("bootmenu --list exited %s: %s" % (rc, text[-600:]))
    want_lines(text, [r"lvm-runs .*vgruns/boot", r"lvm-on-md .*vgmd/boot"])
    if left.groups() != ("0", "0"):
        raise AssertionError("left mapped: %s dm tables, %s loop devices"
                             % left.groups())


def lvm_on_md_boots():
    """LVM on an md RAID1 (1.2) of two members: the mirror is read, the PV
    found on it, /boot in its LV boots; both members unchanged."""
    fs = os.path.join(W, "lvm-md.ext4")
    boot_fs(fs, "lvm-on-md")
    pv = os.path.join(W, "lvm-md-pv.data")
    lvm_disks([pv], "vgmd", [("create", "boot", 16)], {"boot": fs}, size_mib=24)
    disks = [os.path.join(W, "lvm-md-%s.img" % c) for c in "ab"]
    for i, p in enumerate(disks):
        md_member(p, pv, "1.2", i, bytes(range(0x20, 0x30)))
    os.unlink(pv)
    boots("volumes-lvm-on-md", disks, "lvm-on-md")


def lvm_reasons():
    """The LVM boot disk beside a VG missing one of its two PVs and a VG
    with a thin LV: the LV is read, the others listed with reasons."""
    disk = os.path.join(W, "lvm.img")
    need(disk)
    half = padded(os.path.join(FIX, "twopv", "pv0.pv"), os.path.join(W, "pv0-only.img"))
    thin = padded(os.path.join(FIX, "thinsnap", "thinsnap.pv"), os.path.join(W, "thin.img"))
    disks = [disk, half, thin]
    before = {p: sha256(p) for p in disks}
    text = listing("volumes-lvm-list", disks)
    want_lines(text, [r"vgsys/boot.*lvm-boot",
                      r"vgdata/\S+.*skipped:.*missing",
                      r"vgt/thin.*skipped:.*thin"])
    changed = [os.path.basename(p) for p in disks if sha256(p) != before[p]]
    if changed:
        raise AssertionError("changed: " + ", ".join(changed))


MD_ARRAYS = []


def md_real():
    """The md members every md test boots, written once by Debian's mdadm
    in a builder VM (tests/e2e/mdadm_vm.py): RAID1 pairs with 0.90, 1.0
    and 1.2 metadata, a 1.2 mirror created with its second member
    missing, and a 1.2 pair whose member b was left behind (the array
    assembled from a alone and "md-new" written through it over
    "md-old"). Returns the arrays by name."""
    if not MD_ARRAYS:
        fs = {}
        for entry in ("md090", "md10", "md12", "md-degraded", "md-old", "md-new"):
            fs[entry] = os.path.join(W, entry + ".ext4")
            boot_fs(fs[entry], entry)
        arrays = [mdadm_vm.Array("m090", "0.90", ["a", "b"], fs["md090"]),
                  mdadm_vm.Array("m10", "1.0", ["a", "b"], fs["md10"]),
                  mdadm_vm.Array("m12", "1.2", ["a", "b"], fs["md12"]),
                  mdadm_vm.Array("mdeg", "1.2", ["a", "missing"], fs["md-degraded"]),
                  mdadm_vm.Array("mstale", "1.2", ["a", "b"], fs["md-old"],
                                 stale=fs["md-new"])]
        examine = mdadm_vm.build(B, W, arrays)
        for want in (r"Version : 0\.90", r"Version : 1\.0", r"Version : 1\.2",
                     r"State : clean, degraded|Array State : A\."):
            if not re.search(want, examine):
                raise AssertionError("mdadm --examine in the builder has no /%s/" % want)
        MD_ARRAYS.extend(arrays)
    return {a.name: a for a in MD_ARRAYS}


def md_pairs_listed():
    """The 0.90, 1.0 and 1.2 pairs mdadm made: each one volume, listed once
    with its mirror's entry."""
    md = md_real()
    disks = sum((md[n].paths(W) for n in ("m090", "m10", "m12")), [])
    text = listing("volumes-md-pairs", disks)
    for entry, dev in (("md090", "md0"), ("md10", "md/m10"), ("md12", "md/m12")):
        line = r"^\d+\*? +%s \[grub\] %s:/vmlinuz " % (entry, re.escape(dev))
        if len(re.findall(line, text, re.M)) != 1:
            raise AssertionError("no one line /%s/ in:\n%s" % (line, text))


def md_10_pair():
    """RAID1 with 1.0 metadata (superblock at the end), both members: it
    boots."""
    boots("volumes-md-10", md_real()["m10"].paths(W), "md10")


def md_090_pair():
    """RAID1 with 0.90 metadata, both members: one volume, it boots."""
    boots("volumes-md-090", md_real()["m090"].paths(W), "md090")


def md_degraded():
    """RAID1 (1.2 metadata) created with its second member missing boots."""
    boots("volumes-md-degraded", md_real()["mdeg"].paths(W), "md-degraded")


def md_stale_member():
    """A 1.2 pair whose member b is behind by event count: the array is
    read from a, the fresher, and its "md-new" boots, not b's "md-old"."""
    boots("volumes-md-stale", md_real()["mstale"].paths(W), "md-new")


def cleanup():
    for f in os.listdir(W):
        if f.endswith(".img") or f.endswith(".ext4") or f.endswith(".cpio"):
            os.unlink(os.path.join(W, f))
    shutil.rmtree(os.path.join(W, "mdadm-builder"), ignore_errors=True)


ok = True
for name, fn in (("e2e.volumes.lvm_boot_lv_boots", lvm_boot),
                 ("e2e.volumes.lvm_lv_in_three_runs_on_two_pvs_boots", lvm_runs_boot),
                 ("e2e.volumes.lvm_on_md_raid1_boots", lvm_on_md_boots),
                 ("e2e.volumes.lvm_striped_lv_boots", lvm_striped_boots),
                 ("e2e.volumes.lvm_listed_then_every_mapping_removed",
                  lvm_runs_listed_then_unmapped),
                 ("e2e.volumes.lvm_missing_pv_and_thin_listed", lvm_reasons),
                 ("e2e.volumes.md_mdadm_pairs_listed_once", md_pairs_listed),
                 ("e2e.volumes.md_raid1_12_one_member_missing_boots", md_degraded),
                 ("e2e.volumes.md_raid1_090_boots", md_090_pair),
                 ("e2e.volumes.md_raid1_10_boots", md_10_pair),
                 ("e2e.volumes.md_raid1_stale_member_left_behind", md_stale_member)):
    ok = check(name, fn) and ok
if os.path.isdir(W):
    cleanup()
sys.exit(0 if ok else 1)
