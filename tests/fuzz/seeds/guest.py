"""guest.py - what the seed scripts share: bootmenu (BUILD/bootmenu.efi) in
QEMU (tests/e2e/qemu.py) to its rescue shell, one command line sent, its
serial output back."""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "e2e"))
from qemu import Qemu, need  # noqa: E402,F401


def shell(build, name, cmd, done, **kw):
    """Boot bootmenu to its rescue shell (Qemu's other arguments in @kw),
    send @cmd, wait for the pattern @done; the serial output, CRs left
    out."""
    q = Qemu(build, name, kernel=need(os.path.join(build, "bootmenu.efi")),
             append="bootmenu.shell", **kw)
    try:
        q.expect(r"rescue shell", 180)
        q.send(cmd)
        q.expect(done, 300)
        return q.output().replace("\r", "")
    finally:
        q.close()
