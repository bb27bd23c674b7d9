"""tpm-capture.py BUILD DIR - make-real.sh's TPM part: the firmware's own
TCG event logs. Boots bootmenu (BUILD/bootmenu.efi, QEMU TCG) to its
rescue shell with a TPM 2.0 (swtpm, as tests/e2e/test_tpm.py), once under
SeaBIOS and once under OVMF, and reads the log the kernel took from the
firmware (securityfs, tpm0/binary_bios_measurements) over the serial line
in hex. Each log becomes DIR/real-<firmware>.evlog; one longer than 64 KiB
is cut after its last whole event before that."""
import os
import re
import struct
import sys

from guest import shell

MAX = 65536
LOG = "/sys/kernel/security/tpm0/binary_bios_measurements"


def read_log(build, name, uefi):
    out = shell(build, name, "dmesg -n 1; mount -t securityfs none /sys/kernel/security "
                "2>/dev/null; echo LOG-BEGIN; hexdump -v -e '32/1 \"%%02x\" \"\\n\"' %s; "
                "echo LOG-END $(wc -c < %s)\n" % (LOG, LOG), r"LOG-END \d+",
                uefi=uefi, tpm=True)
    m = re.search(r"^LOG-BEGIN\n(.*?)^LOG-END (\d+)$", out, re.S | re.M)
    if not m:
        sys.exit("tpm-capture: no event log from %s" % name)
    # only the hex lines: a kernel message may still come between them
    log = bytes.fromhex("".join(re.findall(r"^([0-9a-f]+) *$", m.group(1), re.M)))
    if len(log) != int(m.group(2)):
        sys.exit("tpm-capture: %s: %d bytes read, %s in the log" % (name, len(log), m.group(2)))
    return log


def cut(log):
    """@log up to its last whole event within MAX bytes (TCG PC Client
    spec: a SHA-1 TCG_PCR_EVENT first, then TCG_PCR_EVENT2 with the digest
    sizes its Spec ID event names)."""
    if len(log) <= MAX:
        return log
    size = struct.unpack_from("<I", log, 28)[0]
    spec = log[32:32 + size]
    sizes = {}
    n = struct.unpack_from("<I", spec, 24)[0]
    for i in range(n):
        alg, dsize = struct.unpack_from("<HH", spec, 28 + 4 * i)
        sizes[alg] = dsize
    off = end = 32 + size
    while off < len(log):
        count = struct.unpack_from("<I", log, off + 8)[0]
        p = off + 12
        for _ in range(count):
            p += 2 + sizes[struct.unpack_from("<H", log, p)[0]]
        p += 4 + struct.unpack_from("<I", log, p)[0]
        if p > MAX:
            break
        off = end = p
    return log[:end]


def main(build, d):
    for name, uefi in (("seabios", False), ("ovmf", True)):
        log = read_log(build, "seed-tpm-" + name, uefi)
        with open(os.path.join(d, "real-%s.evlog" % name), "wb") as f:
            f.write(cut(log))


if __name__ == "__main__":
    main(*sys.argv[1:])
