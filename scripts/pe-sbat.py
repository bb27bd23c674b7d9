#!/usr/bin/env python3
"""scripts/pe-sbat.py - an .sbat section for a PE image, for shim.

  pe-sbat.py text  CSV [NAME=VALUE...]            the section's text on stdout
  pe-sbat.py add   IN OUT CSV [NAME=VALUE...]     OUT: IN with an .sbat section
  pe-sbat.py check IMAGE CSV [NAME=VALUE...]      IMAGE's .sbat is that text
  pe-sbat.py show  IMAGE                          IMAGE's .sbat, as it is

CSV is configs/sbat.csv: '#' lines and blank lines are dropped, @NAME@ is
replaced by VALUE, and every line left must have shim's six fields, none
empty (shim refuses the whole image over one short line). The first line
must be the "sbat,1" line of SBAT.md.

The image is an unsigned PE32+ (add refuses a signed one: sign after).
Made for the x86 bzImage's hand-written PE header (arch/x86/boot/header.S
of Debian's 6.1: .setup, .text, .data in the boot sector, SizeOfHeaders
0x1000, file alignment 0x200, section alignment 0x1000, no relocations),
but nothing in it is particular to the kernel except one limit: in a
bzImage the section table may not reach 0x1ef, where the real-mode setup
header starts (sentinel at 0x1ef, hdr at 0x1f1), so one more 40-byte
header has to fit between the table's end and 0x1ef, in bytes the linker
filled with 0xff (6.1: the table starts at 0xf8 and its three headers end
at 0x170, four with EFI_MIXED's .compat at 0x198: room for three more, or
two). The new section:
  - its header right after the last one (NumberOfSections + 1);
  - its data at the end of the file, at a FileAlignment boundary (the
    bzImage ends on one), SizeOfRawData rounded up to FileAlignment and
    zero-filled, VirtualSize the text's exact length (what shim reads:
    SizeOfRawData bytes from PointerToRawData, up to the first NUL);
  - VirtualAddress past the whole image (SizeOfImage, page aligned), so
    no loader maps it over the kernel's .data/.bss; SizeOfImage grows by
    the section's aligned size; SizeOfHeaders is unchanged (the table
    still ends far below it);
  - initialized data, read-only, no relocations (shim refuses an .sbat
    with relocations).
The BIOS side reads only the setup header (setup_sects, syssize), which
stays as it was: the appended bytes are loaded and ignored there as a
signature appended by sbsign is.
"""
import os
import re
import struct
import sys

SBAT_HEADER = "sbat,1,SBAT Version,sbat,1,https://github.com/rhboot/shim/blob/main/SBAT.md"
SECTION_HDR = 40
BZ_SETUP_HEADER = 0x1ef  # sentinel, then struct setup_header at 0x1f1
SCN_DATA_READ = 0x00000040 | 0x40000000  # CNT_INITIALIZED_DATA | MEM_READ


class Error(Exception):
    pass


def align(n, a):
    return (n + a - 1) // a * a if a else n


def sbat_text(csv_path, values):
    """The section's bytes from CSV and {NAME: VALUE}."""
    lines = []
    for n, raw in enumerate(open(csv_path, encoding="utf-8").read().split("\n"), 1):
        line = raw.rstrip("\r")
        if not line.strip() or line.startswith("#"):
            continue
        for k, v in values.items():
            line = line.replace("@%s@" % k, v)
        if re.search(r"@[A-Z_][A-Z0-9_]*@", line):
            raise Error("%s:%d: a placeholder has no value: %s" % (csv_path, n, line))
        fields = line.split(",")
        if len(fields) != 6 or any(not f.strip() for f in fields):
            raise Error("%s:%d: not six non-empty fields: %s" % (csv_path, n, line))
        if any(c in line for c in "\"\0\t"):
            raise Error("%s:%d: quotes, tabs or NULs: %s" % (csv_path, n, line))
        if not fields[1].isdigit():
            raise Error("%s:%d: the generation %r is not a number" % (csv_path, n, fields[1]))
        if any(fields[0] == l.split(",")[0] for l in lines):
            raise Error("%s:%d: component %s twice" % (csv_path, n, fields[0]))
        lines.append(line)
    if not lines or lines[0] != SBAT_HEADER:
        raise Error("%s: the first line must be %s" % (csv_path, SBAT_HEADER))
    return ("\n".join(lines) + "\n").encode("ascii")


