#!/usr/bin/env python3
"""Faults: kexec refusals injected through the test double of the kexec
calls (BOOTMENU_KEXEC_FAULT on the kernel command line reaches bootmenu
through /init's environment; only the fault build takes it, booted as our
kernel with build/initramfs-fault.cpio.gz), and bootmenu killed under
/init."""
import os
import re
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))
from qemu import Qemu, check, fault_boot, need  # noqa: E402

B = os.path.abspath(sys.argv[1])
EFI = os.path.join(B, "bootmenu.efi")
DEMO = os.path.join(B, "demo.img")
RESTART = r"init: bootmenu (exited|was killed)"
EPERM_LOG = {}


def load_eperm_falls_back():
    q = Qemu(B, "faults-load-eperm", **fault_boot(B),
             append="bootmenu.timeout=0 BOOTMENU_KEXEC_FAULT=load:EPERM",
             disks=[need(DEMO)])
    try:
        q.expect(r"init: bootmenu \d+\.\d+", 90)
        q.expect(r"BOOTMENU-TARGET: booted entry=bls", 180)
        EPERM_LOG["out"] = q.output()
        if re.search(RESTART, q.output()):
            raise AssertionError("/init restarted bootmenu")
    finally:
        q.close()


def load_eperm_names_syscall():
    out = EPERM_LOG.get("out")
    if out is None:
        raise AssertionError("the load:EPERM guest did not boot")
    before = out.split("BOOTMENU-TARGET")[0]
    if "kexec_file_load" not in before:
        raise AssertionError("bootmenu's output does not say it used kexec_file_load")


def enomem_stays_up():
    q = Qemu(B, "faults-enomem", **fault_boot(B),
             append="bootmenu.timeout=0 BOOTMENU_KEXEC_FAULT=load:ENOMEM,file:ENOMEM",
             disks=[need(DEMO)])
    try:
        q.expect(r"init: bootmenu \d+\.\d+", 90)
        q.expect(r"cannot boot \"Demo BLS[^\"]*\": kexec_\w+ failed: [^\r\n]*ENOMEM", 180)
        time.sleep(5)
        q.send("\r")  # dismiss the dialog: back to the menu
        time.sleep(5)
        out = q.output()
        if re.search(RESTART, out):
            raise AssertionError("bootmenu died: " + re.search(r"init: bootmenu.*", out).group(0))
        if "BOOTMENU-TARGET" in out:
            raise AssertionError("booted although both syscalls fail")
        if q.proc.poll() is not None:
            raise AssertionError("the guest stopped")
    finally:
        q.close()


def killed_is_restarted():
    """The rescue shell leaves a job behind that signals the bootmenu /init
    starts on `exit`: SIGSEGV, then SIGKILL; /init must restart it each time
    within a second and the menu must come back."""
    q = Qemu(B, "faults-killed", kernel=need(EFI),
             append="bootmenu.shell bootmenu.timeout=300", disks=[need(DEMO)])
    try:
        q.expect(r"rescue shell", 90)
        q.send("(trap '' HUP; sleep 20; kill -SEGV $(pidof bootmenu); sleep 15; "
               "kill -KILL $(pidof bootmenu)) >/dev/null 2>&1 & echo ARMED\n")
        q.expect(r"ARMED", 20)
        q.send("exit\n")
        for sig in (11, 9):
            q.expect(r"init: bootmenu was killed by signal %d after \d+ ms; restarting" % sig, 60)
            t0 = q.elapsed()
            q.expect(r"init: bootmenu \d+\.\d+|Demo BLS", 10)
            if q.elapsed() - t0 > 3:  # TCG slack over the 1 s
                raise AssertionError("restart after signal %d took %.1fs" % (sig, q.elapsed() - t0))
            q.expect(r"Demo BLS", 30)  # the menu is back with the demo's entries
    finally:
        q.close()


ok = check("e2e.faults.load_eperm_falls_back_to_file", load_eperm_falls_back)
ok &= check("e2e.faults.load_eperm_names_syscall", load_eperm_names_syscall)
ok &= check("e2e.faults.enomem_error_and_stays_up", enomem_stays_up)
ok &= check("e2e.faults.killed_is_restarted", killed_is_restarted)
sys.exit(0 if ok else 1)
