"""efi-capture.py BUILD LOADOPT_DIR DEVPATH_DIR - make-real.sh's EFI part:
the boot options OVMF writes. OVMF (QEMU TCG) boots BUILD/esp.img
(bootmenu as the removable-media loader; a snapshot, never written) with
a CD-ROM drive and a NIC on a restricted user network, so the firmware
makes its own Boot#### options (its setup and shell, the disk, the
DVD-ROM, PXE and HTTP boot over IPv4 and IPv6), and they are read from the
variable store QEMU kept. Each option's
EFI_LOAD_OPTION (the variable without its 4 bytes of attributes) goes to
LOADOPT_DIR/real-<name>, BootOrder too; its device path list to
DEVPATH_DIR/real-<name>, one per sequence of node types."""
import os
import re
import struct
import sys
import uuid

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "e2e"))
from qemu import Qemu, need  # noqa: E402

GLOBAL = uuid.UUID("8be4df61-93ca-11d2-aa0d-00e098032b8c").bytes_le  # EFI_GLOBAL_VARIABLE


def read_vars(build):
    """Boot the firmware from BUILD/esp.img until bootmenu's init runs
    (the firmware has made its options by then), then read the Boot####
    and BootOrder variables from the variable store QEMU kept."""
    logs = os.environ.get("TEST_LOGS") or os.path.join(build, "test-logs")
    q = Qemu(build, "seed-efi", uefi=True, disks=[need(os.path.join(build, "esp.img"))],
             extra=["-nic", "user,model=virtio-net-pci,restrict=on",
                    "-drive", "if=none,id=cd,media=cdrom", "-device", "ide-cd,drive=cd"])
    try:
        q.expect(r"init: bootmenu \d+\.\d+", 600)
    finally:
        q.close()
    with open(os.path.join(logs, "seed-efi.OVMF_VARS.fd"), "rb") as f:
        return store_vars(f.read())


def store_vars(fd):
    """The valid EFI_GLOBAL_VARIABLE Boot#### and BootOrder variables of an
    OVMF variable store (EDK II: the firmware volume's header, then
    VARIABLE_STORE_HEADER, 28 bytes, then AUTHENTICATED_VARIABLE_HEADERs,
    60 bytes each, 4-byte aligned), by name."""
    off = struct.unpack_from("<H", fd, 0x30)[0] + 28
    found = {}
    while off + 60 <= len(fd) and struct.unpack_from("<H", fd, off)[0] == 0x55AA:
        state = fd[off + 2]
        nsize, dsize = struct.unpack_from("<II", fd, off + 36)
        name = fd[off + 60:off + 60 + nsize].decode("utf-16-le").rstrip("\0")
        data = fd[off + 60 + nsize:off + 60 + nsize + dsize]
        if state == 0x3F and fd[off + 44:off + 60] == GLOBAL and \
                re.fullmatch(r"Boot[0-9A-F]{4}|BootOrder", name):
            found[name] = data
        off = (off + 60 + nsize + dsize + 3) & ~3
    if not any(n.startswith("Boot0") for n in found):
        sys.exit("efi-capture: no Boot#### variable in the variable store")
    return found


def path_of(opt):
    """The FilePathList of an EFI_LOAD_OPTION (UEFI 2.10, 3.1.3)."""
    plen = struct.unpack_from("<H", opt, 4)[0]
    off = 6
    while opt[off:off + 2] != b"\0\0":
        off += 2
    return opt[off + 2:off + 2 + plen]


def nodes(p):
    """The (type, subtype) of each node of device path @p, in order."""
    out, off = [], 0
    while off + 4 <= len(p):
        out.append((p[off], p[off + 1]))
        n = struct.unpack_from("<H", p, off + 2)[0]
        if n < 4:
            break
        off += n
    return tuple(out)


def main(build, lo_dir, dp_dir):
    kinds = set()
    for name, b in sorted(read_vars(build).items()):
        with open(os.path.join(lo_dir, "real-" + name), "wb") as f:
            f.write(b)
        if name == "BootOrder":
            continue
        p = path_of(b)
        key = nodes(p)
        if key in kinds:
            continue
        kinds.add(key)
        with open(os.path.join(dp_dir, "real-" + name), "wb") as f:
            f.write(p)


if __name__ == "__main__":
    main(*sys.argv[1:])