class PE:
    """The few fields of a PE image that placing a section needs."""

    def __init__(self, data):
        self.data = data
        if data[:2] != b"MZ":
            raise Error("not a PE image (no MZ)")
        self.pe = struct.unpack_from("<I", data, 0x3c)[0]
        if data[self.pe:self.pe + 4] != b"PE\0\0":
            raise Error("not a PE image (no PE signature)")
        coff = self.pe + 4
        self.nsec_off = coff + 2
        self.nsec, = struct.unpack_from("<H", data, self.nsec_off)
        opt_size, = struct.unpack_from("<H", data, coff + 16)
        self.opt = coff + 20
        magic, = struct.unpack_from("<H", data, self.opt)
        if magic not in (0x10b, 0x20b):
            raise Error("unknown optional header magic %#x" % magic)
        plus = magic == 0x20b
        self.salign, self.falign = struct.unpack_from("<II", data, self.opt + 32)
        self.size_of_image_off = self.opt + 56
        self.size_of_image, self.size_of_headers = struct.unpack_from(
            "<II", data, self.size_of_image_off)
        ndirs_off = self.opt + (108 if plus else 92)
        ndirs, = struct.unpack_from("<I", data, ndirs_off)
        self.secdir = (0, 0)
        if ndirs > 4:
            self.secdir = struct.unpack_from("<II", data, ndirs_off + 4 + 4 * 8)
        self.table = self.opt + opt_size
        self.sections = []
        for i in range(self.nsec):
            off = self.table + i * SECTION_HDR
            name, vsize, va, rsize, rptr, relptr, _, nrel, _, chars = \
                struct.unpack_from("<8sIIIIIIHHI", data, off)
            self.sections.append(dict(name=name.rstrip(b"\0").decode("latin-1"),
                                      raw_name=name, vsize=vsize, va=va,
                                      rsize=rsize, rptr=rptr, relptr=relptr,
                                      nrel=nrel, chars=chars, off=off))
        self.bzimage = data[0x202:0x206] == b"HdrS"

    def table_limit(self):
        """Where the section table has to end."""
        limit = self.size_of_headers
        for s in self.sections:
            if s["rsize"]:
                limit = min(limit, s["rptr"])
        if self.bzimage:
            limit = min(limit, BZ_SETUP_HEADER)
        return limit

    def named(self, name):
        return [s for s in self.sections if s["name"] == name]


def add(data, text):
    pe = PE(data)
    if pe.secdir[1]:
        raise Error("the image is signed already: add .sbat first, then sign")
    if pe.named(".sbat"):
        raise Error("the image has an .sbat section already")
    end = pe.table + pe.nsec * SECTION_HDR
    if end + SECTION_HDR > pe.table_limit():
        raise Error("no room for one more section header: the table ends at "
                    "%#x, the limit is %#x" % (end, pe.table_limit()))
    gap = data[end:end + SECTION_HDR]
    if gap not in (b"\0" * SECTION_HDR, b"\xff" * SECTION_HDR):
        raise Error("the %d bytes after the section table (%#x) are not padding"
                    % (SECTION_HDR, end))
    raw_end = max([s["rptr"] + s["rsize"] for s in pe.sections if s["rsize"]] +
                  [pe.size_of_headers])
    if len(data) != raw_end:
        raise Error("%d bytes after the last section's data: they would not "
                    "be covered by a signature" % (len(data) - raw_end))
    if not pe.falign or not pe.salign:
        raise Error("no file or section alignment in the header")
    rptr = align(len(data), pe.falign)
    va = align(max([s["va"] + s["vsize"] for s in pe.sections] +
                   [pe.size_of_image]), pe.salign)
    rsize = align(len(text), pe.falign)
    hdr = struct.pack("<8sIIIIIIHHI", b".sbat\0\0\0", len(text), va, rsize,
                      rptr, 0, 0, 0, 0, SCN_DATA_READ)
    out = bytearray(data)
    out[end:end + SECTION_HDR] = hdr
    struct.pack_into("<H", out, pe.nsec_off, pe.nsec + 1)
    struct.pack_into("<I", out, pe.size_of_image_off,
                     va + align(len(text), pe.salign))
    out += b"\0" * (rptr - len(data))
    out += text + b"\0" * (rsize - len(text))
    return bytes(out)


