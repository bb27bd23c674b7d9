"""tests/e2e/qemu.py - drive a QEMU guest over its serial console.

A test starts a Qemu, waits for lines with expect(), types with send(),
and reports with check(). Every guest's serial output is kept in
BUILD/test-logs/<name>.serial.log. TCG by default; KVM=1 in the
environment selects KVM (it hangs on some hosts, so it is never assumed).
"""
import os
import re
import socket
import subprocess
import sys
import threading
import time

OVMF_CODE = "/usr/share/OVMF/OVMF_CODE_4M.fd"
OVMF_VARS = "/usr/share/OVMF/OVMF_VARS_4M.fd"
# Secure Boot: the firmware that enforces it (q35 with SMM, its flash
# marked secure) and Debian's variables with the snakeoil key enrolled as
# PK, KEK and db
OVMF_CODE_SB = "/usr/share/OVMF/OVMF_CODE_4M.secboot.fd"
OVMF_VARS_SB = "/usr/share/OVMF/OVMF_VARS_4M.snakeoil.fd"


class Timeout(Exception):
    pass


class Qemu:
    def __init__(self, build, name, kernel=None, append="", initrd=None,
                 disks=(), uefi=False, mem=512, extra=(), snapshot=True,
                 reboot=False, vars_file=None, tpm=False):
        """@uefi: False (SeaBIOS), True (OVMF), "secboot" (OVMF enforcing
        Secure Boot with the snakeoil key enrolled). @vars_file: the OVMF
        variables to use and keep (made from the template when missing),
        for a test that boots twice; else a fresh copy each time.
        @reboot: a guest's reset restarts it (default: QEMU exits).
        @tpm: attach a TPM 2.0 (swtpm, a fresh state each time) on QEMU's
        tpm-tis device; raises Skip when swtpm is not installed."""
        self.build = os.path.abspath(build)
        self.name = name
        logs = os.environ.get("TEST_LOGS") or os.path.join(self.build, "test-logs")
        os.makedirs(logs, exist_ok=True)
        self.log_path = os.path.join(logs, name + ".serial.log")
        self.mon_path = os.path.join(logs, name + ".monitor.sock")
        accel = "kvm" if os.environ.get("KVM") == "1" else "tcg"
        secboot = uefi == "secboot"
        machine = "q35,accel=" + accel + (",smm=on" if secboot else "")
        args = ["qemu-system-x86_64", "-machine", machine,
                "-m", str(mem), "-display", "none"] + \
            ([] if reboot else ["-no-reboot"]) + [
                "-serial", "stdio",
                "-monitor", "unix:%s,server=on,wait=off" % self.mon_path]
        if uefi:
            # always a copy of the variables: the firmware writes them
            vars_copy = vars_file or os.path.join(logs, name + ".OVMF_VARS.fd")
            if not (vars_file and os.path.exists(vars_file)):
                with open(OVMF_VARS_SB if secboot else OVMF_VARS, "rb") as src, \
                        open(vars_copy, "wb") as dst:
                    dst.write(src.read())
            if secboot:
                args += ["-global", "driver=cfi.pflash01,property=secure,value=on"]
            args += ["-drive", "if=pflash,format=raw,readonly=on,file=" +
                     (OVMF_CODE_SB if secboot else OVMF_CODE),
                     "-drive", "if=pflash,format=raw,file=" + vars_copy]
        if kernel:
            args += ["-kernel", kernel, "-append", append]
        if initrd:
            args += ["-initrd", initrd]
        for d in disks:
            if isinstance(d, str):
                d = {"file": d}
            spec = "file=%s,format=raw,if=%s" % (d["file"], d.get("if", "virtio"))
            if snapshot and d.get("snapshot", True):
                spec += ",snapshot=on"
            args += ["-drive", spec]
        self.swtpm = None
        if tpm:
            args += self._start_swtpm(logs)
        args += list(extra) + default_nic(extra)
        self.args = args
        self.buf = ""
        self.stamps = []  # _read(): (end offset of a chunk, arrival time)
        self.pos = 0
        self.lock = threading.Lock()
        self.log = open(self.log_path, "w", errors="replace")
        self.log.write("# " + " ".join(args) + "\n")
        self.started = time.monotonic()
        self.proc = subprocess.Popen(args, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT)
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _start_swtpm(self, logs):
        """A TPM 2.0 emulator with a fresh state, and QEMU's arguments."""
        import shutil
        if not shutil.which("swtpm"):
            raise Skip("swtpm is not installed (Debian's swtpm package)")
        state = os.path.join(logs, self.name + ".tpm")
        shutil.rmtree(state, ignore_errors=True)
        os.makedirs(state)
        sock = os.path.join(state, "ctrl.sock")
        self.swtpm = subprocess.Popen(
            ["swtpm", "socket", "--tpm2", "--tpmstate", "dir=" + state,
             "--ctrl", "type=unixio,path=" + sock, "--terminate",
             "--log", "file=%s/swtpm.log,level=1" % state],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(100):
            if os.path.exists(sock):
                break
            time.sleep(0.05)
        return ["-chardev", "socket,id=chrtpm,path=" + sock,
                "-tpmdev", "emulator,id=tpm0,chardev=chrtpm",
                "-device", "tpm-tis,tpmdev=tpm0"]

    def _read(self):
        """The serial line into self.buf; self.stamps notes when each chunk
        arrived: (offset of its end in self.buf, the host's monotonic
        clock), for the tests and the bench that time a line."""
        while True:
            data = self.proc.stdout.read1(4096)
            now = time.monotonic()
            if not data:
                break
            text = data.decode("utf-8", errors="replace")
            with self.lock:
                self.buf += text
                self.stamps.append((len(self.buf), now))
            self.log.write(text)
            self.log.flush()

    def elapsed(self):
        return time.monotonic() - self.started

    def expect(self, pattern, timeout=60):
        """Wait for @pattern (a regex) in output after the last match;
        returns the match. Raises Timeout with the tail of the output."""
        rx = re.compile(pattern)
        end = time.monotonic() + timeout
        while True:
            with self.lock:
                m = rx.search(self.buf, self.pos)
                if m:
                    self.pos = m.end()
                    return m
            if time.monotonic() > end:
                raise Timeout("no /%s/ within %ss; last output:\n%s" %
                              (pattern, timeout, self.tail()))
            if self.proc.poll() is not None:
                time.sleep(0.2)
                with self.lock:
                    m = rx.search(self.buf, self.pos)
                if m:
                    self.pos = m.end()
                    return m
                raise Timeout("QEMU exited (%s) before /%s/; last output:\n%s" %
                              (self.proc.returncode, pattern, self.tail()))
            time.sleep(0.05)

    def output(self):
        with self.lock:
            return self.buf

    def tail(self, n=1500):
        with self.lock:
            return self.buf[-n:]

    def send(self, text):
        self.proc.stdin.write(text.encode())
        self.proc.stdin.flush()

    def monitor(self, cmd):
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.connect(self.mon_path)
        s.settimeout(5)
        s.sendall((cmd + "\n").encode())
        out = b""
        try:
            while True:
                chunk = s.recv(4096)
                if not chunk:
                    break
                out += chunk
                if out.rstrip().endswith(b"(qemu)") and out.count(b"(qemu)") >= 2:
                    break
        except socket.timeout:
            pass
        s.close()
        return out.decode(errors="replace")

    def wait_exit(self, timeout=60):
        try:
            return self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            raise Timeout("QEMU still running after %ss" % timeout)

    def close(self):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        self.reader.join(2)
        self.log.close()
        if self.swtpm and self.swtpm.poll() is None:
            self.swtpm.kill()
            self.swtpm.wait()


def default_nic(extra):
    """QEMU's own default NIC (q35: an e1000e on user networking that
    reaches the outside) replaced by the same card on a restricted user
    network, when @extra names no network of its own: bootmenu asks DHCP
    on every link by default (network = auto), and no guest may ever reach
    outside. QEMU's DHCP server still answers, naming no boot file."""
    if any(a in ("-nic", "-netdev", "-net") for a in extra):
        return []
    return ["-nic", "user,restrict=on,model=e1000e"]


class Skip(Exception):
    """Raised by a test that cannot run here (a build output missing, not
    root): reported as SKIP with the reason, never as PASS."""


def check(name, fn):
    """Run @fn(); print PASS name, SKIP name: why, or FAIL name: why."""
    t0 = time.monotonic()
    try:
        fn()
    except Skip as e:
        print("SKIP %s: %s" % (name, e))
        sys.stdout.flush()
        return True
    except Exception as e:  # a failed test, whatever raised
        print("FAIL %s: %s" % (name, str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__))
        sys.stderr.write("---- %s\n%s\n" % (name, e))
        sys.stdout.flush()
        return False
    print("PASS %s (%.1fs)" % (name, time.monotonic() - t0))
    sys.stdout.flush()
    return True


def fault_boot(build):
    """-kernel and -initrd of the fault build: build/kernel/bzImage with
    build/initramfs-fault.cpio.gz, whose bootmenu and kexload make their
    kexec calls through tests/double/ and so take BOOTMENU_KEXEC_FAULT and
    BOOTMENU_KEXEC_LOCKDOWN from the command line (/init's environment).
    bootmenu.efi has no such seam."""
    return {"kernel": need(os.path.join(build, "kernel", "bzImage")),
            "initrd": need(os.path.join(build, "initramfs-fault.cpio.gz"))}


def need(path):
    if not os.path.exists(path):
        raise Skip("missing %s (run make first)" % path)
    return path
