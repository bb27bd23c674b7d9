#!/usr/bin/env python3
"""tests/bench/gen.py - generate the benchmark's config trees.

  gen.py grub DIR N          DIR/boot/grub/grub.cfg with N menuentries (update-grub's shape)
  gen.py bls DIR N           DIR/loader/entries/*.conf: N Boot Loader Specification entries
  gen.py syslinux DIR K      DIR/syslinux/syslinux.cfg: one entry "Scan partition K"
Every entry names the one small kernel file DIR/vmlinuz (and DIR/initrd.img),
so parsers that check files find them.
"""
import os
import sys

CON = "console=ttyS0,115200"
UUID = "1b8e2c4a-0d3f-4c52-9a61-6b7f00de0b1a"


def files(d):
    os.makedirs(d, exist_ok=True)
    for name in ("vmlinuz", "initrd.img"):
        with open(os.path.join(d, name), "wb") as f:
            f.write(b"\0" * 4096)


def grub(d, n):
    files(d)
    os.makedirs(os.path.join(d, "boot", "grub"), exist_ok=True)
    out = ["set default=0", "set timeout=5", ""]
    for i in range(n):
        out.append(
            "menuentry 'Generated entry %d' --class debian --class gnu-linux "
            "$menuentry_id_option 'gen-%d-%s' {\n"
            "\tinsmod gzio\n\tinsmod part_gpt\n\tinsmod ext2\n"
            "\tsearch --no-floppy --fs-uuid --set=root %s\n"
            "\techo\t'Loading Linux %d ...'\n"
            "\tlinux\t/vmlinuz root=UUID=%s ro %s gen.entry=%d\n"
            "\tinitrd\t/initrd.img\n}" % (i, i, UUID, UUID, i, UUID, CON, i))
    with open(os.path.join(d, "boot", "grub", "grub.cfg"), "w") as f:
        f.write("\n".join(out) + "\n")


def bls(d, n):
    files(d)
    e = os.path.join(d, "loader", "entries")
    os.makedirs(e, exist_ok=True)
    with open(os.path.join(d, "loader", "loader.conf"), "w") as f:
        f.write("timeout 5\n")
    for i in range(n):
        with open(os.path.join(e, "gen-%04d.conf" % i), "w") as f:
            f.write("title      Generated BLS %d\nversion    6.1.%d\n"
                    "machine-id 0123456789abcdef0123456789abcdef\n"
                    "linux      /vmlinuz\ninitrd     /initrd.img\n"
                    "options    %s gen.entry=%d\n" % (i, i, CON, i))


def syslinux(d, k):
    files(d)
    os.makedirs(os.path.join(d, "syslinux"), exist_ok=True)
    with open(os.path.join(d, "syslinux", "syslinux.cfg"), "w") as f:
        f.write("DEFAULT scan%d\nLABEL scan%d\n  MENU LABEL Scan partition %d\n"
                "  LINUX /vmlinuz\n  INITRD /initrd.img\n"
                "  APPEND %s scan.part=%d\n" % (k, k, k, CON, k))


if __name__ == "__main__":
    kind, d, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
    {"grub": grub, "bls": bls, "syslinux": syslinux}[kind](d, n)