def check(data, text):
    """Problems with IMAGE's .sbat against @text (an empty list: none)."""
    pe = PE(data)
    found = pe.named(".sbat")
    if len(found) != 1:
        return ["%d .sbat sections, not 1" % len(found)]
    s = found[0]
    bad = []
    file_end = pe.secdir[0] if pe.secdir[1] else len(data)
    raw = data[s["rptr"]:s["rptr"] + s["rsize"]]
    if s["rptr"] + s["rsize"] > file_end:
        bad.append("its data runs past the image (or into the signature)")
    if s["vsize"] != len(text):
        bad.append("VirtualSize %d, the text is %d bytes" % (s["vsize"], len(text)))
    if raw[:len(text)] != text:
        bad.append("its bytes are not the text:\n%r\nnot\n%r" %
                   (raw[:len(text)], text))
    if raw[len(text):].strip(b"\0"):
        bad.append("non-zero bytes after the text")
    if s["rsize"] < s["vsize"]:
        bad.append("SizeOfRawData below VirtualSize (shim ignores the section)")
    if s["rptr"] % pe.falign or s["va"] % pe.salign:
        bad.append("not aligned (file %#x, memory %#x)" % (s["rptr"], s["va"]))
    if s["nrel"] or s["relptr"]:
        bad.append("relocations")
    if s["chars"] != SCN_DATA_READ:
        bad.append("characteristics %#x" % s["chars"])
    for o in pe.sections:
        if o is not s and o["va"] + o["vsize"] > s["va"]:
            bad.append("%s reaches into its memory" % o["name"])
    if s["va"] + s["vsize"] > pe.size_of_image:
        bad.append("past SizeOfImage")
    end = pe.table + pe.nsec * SECTION_HDR
    if end > pe.table_limit():
        bad.append("the section table ends at %#x, past %#x" % (end, pe.table_limit()))
    if pe.bzimage and data[0x1fe:0x200] != b"\x55\xaa":
        bad.append("the boot sector's 0xAA55 is gone")
    return bad


def values_of(args):
    vals = {}
    for a in args:
        if "=" not in a:
            raise Error("not NAME=VALUE: %s" % a)
        k, v = a.split("=", 1)
        if any(c in v for c in ",\n\r\"") or not v:
            raise Error("%s: empty, or a comma, quote or newline in it" % a)
        vals[k] = v
    return vals


def main(argv):
    if len(argv) < 2:
        sys.exit(__doc__.split("\n\n")[0])
    cmd, rest = argv[1], argv[2:]
    try:
        if cmd == "text" and rest:
            sys.stdout.buffer.write(sbat_text(rest[0], values_of(rest[1:])))
        elif cmd == "add" and len(rest) >= 3:
            src, dst, csv = rest[:3]
            text = sbat_text(csv, values_of(rest[3:]))
            out = add(open(src, "rb").read(), text)
            with open(dst + ".tmp", "wb") as f:
                f.write(out)
            os.replace(dst + ".tmp", dst)
            print("  SBAT %s (.sbat from %s, %d bytes)" % (dst, csv, len(text)))
        elif cmd == "check" and len(rest) >= 2:
            bad = check(open(rest[0], "rb").read(),
                        sbat_text(rest[1], values_of(rest[2:])))
            if bad:
                sys.exit("pe-sbat: %s: %s" % (rest[0], "; ".join(bad)))
            print("pe-sbat: %s: .sbat as %s says" % (rest[0], rest[1]))
        elif cmd == "show" and len(rest) == 1:
            data = open(rest[0], "rb").read()
            pe = PE(data)
            for s in pe.named(".sbat"):
                sys.stdout.buffer.write(data[s["rptr"]:s["rptr"] + s["vsize"]])
        else:
            sys.exit(__doc__.split("\n\n")[0])
    except (Error, OSError, struct.error) as e:
        sys.exit("pe-sbat: %s" % e)


if __name__ == "__main__":
    main(sys.argv)
