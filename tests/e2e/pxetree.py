"""tests/e2e/pxetree.py - a TFTP tree in the pxelinux way for QEMU's user
network (tftp=, bootfile=pxelinux.0): the tests of network boot share it
(test_netboot.py, test_netauto.py)."""
import os
import shutil

from qemu import need

CON = "console=ttyS0,115200"


def pxe_cfg(entry):
    """A pxelinux config whose DEFAULT boots the target with
    demo.entry=@entry after 1 s; a decoy label comes first, so the
    entry booted is the DEFAULT, not merely the first."""
    label = ("  KERNEL vmlinuz\n"
             "  APPEND initrd=initrd.gz %s demo.entry=%%s target.poweroff\n" % CON)
    return ("DEFAULT %s\nTIMEOUT 10\n"
            "LABEL %s-decoy\n" % (entry, entry) + label % (entry + "-decoy") +
            "LABEL %s\n" % entry + label % entry)


def tftp_tree(build, top, case, configs):
    """@top/@case/ (made again): a placeholder pxelinux.0, the target's
    kernel and initrd from @build, and @configs ({name under
    pxelinux.cfg/: entry}, each a pxe_cfg()). Returns the directory."""
    d = os.path.join(top, case)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(os.path.join(d, "pxelinux.cfg"))
    with open(os.path.join(d, "pxelinux.0"), "wb") as f:
        # bootmenu never runs it; only its name matters
        f.write(b"placeholder: not a real pxelinux.0\n")
    shutil.copy(need(os.path.join(build, "kernel", "bzImage")), os.path.join(d, "vmlinuz"))
    shutil.copy(need(os.path.join(build, "target-initrd.cpio.gz")),
                os.path.join(d, "initrd.gz"))
    for name, entry in configs.items():
        with open(os.path.join(d, "pxelinux.cfg", name), "w") as f:
            f.write(pxe_cfg(entry))
    return d
