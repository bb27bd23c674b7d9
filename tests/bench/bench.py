#!/usr/bin/env python3
"""tests/bench/bench.py BUILD - the measurements of `make bench`.

Writes BUILD/bench/results.json, BUILD/bench/report.md and
BUILD/bench/timeline.png. Every boot time is taken on the host from QEMU's
start to the arrival of a serial-console marker (each chunk QEMU writes is
stamped when it is read). Comparisons are alternated A, B, A, B... within
one run. A figure that needs a piece of bootmenu that is not there yet is
reported as "skipped: <why>", never faked. Nothing here fails on a figure.

Environment: BENCH_RUNS (default 5) repetitions of every timed boot;
KVM=1 for KVM instead of TCG; BENCH_ONLY=1,2,... to run some measurements
(the others are reported as skipped by request, or with BENCH_KEEP=1 kept
as the last results.json has them; a note in the report gives both dates).
"""
import bisect
import datetime
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "e2e"))
from qemu import Qemu, Timeout  # noqa: E402

B = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "build")
O = os.path.join(B, "bench")
RUNS = max(1, int(os.environ.get("BENCH_RUNS", "5")))
KVM = os.environ.get("KVM") == "1"
ONLY = set(filter(None, os.environ.get("BENCH_ONLY", "").split(",")))
T_START = time.monotonic()

EFI = os.path.join(B, "bootmenu.efi")
KERNEL = os.path.join(B, "kernel", "bzImage")
INITRAMFS = os.path.join(B, "initramfs.cpio.gz")
ESP = os.path.join(O, "esp.img")  # run.sh: images/esp.sh over the current bootmenu.efi
DEMO = os.path.join(B, "demo.img")
DEBV = open(os.path.join(B, "debkernel", "VERSION")).read().strip()
MENU_IMG = os.path.join(O, "menu.img")
BOOT_IMG = os.path.join(O, "boot.img")
BOOT40_IMG = os.path.join(O, "boot40.img")
GRUB_ISO = os.path.join(O, "grub.iso")
GRUB_ESP = os.path.join(O, "grub-efi", "esp.img")  # run.sh: grub-efi.sh
GUEST_CPIO = os.path.join(O, "guest-initrd.cpio")
HOST_BM = os.path.join(B, "host", "bootmenu")
PEAKRSS_HOST = os.path.join(O, "peakrss.host")
MEM = 1024  # MiB for every timed boot (the memory floor is measured apart)

# escape sequences (ncurses and GRUB's terminfo draw with them): the menu
# markers are matched on the text with these taken out
ESC_RE = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)"
                    r"|\x1b[()*+][0-9A-Za-z]|\x1b[=>78DEHMNOZc]|[\x0e\x0f]")
MENU_RE = r"Debian GNU/Linux"  # the first demo disk entry, in both menus
# bootmenu saying it could not boot the entry (it then shows its menu again)
BOOT_FAIL_RE = r"bootmenu: cannot boot[^\r\n]*"
TARGET_KERNEL_RE = r"Linux version " + re.escape(DEBV)
USERSPACE_RE = r"BOOTMENU-TARGET: booted"
NO_SCAN_RE = (r"(device scan is not built yet[^\r\n]*|bootmenu failed \d+ times"
              r"|rescue shell|Kernel panic[^\r\n]*|not syncing[^\r\n]*)")


def progress(msg):
    print("[bench %5.0fs] %s" % (time.monotonic() - T_START, msg), flush=True)


# --------------------------------------------------------------- QEMU timing
class FirmwareLog:
    """SeaBIOS's own log, which it writes to I/O port 0x402 when a debugcon
    device is there, read from a FIFO and stamped like the serial console.
    QEMU's pipe chardev opens PATH.in and PATH.out read-write; so do we, so
    that neither side waits for the other and nothing is lost before the
    reader runs. QEMU writes the log (about 8 KB) a byte at a time; a reader
    woken for each byte would take the CPU from the guest on a busy host, so
    the FIFO is read every POLL_S, each chunk stamped when read (up to
    POLL_S late). Its cost to the guest: GRUB's BIOS menu in 0.293 s at
    best with it, 0.291 s without (minima of 10 alternated boots; the
    medians were within the noise)."""

    POLL_S = 0.005

    def __init__(self):
        self.dir = tempfile.mkdtemp(prefix="bench-fwlog-")
        base = os.path.join(self.dir, "debugcon")
        for end in (".in", ".out"):
            os.mkfifo(base + end)
        self.fd = os.open(base + ".out", os.O_RDWR | os.O_NONBLOCK)
        self.args = ["-chardev", "pipe,id=fwlog,path=" + base,
                     "-device", "isa-debugcon,iobase=0x402,chardev=fwlog"]
        self.text = ""
        self.stamps = []  # (offset at the end of a chunk, monotonic time)
        self.lock = threading.Lock()
        self.done = False
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self):
        while not self.done:
            time.sleep(self.POLL_S)
            try:
                data = os.read(self.fd, 65536)
            except BlockingIOError:
                continue
            now = time.monotonic()
            with self.lock:
                self.text += data.decode("utf-8", errors="replace")
                self.stamps.append((len(self.text), now))

    def find(self, pattern):
        """Monotonic arrival time of the first match of @pattern, or None."""
        with self.lock:
            m = re.search(pattern, self.text)
            if not m:
                return None
            i = bisect.bisect_left([s[0] for s in self.stamps], m.end())
            return self.stamps[i][1]

    def close(self, keep_as):
        self.done = True
        self.reader.join(1)
        os.close(self.fd)
        shutil.rmtree(self.dir, ignore_errors=True)
        with open(keep_as, "w") as f:
            f.write(self.text)


class TimedQemu(Qemu):
    """Qemu whose reader stamps every chunk with its arrival time, and whose
    wait() can match on escape-stripped text. With @fw_log, SeaBIOS's log
    is read and stamped too (FirmwareLog)."""

    def __init__(self, *a, fw_log=False, **kw):
        self.cursor = 0
        self.fw = FirmwareLog() if fw_log else None
        if self.fw:
            kw["extra"] = list(kw.get("extra", ())) + self.fw.args
        if KVM:
            os.environ["KVM"] = "1"
        super().__init__(*a, **kw)

    def close(self):
        super().close()
        if self.fw:
            self.fw.close(self.log_path.replace(".serial.log", ".seabios.log"))

    def at(self, raw_end):
        """Seconds from QEMU start to the arrival of raw offset @raw_end."""
        with self.lock:
            ends = [s[0] for s in self.stamps]
            i = bisect.bisect_left(ends, raw_end)
            t = self.stamps[min(i, len(self.stamps) - 1)][1]
        return t - self.started

    def wait(self, pattern, timeout, strip=False, fail=None, esc=False):
        """Wait for @pattern after the cursor. Returns (seconds, match).
        Raises Timeout, or Skip when @fail matches first. With @esc, only a
        match with a CSI escape sequence between the cursor and it counts
        (a screen drawn by ncurses or GRUB, not plain text lines)."""
        rx = re.compile(pattern)
        frx = re.compile(fail) if fail else None
        end = time.monotonic() + timeout
        while True:
            with self.lock:
                raw = self.buf
            if strip:
                text, starts, raws = strip_map(raw)
                k = bisect.bisect_right(raws, self.cursor) - 1
                spos = starts[k] + (self.cursor - raws[k]) if k >= 0 else 0
            else:
                text, spos = raw, self.cursor
            m = rx.search(text, spos)
            while m and esc and "\x1b[" not in raw[self.cursor:
                                                   to_raw(m.end(), starts, raws) if strip else m.end()]:
                m = rx.search(text, m.end())
            f = frx.search(text, spos) if frx else None
            if f and (not m or f.start() < m.start()):
                raise Skip(f.group(0).strip())
            if m:
                raw_end = to_raw(m.end(), starts, raws) if strip else m.end()
                self.cursor = raw_end
                return self.at(raw_end), m
            if self.proc.poll() is not None:
                time.sleep(0.3)
                if len(self.buf) == len(raw):
                    raise Timeout("QEMU exited (%s) before /%s/" %
                                  (self.proc.returncode, pattern))
                continue
            if time.monotonic() > end:
                raise Timeout("no /%s/ within %ss; last output: %s" %
                              (pattern, timeout, last_lines(self.tail(600))))
            time.sleep(0.02)


def strip_map(raw):
    """raw text -> (text without escapes, starts, raws): the kept segment k
    begins at text offset starts[k] and raw offset raws[k]."""
    parts, starts, raws = [], [], []
    pos = n = 0
    for m in ESC_RE.finditer(raw):
        if m.start() > pos:
            starts.append(n)
            raws.append(pos)
            parts.append(raw[pos:m.start()])
            n += m.start() - pos
        pos = m.end()
    starts.append(n)
    raws.append(pos)
    parts.append(raw[pos:])
    return "".join(parts), starts, raws


def to_raw(off, starts, raws):
    k = bisect.bisect_right(starts, off) - 1
    return raws[k] + (off - starts[k])


def last_lines(text, n=3):
    text = ESC_RE.sub("", text)
    lines = [ln.strip() for ln in text.replace("\r", "\n").split("\n") if ln.strip()]
    return " | ".join(lines[-n:])


class Skip(Exception):
    pass


# ---------------------------------------------------------------- statistics
def stats(samples, unit="s"):
    s = sorted(samples)
    out = {"median": statistics.median(s), "min": s[0], "max": s[-1],
           "n": len(s), "unit": unit, "samples": samples}
    out["stdev"] = statistics.stdev(s) if len(s) > 1 else 0.0
    return out


def fmt(v, unit="s"):
    if v is None:
        return "-"
    if unit == "s":
        return "%.2f s" % v
    if unit == "ms":
        return "%.1f ms" % v
    if unit == "us":
        return "%.1f µs" % v
    if unit == "KiB":
        return "%.0f KiB" % v
    if unit == "MiB":
        return "%.0f MiB" % v
    if unit == "B":
        return "%d B (%.2f MiB)" % (v, v / 1048576.0)
    return "%s %s" % (v, unit)


def fmt_stats(st):
    if not st or "median" not in st:
        return "-"
    u = st["unit"]
    if st["n"] == 1:
        return fmt(st["median"], u)
    return "%s (%s–%s, n=%d)" % (fmt(st["median"], u), fmt(st["min"], u),
                                 fmt(st["max"], u), st["n"])


# ------------------------------------------------------------------- results
RESULTS = {"measurements": {}}
REPORT = []  # markdown sections, in order


KEEP = os.environ.get("BENCH_KEEP") == "1"


def skipped(key, why):
    if KEEP and key in RESULTS["measurements"]:
        progress("%s: kept from the last run" % key)
        return
    progress("%s skipped: %s" % (key, why))
    RESULTS["measurements"][key] = {"skipped": why}


def want(num):
    return not ONLY or str(num) in ONLY


# ----------------------------------------------------------- boot scenarios
# The stages of a boot, each stamped on the host from QEMU's start. A
# scenario's timed markers (run_scenario's waits) are stages too; the rest
# are found afterwards in the same stamped output (stamp_stages), so that a
# stage with no marker costs no waiting. Order: the timeline's and the
# report's; the text: how each is taken (report.md says it).
STAGES = [
    ("firmware done",
     "SeaBIOS: its log's \"Booting from ROM...\" (`-kernel`) or \"Booting from "
     "DVD/CD...\" (the ISO), read from the isa-debugcon port 0x402 through a FIFO "
     "and stamped like the serial console; OVMF: \"BdsDxe: starting Boot0002\" on "
     "the serial console"),
    ("grub.cfg running", "GRUB: the ISO's/ESP's grub.cfg echoes \"BENCH-GRUB: searching\""),
    ("decompressing", "profile boots only: the decompressor's \"Decompressing Linux\" "
                      "(needs CONFIG_EARLY_PRINTK and CONFIG_X86_VERBOSE_BOOTUP; "
                      "the profile boots add earlyprintk=serial)"),
    ("kernel started", "profile boots only: the decompressor's \"Booting the kernel\" "
                       "(as \"decompressing\")"),
    ("kernel first line",
     "\"Linux version\": the kernel's first line reaches the serial port when the "
     "console registers and prints the log so far, not when it is written. "
     "\"firmware done\" to here is the decompression and the kernel's set-up "
     "before its console: nothing on the console parts them in the timed boots "
     "(the printk clock stays at 0 until the TSC is calibrated, after the console)"),
    ("/init", "the kernel's \"Run /init as init process\""),
    ("bootmenu started", "/init's \"init: bootmenu 0.1.0\", printed just before it "
                         "forks and execs /bin/bootmenu"),
    ("entries on the console", "\"Debian GNU/Linux\" on the console, escape sequences "
                               "removed (drawn or as a plain line)"),
    ("menu drawn", "\"Debian GNU/Linux\" (the disk's first entry) with a screen-drawing "
                   "escape sequence before it (ncurses or GRUB's menu)"),
    ("countdown drawn", "bootmenu: \"Booting <entry> in N s\" first drawn: the "
                        "countdown starts when the start-up scan has settled"),
    ("disks settled", "bootmenu: the countdown's first frame, as \"countdown drawn\" "
                      "(bootmenu starts its countdown when the start-up scan has "
                      "settled); not stamped when there is no countdown (timeout 0)"),
    ("countdown end", "bootmenu: the loading bar's first frame (\"Loading [\", drawn "
                      "as the countdown ends, before the first byte is read), or the "
                      "plain chooser's \"bootmenu: loading\"; GRUB: \"Booting `Debian "
                      "GNU/Linux'\""),
    ("load start", "bootmenu: the same frame as \"countdown end\" (loading starts when "
                   "the countdown ends); GRUB: its entry's \"Loading Linux\" echo"),
    ("initrd load start", "GRUB: its entry's \"Loading initial ramdisk\" echo"),
    ("load done", "bootmenu: \"Starting <entry> (loaded with ...)\"; GRUB: "
                  "\"BENCH-GRUB: loaded\", an echo after the entry's initrd command "
                  "(mkdisks.sh adds it on boot.img and boot40.img)"),
    ("kexec", "our kernel's \"kexec_core: Starting new kernel\""),
    ("target kernel first line", "Debian's \"Linux version " + DEBV + "\""),
    ("target userspace", "the target's /init: \"BOOTMENU-TARGET: booted\""),
]
STAGE_ORDER = [name for name, _ in STAGES]
FW_SEABIOS = ("firmware done", "fw", r"Booting from ")
FW_OVMF = ("firmware done", "serial", r"BdsDxe: starting Boot")
# (stage, where: serial, fw (SeaBIOS's log) or menu (serial, drawn), regex)
KERNEL_STAGES = [
    ("kernel first line", "serial", r"Linux version"),
    ("/init", "serial", r"Run /init as init process"),
    ("bootmenu started", "serial", r"init: bootmenu \d"),
]
BM_STAGES = KERNEL_STAGES + [
    ("menu drawn", "menu", MENU_RE),
    ("disks settled", "serial", r"Booting [^\r\n]{1,200}? in \d+ s"),
    ("countdown end", "serial", r"bootmenu: loading|Loading \["),
    ("load start", "serial", r"bootmenu: loading|Loading \["),
    ("load done", "serial", r"Starting [^\r\n]{1,200}? \(loaded with"),
    ("kexec", "serial", r"kexec_core: Starting new kernel"),
    ("target kernel first line", "serial", TARGET_KERNEL_RE),
]
GRUB_STAGES = [
    ("grub.cfg running", "serial", r"BENCH-GRUB: searching"),
    ("countdown end", "serial", r"Booting `"),
    ("load start", "serial", r"Loading Linux "),
    ("initrd load start", "serial", r"Loading initial ramdisk"),
    ("load done", "serial", r"BENCH-GRUB: loaded"),
    ("target kernel first line", "serial", TARGET_KERNEL_RE),
]
# the profile boots' decompressor lines, when the kernel prints them
DECOMP_STAGES = [("decompressing", "serial", r"Decompressing Linux"),
                 ("kernel started", "serial", r"Booting the kernel")]


def stamp_stages(q, spec):
    """The stages of @spec (BM_STAGES' shape) in @q's output so far, each
    looked for after the one found before it: {stage: seconds}. A "menu"
    stage counts only with an escape sequence between the previous stage
    and it (drawn by ncurses, not a printed line)."""
    raw = q.output()
    text, starts, raws = strip_map(raw)
    got, pos = {}, 0
    for name, where, rx in spec:
        if where == "fw":
            t = q.fw.find(rx) if q.fw else None
            if t is not None:
                got[name] = t - q.started
            continue
        m = re.compile(rx).search(text, pos)
        if m and where == "menu" and "\x1b[" not in raw[to_raw(pos, starts, raws):
                                                       to_raw(m.start(), starts, raws)]:
            m = None
        if not m:
            continue
        pos = m.end()
        got[name] = q.at(to_raw(m.end(), starts, raws))
    return got


def run_scenario(name, qargs, markers, optional_from=None, stages=()):
    """One boot. Returns (times, note): the markers' times, waited for in
    turn, and @stages' (stamp_stages) where no marker has the name. With
    @optional_from naming a marker, a Skip/Timeout from that marker on keeps
    what was reached and returns the reason as the note; earlier, it raises."""
    q = TimedQemu(O, "bench-" + re.sub(r"[^A-Za-z0-9]+", "-", name).strip("-"), **qargs)
    try:
        got, note = wait_markers(q, markers, optional_from)
        for k, v in stamp_stages(q, stages).items():
            got.setdefault(k, v)
        return got, note
    finally:
        q.close()


def wait_markers(q, markers, optional_from):
    """run_scenario()'s waits: {marker: seconds} and a note (or None)."""
    got = {}
    mark = 0
    for i, mk in enumerate(markers):
        mname, rx, tmo, strip, fail = mk[:5]
        opt = mk[5] if len(mk) > 5 else {}
        if opt.get("rewind"):
            q.cursor = mark  # search again from the previous marker's start
        mark = q.cursor
        try:
            got[mname] = q.wait(rx, tmo, strip=strip, fail=fail,
                                esc=opt.get("esc", False))[0]
        except (Skip, Timeout) as e:
            names = [m[0] for m in markers]
            if optional_from and i >= names.index(optional_from):
                return got, "%s not reached: %s" % (mname, str(e).splitlines()[0])
            raise
    return got, None


def alternate(scenarios, runs, label):
    """scenarios: {name: (qargs, markers, optional_from[, stages])}. Runs
    each @runs times, alternating. Returns {name: {"times": {marker: [..]},
    "notes": [...], "skipped": why or None}}."""
    res = {n: {"times": {}, "notes": [], "skipped": None} for n in scenarios}
    for r in range(runs):
        for n, spec in scenarios.items():
            if res[n]["skipped"]:
                continue
            t0 = time.monotonic()
            try:
                got, note = run_scenario(n, *spec)
            except (Skip, Timeout) as e:
                why = str(e).splitlines()[0]
                progress("%s %s run %d/%d: %s" % (label, n, r + 1, runs, why))
                res[n]["skipped"] = why
                continue
            for k, v in got.items():
                res[n]["times"].setdefault(k, []).append(v)
            if note and note not in res[n]["notes"]:
                res[n]["notes"].append(note)
            progress("%s %s run %d/%d: %s%s (%.0fs)" % (
                label, n, r + 1, runs,
                ", ".join("%s %.2fs" % kv for kv in sorted(got.items(), key=lambda kv: kv[1])),
                " [" + note + "]" if note else "", time.monotonic() - t0))
    return res


# The four ways to power on of measurements 1 and 2, in the order they
# alternate (four_ways()): GRUB's beside ours, each pair on the same
# firmware, the BIOS pair under SeaBIOS (its log read for "firmware done"),
# the UEFI pair under OVMF from ESPs made by images/esp.sh.
BM_KERNEL = "bootmenu -kernel"
GRUB_BIOS = "grub2 (BIOS ISO)"
BM_OVMF = "bootmenu OVMF esp.img"
GRUB_EFI = "grub2 (EFI, OVMF esp.img)"
PAIRS = ((BM_KERNEL, GRUB_BIOS), (BM_OVMF, GRUB_EFI))


def grub_qargs(disk, mem=MEM):
    return {"disks": [disk], "mem": mem, "fw_log": True,
            "extra": ["-cdrom", GRUB_ISO, "-boot", "d"]}


def grub_efi_qargs(disk, mem=MEM):
    return {"disks": [GRUB_ESP, disk], "mem": mem, "uefi": True}


def bm_qargs(disk, append="", mem=MEM, uefi=False, fw_log=False):
    if uefi:
        return {"disks": [ESP, disk], "mem": mem, "uefi": True}
    return {"kernel": EFI, "append": append, "disks": [disk], "mem": mem,
            "fw_log": fw_log}


def four_ways(bm_markers, bm_opt, grub_markers, disk, append=""):
    """The scenarios of measurements 1 and 2 over @disk, those that can run:
    {name: (qargs, markers, optional_from, stages)} and notes on the rest."""
    sc, notes = {}, []
    sc[BM_KERNEL] = (bm_qargs(disk, append, fw_log=True), bm_markers, bm_opt,
                     [FW_SEABIOS] + BM_STAGES)
    if os.path.exists(GRUB_ISO):
        sc[GRUB_BIOS] = (grub_qargs(disk), grub_markers, None, [FW_SEABIOS] + GRUB_STAGES)
    else:
        notes.append("%s skipped: no build/bench/grub.iso (grub-pc-bin)" % GRUB_BIOS)
    if not os.path.exists(ESP) or os.path.getmtime(ESP) < os.path.getmtime(EFI):
        notes.append("%s skipped: esp.img missing or older than bootmenu.efi" % BM_OVMF)
    else:
        sc[BM_OVMF] = (bm_qargs(disk, uefi=True), bm_markers, bm_opt, [FW_OVMF] + BM_STAGES)
    if os.path.exists(GRUB_ESP):
        sc[GRUB_EFI] = (grub_efi_qargs(disk), grub_markers, None, [FW_OVMF] + GRUB_STAGES)
    else:
        notes.append("%s skipped: no build/bench/grub-efi/esp.img (grub-efi-amd64-bin)"
                     % GRUB_EFI)
    return sc, notes


def ratio(a, b):
    return a / b if a and b else None


def stage_info(out):
    out["stage_order"] = STAGE_ORDER
    out["stage_how"] = dict(STAGES)
    out["pairs"] = [list(p) for p in PAIRS]


# ------------------------------------------------ 1. power-on to menu drawn
def m1_menu():
    key = "1_power_on_to_menu"
    progress("1. power-on to menu drawn (%d runs, alternating)" % RUNS)
    # our kernel's own lines are stages (stamp_stages), not waits: a lower
    # console loglevel may leave them out
    bm_markers = [
        ("bootmenu started", r"init: bootmenu \d", 120, False, None),
        # the entries on the console, drawn or as plain lines (the chooser
        # main.c prints while the ncurses menu has not landed)
        ("entries on the console", MENU_RE, 60, True, NO_SCAN_RE),
        # the ncurses menu: the same text drawn with escape sequences; the
        # plain chooser boots its default after its timeout instead
        ("menu drawn", MENU_RE, 30, True,
         r"Linux version[^\r\n]*|init: bootmenu exited[^\r\n]*|" + NO_SCAN_RE,
         {"esc": True, "rewind": True}),
        # settle() starts the countdown: in the first frame already when the
        # disks settled before it
        ("countdown drawn", r"Booting [^\r\n]{1,200}? in \d+ s", 30, True, None,
         {"rewind": True}),
    ]
    grub_markers = [
        ("grub.cfg running", r"BENCH-GRUB: searching", 120, False, None),
        ("menu drawn", MENU_RE, 120, True, None, {"esc": True}),
    ]
    sc, notes = four_ways(bm_markers, "entries on the console", grub_markers, MENU_IMG)
    for n in notes:
        RESULTS.setdefault("notes", []).append("1. " + n)
        progress("1. " + n)
    res = alternate(sc, RUNS, "1.")
    out = summarize(res)
    stage_info(out)
    out["profile"] = {"SeaBIOS -kernel": kernel_profile(False),
                      "OVMF -kernel": kernel_profile(True)}
    RESULTS["measurements"][key] = out
    out["ratios"] = {}
    for ours, grub in PAIRS:
        g = med(out, grub, "menu drawn")
        b = med(out, ours, "menu drawn")
        e = med(out, ours, "entries on the console")
        i = med(out, ours, "bootmenu started")
        # issue #38's goals: 2.5x under SeaBIOS, 1.15x under OVMF
        goal = "1.15" if "OVMF" in ours else "2.5"
        out["ratios"]["%s / %s, menu drawn (goal <= %s)" % (ours, grub, goal)] = \
            ratio(b, g)
        if b is None:  # the menu not drawn: the earlier markers, labelled
            out["ratios"]["%s entries on the console (no ncurses menu) / %s menu "
                          "drawn" % (ours, grub)] = ratio(e, g)
            out["ratios"]["%s 'init: bootmenu' line / %s menu drawn (no entries "
                          "yet)" % (ours, grub)] = ratio(i, g) if e is None else None
    return out


def symbolize(fn, cache={}):
    """0xffffffff81234567 -> its System.map name (the tiny kernel has no
    kallsyms; the profile boot has nokaslr)."""
    if not fn.startswith("0x"):
        return fn
    if "map" not in cache:
        syms = []
        path = os.path.join(B, "kernel", "obj", "System.map")
        if os.path.exists(path):
            for ln in open(path):
                a, t, name = ln.split()[:3]
                if t in "tT":
                    syms.append((int(a, 16), name))
        syms.sort()
        cache["map"] = syms
        cache["keys"] = [a for a, _ in syms]
    i = bisect.bisect_right(cache["keys"], int(fn, 16)) - 1
    return cache["map"][i][1] if i >= 0 else fn


# the TPM core's and its two interfaces' (kernel/README.md "TPM 2.0")
TPM_INITCALLS = ("tpm_init", "init_tis", "crb_acpi_driver_init")
INITCALL_RE = re.compile(r"\[\s*([\d.]+)\] initcall (\S+) returned -?\d+ after (\d+) usecs")
PRINTK_RE = re.compile(r"\[\s*(\d+\.\d+)\] [^\n]*\n")


def printk_offset(q, raw):
    """Seconds from QEMU start at which the kernel's printk clock read 0, as
    it runs once the TSC is calibrated (before that it counts jiffies and
    reads 0 until the timer runs; the switch sets it back near 0, after
    the console is up). Each line after the switch left the kernel at its
    timestamp and reached us no sooner: the smallest difference is the
    closest. Under TCG the guest's TSC runs at the host's rate."""
    lines = [(float(m.group(1)), m.end()) for m in PRINTK_RE.finditer(raw)]
    k = 0
    for i in range(1, len(lines)):
        if lines[i][0] < lines[i - 1][0]:
            k = i  # the clock went back: the TSC took over
    diffs = [q.at(end) - ts for ts, end in lines[k:] if ts > 0]
    return min(diffs) if diffs else None


def kernel_profile(uefi):
    """One extra boot of bootmenu.efi with initcall_debug, never timed with
    the others: where our kernel's time goes, the slowest initcalls, and
    each one over 10 ms placed on the host's clock from QEMU's start (its
    printk time + printk_offset()). Under OVMF through QEMU's -kernel
    (OVMF's loader passes -append; the ESP's BOOTX64.EFI gets no command
    line). earlyprintk=serial shows the decompressor's lines where the
    kernel has EARLY_PRINTK and X86_VERBOSE_BOOTUP (stages "decompressing"
    and "kernel started"), and makes the kernel's early lines live."""
    how = "OVMF" if uefi else "SeaBIOS"
    progress("1. profile: one boot with initcall_debug, %s -kernel" % how)
    q = TimedQemu(O, "bench-initcall-" + how, kernel=EFI, uefi=uefi, fw_log=not uefi,
                  append="initcall_debug ignore_loglevel nokaslr "
                         "earlyprintk=serial,ttyS0,115200",
                  disks=[MENU_IMG], mem=MEM)
    try:
        q.wait(r"init: bootmenu \d", 180)
        time.sleep(0.5)
        raw = q.output()
        stages = stamp_stages(q, ([] if uefi else [FW_SEABIOS]) + DECOMP_STAGES +
                              KERNEL_STAGES)
        offset = printk_offset(q, raw)
    except (Skip, Timeout) as e:
        return {"skipped": str(e).splitlines()[0]}
    finally:
        q.close()
    calls = [(int(us) / 1000.0, symbolize(fn), float(ts)) for ts, fn, us in
             INITCALL_RE.findall(raw)]
    calls.sort(reverse=True)
    m = re.search(r"\[\s*([\d.]+)\] Run /init as init process", raw)
    return {"kernel time to /init (printk clock, with initcall_debug)":
            float(m.group(1)) if m else None,
            "initcalls": len(calls),
            "initcalls total ms": sum(c[0] for c in calls),
            "slowest initcalls ms": [[fn, ms] for ms, fn, _ in calls[:8]],
            # what the TPM drivers cost a machine without a TPM (#40)
            "TPM drivers' initcalls ms": sum(
                ms for ms, fn, _ in calls if fn in TPM_INITCALLS),
            "stages": stages,
            # [name, start in s from QEMU start, ms], in the order they ran
            "initcalls over 10 ms": sorted(
                [[fn, offset + ts - ms / 1000.0, ms] for ms, fn, ts in calls
                 if ms > 10] if offset is not None else [], key=lambda c: c[1])}


def med(out, scen, marker):
    try:
        return out["scenarios"][scen]["markers"][marker]["median"]
    except (KeyError, TypeError):
        return None


def summarize(res):
    out = {"scenarios": {}}
    for n, r in res.items():
        s = {"markers": {k: stats(v) for k, v in r["times"].items()},
             "notes": r["notes"]}
        if r["skipped"]:
            s["skipped"] = r["skipped"]
        out["scenarios"][n] = s
    return out


# ------------------------- 2. power-on to the target's first line/userspace
INITRDS = (("demo initrd", BOOT_IMG), ("40 MiB initrd", BOOT40_IMG))


def m2_boot():
    key = "2_power_on_to_target"
    progress("2. power-on to the target kernel and userspace (%d runs)" % RUNS)
    bm = [("bootmenu started", r"init: bootmenu \d", 120, False, None),
          ("target kernel first line", TARGET_KERNEL_RE, 240, False,
           BOOT_FAIL_RE + "|" + NO_SCAN_RE),
          ("target userspace", USERSPACE_RE, 240, False, None)]
    gr = [("grub.cfg running", r"BENCH-GRUB: searching", 120, False, None),
          ("target kernel first line", TARGET_KERNEL_RE, 240, False, None),
          ("target userspace", USERSPACE_RE, 240, False, None)]
    sc, notes = {}, []
    for tag, disk in INITRDS:
        # under -kernel bootmenu.timeout=0 (no menu: the plain chooser boots
        # at once); from the ESP there is no command line: the disk's
        # grub.cfg says timeout 0, so the menu is drawn and boots at once
        ways, notes = four_ways(bm, None, gr, disk, "bootmenu.timeout=0")
        sc.update({"%s, %s" % (n, tag): v for n, v in ways.items()})
    for n in notes:
        RESULTS.setdefault("notes", []).append("2. " + n)
        progress("2. " + n)
    res = alternate(sc, RUNS, "2.")
    out = summarize(res)
    stage_info(out)
    out["ratios"] = {}
    for tag, _ in INITRDS:
        for ours, grub in PAIRS:
            # issue #38's goals: OVMF 1.0x; SeaBIOS 0.65x (40 MiB), 0.75x
            goal = "1.0" if "OVMF" in ours else "0.65" if "40" in tag else "0.75"
            for mk in ("target kernel first line", "target userspace"):
                out["ratios"]["%s, %s: %s / %s%s" % (
                    tag, mk, ours, grub,
                    " (goal <= %s)" % goal if mk.startswith("target kernel") else "")] = \
                    ratio(med(out, "%s, %s" % (ours, tag), mk),
                          med(out, "%s, %s" % (grub, tag), mk))
    RESULTS["measurements"][key] = out
    return out


# ------------------------------------- 3. load + jump inside our own kernel
def shell_session(name, disk, mem=MEM):
    q = TimedQemu(O, "bench-" + name, kernel=KERNEL, initrd=GUEST_CPIO,
                  append="bootmenu.shell", disks=[disk], mem=mem)
    q.wait(r"rescue shell", 180)
    time.sleep(0.5)
    return q


def m3_kexec():
    key = "3_load_and_jump"
    progress("3. load + jump inside our kernel (%d runs, alternating)" % RUNS)
    K = "/mnt/boot/vmlinuz-" + DEBV
    I = "/mnt/boot/initrd.img-" + DEBV  # the 40 MiB one, on boot40.img
    A = "console=ttyS0,115200 demo.entry=bench-kexec"
    methods = {
        "kexload -c (kexec_load)": ("kexload -c -l %s --initrd %s --append '%s'" % (K, I, A),
                                    "kexload -e"),
        "kexload -s (kexec_file_load)": ("kexload -s -l %s --initrd %s --append '%s'" % (K, I, A),
                                         "kexload -e"),
        "kexec-tools -c -l (kexec_load)": ("kexec -c -l %s --initrd=%s --append='%s'" % (K, I, A),
                                           "kexec -e"),
        "kexec-tools -s -l (kexec_file_load)": ("kexec -s -l %s --initrd=%s --append='%s'" % (K, I, A),
                                                "kexec -e"),
    }
    res = {m: {"load": [], "load+jump": [], "skipped": None} for m in methods}
    for r in range(RUNS):
        for m, (load, ex) in methods.items():
            if res[m]["skipped"]:
                continue
            t0 = time.monotonic()
            q = shell_session("kexec", BOOT40_IMG)
            try:
                q.send("mount -t ext4 -o ro /dev/vda1 /mnt && echo BENCH-MNT$((1))\n")
                q.wait(r"BENCH-MNT1", 60)
                q.send("echo BENCH-T$((0)); %s && echo BENCH-T$((1)) && %s; "
                       "echo BENCH-FAIL$((1)) $?\n" % (load, ex))
                s, _ = q.wait(r"BENCH-T0", 30)
                l, _ = q.wait(r"BENCH-T1|BENCH-FAIL1", 240)
                if "FAIL" in q.buf[q.cursor - 12:q.cursor]:
                    raise Skip("load failed: " + last_lines(q.tail(800), 4))
                e, _ = q.wait(TARGET_KERNEL_RE, 240, fail=r"BENCH-FAIL1[^\r\n]*")
            except (Skip, Timeout) as exc:
                res[m]["skipped"] = str(exc).splitlines()[0]
                progress("3. %s run %d/%d: %s" % (m, r + 1, RUNS, res[m]["skipped"]))
                continue
            finally:
                q.close()
            res[m]["load"].append(l - s)
            res[m]["load+jump"].append(e - s)
            progress("3. %s run %d/%d: load %.2fs, load+jump %.2fs (%.0fs)" % (
                m, r + 1, RUNS, l - s, e - s, time.monotonic() - t0))
    out = {"scenarios": {}, "kernel": "Debian " + DEBV,
           "initrd": "initrd40.cpio.gz (%d bytes)" % os.path.getsize(
               os.path.join(O, "initrd40.cpio.gz"))}
    for m, r in res.items():
        s = {"markers": {}}
        if r["load"]:
            s["markers"] = {"load": stats(r["load"]), "load+jump": stats(r["load+jump"])}
        if r["skipped"]:
            s["skipped"] = r["skipped"]
        out["scenarios"][m] = s

    def lj(m):
        return med(out, m, "load+jump")
    out["ratios"] = {
        "kexload -c / kexec-tools -c -l (goal <= 0.6)":
            ratio(lj("kexload -c (kexec_load)"), lj("kexec-tools -c -l (kexec_load)")),
        "kexload -s / kexec-tools -s -l":
            ratio(lj("kexload -s (kexec_file_load)"), lj("kexec-tools -s -l (kexec_file_load)")),
        "kexload -c, load alone / kexec-tools -c -l, load alone":
            ratio(med(out, "kexload -c (kexec_load)", "load"),
                  med(out, "kexec-tools -c -l (kexec_load)", "load")),
    }
    RESULTS["measurements"][key] = out
    return out


# ---------------------------------------------------------- 10. network
NET_MAC = "52:54:00:12:34:56"


def net_tree():
    """BUILD/bench/net-tree: a pxelinux.cfg/default with one entry over
    TFTP and one over HTTP, each our kernel and a 40 MiB initrd (random
    bytes, so that nothing compresses it on the way)."""
    d = os.path.join(O, "net-tree")
    os.makedirs(os.path.join(d, "pxelinux.cfg"), exist_ok=True)
    shutil.copy(KERNEL, os.path.join(d, "vmlinuz"))
    i40 = os.path.join(d, "initrd40")
    if not os.path.exists(i40) or os.path.getsize(i40) != 40 << 20:
        with open(i40, "wb") as f:
            f.write(os.urandom(40 << 20))
    with open(os.path.join(d, "pxelinux.0"), "w") as f:
        f.write("placeholder\n")
    with open(os.path.join(d, "pxelinux.cfg", "default"), "w") as f:
        f.write("DEFAULT tftp\nLABEL tftp\n  KERNEL vmlinuz\n  APPEND initrd=initrd40\n"
                "LABEL http\n  KERNEL http://10.0.2.100/vmlinuz\n"
                "  APPEND initrd=http://10.0.2.100/initrd40\n")
    return d


def net_args(d):
    httpd = os.path.join(HERE, "..", "e2e", "httpd1.py")
    return ["-nic", "none", "-netdev",
            "user,id=n0,restrict=on,tftp=%s,bootfile=pxelinux.0,"
            "guestfwd=tcp:10.0.2.100:80-cmd:python3 %s %s" % (d, os.path.abspath(httpd), d),
            "-device", "virtio-net-pci,netdev=n0,mac=" + NET_MAC]


def m10_network():
    key = "10_network"
    progress("10. network: a silent network and the local default; DHCP to "
             "entries drawn; TFTP/HTTP of a 40 MiB initrd (%d runs)" % RUNS)
    d = net_tree()
    done = [("target userspace", USERSPACE_RE, 240, False, BOOT_FAIL_RE)]
    sc = {
        "no NIC": ({"kernel": EFI, "append": "bootmenu.timeout=0", "disks": [BOOT_IMG],
                    "mem": MEM, "extra": ["-nic", "none"]}, done, None),
        "silent NIC, bootmenu.net=on": (
            {"kernel": EFI, "append": "bootmenu.timeout=0 bootmenu.net=on",
             "disks": [BOOT_IMG], "mem": MEM,
             "extra": ["-nic", "none", "-device", "virtio-net-pci"]}, done, None),
        "network menu": (
            {"kernel": EFI, "append": "bootmenu.net=on bootmenu.timeout=-1", "mem": MEM,
             "extra": net_args(d)},
            [("init: bootmenu line", r"init: bootmenu \d", 120, False, None),
             ("network entries drawn", r"eth0  tftp  " + NET_MAC, 120, True, None)], None),
    }
    res = alternate(sc, RUNS, "10.")
    out = summarize(res)
    out["ratios"] = {"silent NIC / no NIC, to the local target (goal <= 1.05)": ratio(
        med(out, "silent NIC, bootmenu.net=on", "target userspace"),
        med(out, "no NIC", "target userspace"))}
    a = med(out, "network menu", "init: bootmenu line")
    b = med(out, "network menu", "network entries drawn")
    out["bootmenu started to network entries drawn (DHCP, config over TFTP)"] = \
        (b - a) if a and b else None
    # transfers in one guest: bootmenu's fetch (--boot N --dry-run minus
    # --list, which does the same DHCP and config) against busybox's own
    cmds = {
        "bootmenu --list (DHCP + config)": "bootmenu --list",
        "bootmenu, TFTP: kernel + 40 MiB initrd (+ DHCP)": "bootmenu --boot 0 --dry-run",
        "bootmenu, HTTP: kernel + 40 MiB initrd (+ DHCP)": "bootmenu --boot 1 --dry-run",
        "busybox tftp (512-byte blocks)": "tftp -g -r initrd40 -l /tmp/x 10.0.2.2 && "
                                          "tftp -g -r vmlinuz -l /tmp/y 10.0.2.2",
        "busybox tftp -b 1432": "tftp -g -b 1432 -r initrd40 -l /tmp/x 10.0.2.2 && "
                                "tftp -g -b 1432 -r vmlinuz -l /tmp/y 10.0.2.2",
        "busybox wget": "wget -q -O /tmp/x http://10.0.2.100/initrd40 && "
                        "wget -q -O /tmp/y http://10.0.2.100/vmlinuz",
    }
    times = {c: [] for c in cmds}
    for r in range(RUNS):
        q = TimedQemu(O, "bench-net-fetch", kernel=EFI, mem=MEM,
                      append="bootmenu.shell bootmenu.net=on", extra=net_args(d))
        try:
            q.wait(r"rescue shell", 180)
            time.sleep(0.5)
            for i, (name, cmd) in enumerate(cmds.items()):
                q.send("echo BENCH-S%d$((0)); %s > /dev/null 2>&1; echo BENCH-E%d$((0)) $?; "
                       "rm -f /tmp/x /tmp/y\n" % (i, cmd, i))
                s0, _ = q.wait(r"BENCH-S%d0" % i, 60)
                e0, m = q.wait(r"BENCH-E%d0 (\d+)" % i, 600)
                if m.group(1) == "0":
                    times[name].append(e0 - s0)
        except (Skip, Timeout) as exc:
            progress("10. transfers run %d/%d: %s" % (r + 1, RUNS, str(exc).splitlines()[0]))
        finally:
            q.close()
        progress("10. transfers run %d/%d: %s" % (r + 1, RUNS, ", ".join(
            "%s %.2fs" % (n, t[-1]) for n, t in times.items() if t)))
    out["transfers"] = {n: stats(t) for n, t in times.items() if t}

    def m(n):
        t = times.get(n)
        return statistics.median(t) if t else None
    lst = m("bootmenu --list (DHCP + config)")
    ours_t = m("bootmenu, TFTP: kernel + 40 MiB initrd (+ DHCP)")
    ours_h = m("bootmenu, HTTP: kernel + 40 MiB initrd (+ DHCP)")
    out["ratios"]["TFTP: bootmenu (minus --list) / busybox tftp -b 1432 (goal <= 1.2)"] = \
        ratio(ours_t - lst if ours_t and lst else None, m("busybox tftp -b 1432"))
    out["ratios"]["TFTP: bootmenu (minus --list) / busybox tftp, 512-byte blocks"] = \
        ratio(ours_t - lst if ours_t and lst else None, m("busybox tftp (512-byte blocks)"))
    out["ratios"]["HTTP: bootmenu (minus --list) / busybox wget (goal <= 1.2)"] = \
        ratio(ours_h - lst if ours_h and lst else None, m("busybox wget"))
    RESULTS["measurements"][key] = out
    return out


# --------------------------------------------------------- 4. scan scale
PARTS = (1, 16, 64, 128)


def host_roots(n):
    d = os.path.join(O, "scan-host", str(n))
    args = []
    for k in range(1, n + 1):
        args += ["--root", "%s/p%d=SCAN%d" % (d, k, k)]
    return args


def time_cmd(argv, runs):
    ts = []
    for _ in range(runs):
        t0 = time.perf_counter()
        subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        ts.append((time.perf_counter() - t0) * 1000.0)
    return ts


def count_entries(argv):
    p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    return sum(1 for ln in p.stdout.splitlines() if re.match(r"^\d+\*?\s", ln)), p.returncode


def m4_scan():
    key = "4_scan_scale"
    progress("4. scan scale: 1, 16, 64, 128 filesystems")
    out = {"host": {}, "guest": {}}
    if not os.access(HOST_BM, os.X_OK):
        out["host"] = {"skipped": "no %s" % HOST_BM}
    else:
        runs = max(10, RUNS * 4)
        for n in PARTS:
            argv = [HOST_BM] + host_roots(n) + ["--list"]
            cnt, rc = count_entries(argv)
            out["host"][str(n)] = stats(time_cmd(argv, runs), "ms")
            out["host"][str(n)]["entries"] = cnt
            progress("4. host bootmenu --root x%d: %s, %d entries" % (
                n, fmt_stats(out["host"][str(n)]), cnt))
        xs = list(PARTS)
        ys = [out["host"][str(n)]["median"] for n in PARTS]
        out["host_fit"] = linfit(xs, ys)
    # host: libblkid's probe of one device, as the scan calls it
    pc = os.path.join(O, "probecost")
    if os.access(pc, os.X_OK):
        per = []
        for _ in range(RUNS):
            p = subprocess.run([pc, os.path.join(O, "scan%d.img" % PARTS[-1]), "5"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            m = re.search(r"us_per_device=([\d.]+)", p.stdout)
            if m:
                per.append(float(m.group(1)))
        out["host_probe_per_device"] = stats(per, "us") if per else {
            "skipped": "probecost: %s" % p.stderr.strip()[:200]}
        progress("4. host probe per device: %s" % fmt_stats(out["host_probe_per_device"]))
    # guest: bootmenu --list over every device, in our kernel's shell
    for n in PARTS:
        disk = os.path.join(O, "scan%d.img" % n)
        q = shell_session("scan%d" % n, disk)
        try:
            ts, cnt, why = [], 0, None
            for r in range(RUNS):
                q.send("echo BENCH-S$((0)); bootmenu --list >/tmp/l 2>/tmp/e; "
                       "echo BENCH-E$((0)) rc=$? n=$(grep -c 'Scan partition' /tmp/l); "
                       "head -c 300 /tmp/e\n")
                s, _ = q.wait(r"BENCH-S0", 30)
                e, m = q.wait(r"BENCH-E0 rc=(\d+) n=(\d+)", 300)
                if m.group(1) != "0" or m.group(2) == "0":
                    time.sleep(0.5)
                    why = "bootmenu --list over the devices: rc=%s, %s scan entries (%s)" % (
                        m.group(1), m.group(2), last_lines(q.tail(400), 2))
                    break
                ts.append((e - s) * 1000.0)
                cnt = int(m.group(2))
        except (Skip, Timeout) as exc:
            why = str(exc).splitlines()[0]
        finally:
            q.close()
        if why:
            skipped_guest = "needs bootmenu's device scan in main.c: " + why
            out["guest"] = {"skipped": skipped_guest}
            progress("4. guest skipped: " + skipped_guest)
            break
        out["guest"][str(n)] = stats(ts, "ms")
        out["guest"][str(n)]["entries"] = cnt
        out["guest"][str(n)]["note"] = "first run cold, the rest page-cache warm"
        progress("4. guest bootmenu --list, %d partitions: %s" % (n, fmt_stats(out["guest"][str(n)])))
    if "skipped" not in out["guest"] and len(out["guest"]) == len(PARTS):
        out["guest_fit"] = linfit(list(PARTS), [out["guest"][str(n)]["median"] for n in PARTS])
    RESULTS["measurements"][key] = out
    return out


def linfit(xs, ys):
    n = len(xs)
    mx, my = sum(xs) / n, sum(ys) / n
    sxx = sum((x - mx) ** 2 for x in xs)
    sxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys))
    slope = sxy / sxx
    icpt = my - slope * mx
    ss_tot = sum((y - my) ** 2 for y in ys)
    ss_res = sum((y - (icpt + slope * x)) ** 2 for x, y in zip(xs, ys))
    return {"ms_per_fs": slope, "ms_fixed": icpt,
            "r2": 1 - ss_res / ss_tot if ss_tot else 1.0}


# ---------------------------------------------------------------- 5. size
def m5_size():
    key = "5_size"
    progress("5. sizes")
    out = {}
    for name, p in (("bzImage", KERNEL), ("initramfs.cpio.gz", INITRAMFS),
                    ("bootmenu.efi", EFI),
                    ("bootmenu (static musl)", os.path.join(B, "target", "bootmenu")),
                    ("kexload (static musl)", os.path.join(B, "target", "kexload"))):
        out[name] = {"bytes": os.path.getsize(p)} if os.path.exists(p) else \
            {"skipped": "no " + p}
    RESULTS["measurements"][key] = out
    return out


# ------------------------------------------- 8. hotplug: device to entry
STICK_IMG = os.path.join(O, "stick.img")
STICK_RE = r"Bench USB stick"


def m8_hotplug():
    """A USB stick plugged in (QEMU monitor) while the menu waits: from the
    kernel's line that the disk is attached (the device is ready) to its
    entry drawn by the menu. Both arrive on the same serial line, so the
    difference is taken from one clock."""
    key = "8_hotplug"
    progress("8. hotplug: a USB stick plugged into the running menu")
    out = {}
    ts, why = [], None
    for r in range(RUNS):
        q = TimedQemu(O, "bench-hotplug", kernel=EFI, append="bootmenu.timeout=-1",
                      disks=[MENU_IMG], mem=MEM, extra=["-device", "qemu-xhci,id=xhci"])
        try:
            q.wait(MENU_RE, 120, strip=True, esc=True)
            time.sleep(3)  # past the start-up settling: a later device is hotplug
            q.cursor = len(q.output())
            q.monitor("drive_add 0 if=none,id=stick,format=raw,snapshot=on,file=" + STICK_IMG)
            q.monitor("device_add usb-storage,bus=xhci.0,drive=stick,id=stick0")
            t_dev, _ = q.wait(r"Attached SCSI (removable )?disk", 60)
            t_entry, _ = q.wait(STICK_RE, 60, strip=True, esc=True)
            ts.append((t_entry - t_dev) * 1000.0)
            progress("8. run %d/%d: entry %.0f ms after the disk was attached" % (
                r + 1, RUNS, ts[-1]))
        except (Skip, Timeout) as e:
            why = str(e).splitlines()[0]
            break
        finally:
            q.close()
    name = "USB stick attached -> its entry drawn (goal <= 100 ms)"
    if ts:
        out[name] = stats(ts, "ms")
        out[name]["goal_met"] = statistics.median(ts) <= 100
    else:
        out[name] = {"skipped": "the stick's entry never appeared: %s" % why}
    RESULTS["measurements"][key] = out
    return out


# -------------------------------------------------------------- 6. memory
DEMO_ROOTS = ["esp=DEMO-ESP", "debian=debian", "syslinux=SYSLINUX", "lilo=slackware",
              "bare=bare"]


def m6_memory(chain_ok):
    key = "6_memory"
    progress("6. memory")
    out = {}
    if os.access(HOST_BM, os.X_OK) and os.access(PEAKRSS_HOST, os.X_OK):
        argv = [PEAKRSS_HOST, HOST_BM]
        for r in DEMO_ROOTS:
            argv += ["--root", os.path.join(B, "demo", r)]
        kbs = []
        for _ in range(RUNS):
            p = subprocess.run(argv + ["--list"], stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE, text=True)
            m = re.search(r"PEAKRSS kb=(\d+)", p.stderr)
            if m:
                kbs.append(float(m.group(1)))
        out["host peak RSS, bootmenu --root (demo trees) --list"] = \
            stats(kbs, "KiB") if kbs else {"skipped": "peakrss printed nothing"}
        # the big config too: how RSS grows with entries
        p = subprocess.run([PEAKRSS_HOST, HOST_BM, "--root",
                            os.path.join(O, "gen-grub") + "=debian", "--list"],
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        m = re.search(r"PEAKRSS kb=(\d+)", p.stderr)
        if m:
            out["host peak RSS, 10,000-entry grub.cfg"] = stats([float(m.group(1))], "KiB")
    else:
        out["host peak RSS, bootmenu --root (demo trees) --list"] = {
            "skipped": "no host bootmenu or peakrss"}
    # guest: the same over the demo disk's devices, in our kernel
    q = shell_session("rss", DEMO)
    try:
        q.send("echo BENCH-S$((0)); peakrss bootmenu --list >/tmp/l 2>/tmp/e; "
               "echo BENCH-E$((0)) rc=$? n=$(grep -c . /tmp/l) $(grep PEAKRSS /tmp/e)\n")
        q.wait(r"BENCH-S0", 30)
        _, m = q.wait(r"BENCH-E0 rc=(\d+) n=(\d+) ?(PEAKRSS kb=(\d+))?", 300)
        if m.group(1) == "0" and m.group(4) and int(m.group(2)) > 0:
            out["guest peak RSS, bootmenu --list over demo.img"] = stats(
                [float(m.group(4))], "KiB")
        else:
            out["guest peak RSS, bootmenu --list over demo.img"] = {
                "skipped": "needs bootmenu's device scan: --list over the devices gave "
                           "rc=%s, %s lines" % (m.group(1), m.group(2))}
    except (Skip, Timeout) as exc:
        out["guest peak RSS, bootmenu --list over demo.img"] = {
            "skipped": str(exc).splitlines()[0]}
    finally:
        q.close()
    # the memory floor: bisect -m over the whole chain
    for tag, disk in (("demo target (demo.img default entry)", MENU_IMG),
                      ("40 MiB-initrd target (boot40.img)", BOOT40_IMG)):
        name = "smallest -m that boots the " + tag
        if chain_ok is False:
            out[name] = {"skipped": "the bootmenu chain did not boot a target in "
                                    "measurement 2 (needs scan + menu + kexec wiring)"}
            continue
        out[name] = mem_floor(disk)
    RESULTS["measurements"][key] = out
    return out


BOOT_LIMIT = [150.0]  # seconds a memory-floor boot may take (from measurement 2)


def boots_at(disk, mem):
    try:
        got, _ = run_scenario("mem%d" % mem, bm_qargs(disk, "bootmenu.timeout=0", mem=mem),
                              [("userspace", USERSPACE_RE, BOOT_LIMIT[0], False,
                                r"Kernel panic[^\r\n]*|Out of memory[^\r\n]*|"
                                r"Cannot allocate memory[^\r\n]*|Initramfs unpacking failed"
                                r"|not syncing[^\r\n]*|bootmenu failed \d+ times|" +
                                BOOT_FAIL_RE)])
        progress("6. -m %d: boots" % mem)
        return True
    except (Skip, Timeout) as e:
        progress("6. -m %d: does not boot (%s)" % (mem, str(e).splitlines()[0][:120]))
        return False


def mem_floor(disk):
    lo, hi = 32, 512  # lo: assumed failing; hi: must boot
    if not boots_at(disk, hi):
        return {"skipped": "did not boot even with -m %d" % hi}
    if boots_at(disk, lo):
        return {"value": lo, "unit": "MiB", "note": "boots at the lowest tried"}
    tried = {lo: False, hi: True}
    while hi - lo > 8:
        mid = (lo + hi) // 2 // 8 * 8
        ok = boots_at(disk, mid)
        tried[mid] = ok
        if ok:
            hi = mid
        else:
            lo = mid
    return {"value": hi, "unit": "MiB", "tried": {str(k): v for k, v in sorted(tried.items())},
            "note": "bisected once in 8 MiB steps (a boot is a success when the target's "
                    "userspace line arrives)"}


# ------------------------------------------------- 7. parser throughput
def m7_parse():
    key = "7_parser_throughput"
    progress("7. parser throughput on the host")
    out = {}
    if not os.access(HOST_BM, os.X_OK):
        RESULTS["measurements"][key] = {"skipped": "no " + HOST_BM}
        return
    hf = shutil.which("hyperfine")
    for name, root in (("grub.cfg, 10,000 menuentries", "gen-grub=debian"),
                       ("BLS, 1,000 entries", "gen-bls=ESP")):
        argv = [HOST_BM, "--root", os.path.join(O, root), "--list"]
        cnt, rc = count_entries(argv)
        runs = max(10, RUNS * 4)
        if hf:
            j = os.path.join(O, "hyperfine.json")
            subprocess.run([hf, "-N", "-w", "2", "-r", str(runs), "--export-json", j,
                            "--output", "null", " ".join(argv)],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            ts = [t * 1000.0 for t in json.load(open(j))["results"][0]["times"]]
            how = "hyperfine"
        else:
            time_cmd(argv, 2)  # warm-up
            ts = time_cmd(argv, runs)
            how = "python loop"
        st = stats(ts, "ms")
        st["entries"] = cnt
        st["how"] = how
        st["us_per_entry"] = st["median"] * 1000.0 / cnt if cnt else None
        out[name] = st
        progress("7. %s: %s, %d entries" % (name, fmt_stats(st), cnt))
    RESULTS["measurements"][key] = out


def m9_session():
    key = "9_session_memory"
    progress("9. session memory over 500 plug/pull cycles (host)")
    t = os.path.join(B, "asan", "tests", "test_session")
    p = subprocess.run([t], cwd=os.path.join(HERE, "..", ".."), stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True)
    # test_session's note: "session and scan bytes after 1 and 500 plug/pull
    # cycles: S1 and C1, S500 and C500; heap after 10 and 500: H10, H500"
    m = re.search(r"session and scan bytes after 1 and 500 plug/pull cycles: (\d+) and "
                  r"(\d+), (\d+) and (\d+); heap after 10 and 500: (\d+), (\d+)", p.stdout)
    if not m or "FAIL test_session.test_session_plug_pull_500" in p.stdout:
        RESULTS["measurements"][key] = {"skipped": "test_session: " + p.stdout[-200:]}
        return
    v = [int(x) for x in m.groups()]
    RESULTS["measurements"][key] = {"bytes_after_1": v[0], "bytes_after_500": v[2],
                                    "scan_after_1": v[1], "scan_after_500": v[3],
                                    "heap_after_10": v[4], "heap_after_500": v[5]}
    progress("9. session %d bytes after 1 cycle, %d after 500; scan %d, %d; heap %d, %d"
             % (v[0], v[2], v[1], v[3], v[4], v[5]))


# -------------------------------------------------- 11. one LUKS keyslot
KEYSLOT_PASS = "bench pass 11"


def luks_headers():
    """Two volumes formatted by Debian's cryptsetup with its own defaults,
    calibrated on this machine as a user's installer would (LUKS2:
    Argon2id, 2 s, up to 1 GiB and 4 threads; LUKS1: PBKDF2-SHA256, 2 s);
    only their headers matter, so 20 MiB each."""
    out = {}
    for typ in ("luks2", "luks1"):
        img = os.path.join(O, "keyslot-%s.img" % typ)
        with open(img, "wb") as f:
            f.truncate(20 << 20)
        subprocess.run(["cryptsetup", "luksFormat", "-q", "--type", typ, img, "-"],
                       input=KEYSLOT_PASS.encode(), check=True)
        out[typ] = img
    return out


def keyslot_line(text):
    m = re.search(r"KEYSLOT (.*)", text)
    if not m:
        return None
    d = dict(kv.split("=", 1) for kv in m.group(1).split())
    return {k: (float(v) if k.endswith("_ms") else v) for k, v in d.items()}


def m11_keyslot():
    key = "11_luks_keyslot"
    progress("11. one LUKS keyslot: bootmenu's code on the host, in a TCG guest; cryptsetup")
    ks = os.path.join(O, "keyslot")
    if not shutil.which("cryptsetup") or not os.access(ks, os.X_OK):
        RESULTS["measurements"][key] = {"skipped": "no cryptsetup or no %s" % ks}
        return
    imgs = luks_headers()
    out = {"volumes": {}, "guest_mem": 4096}
    for typ, img in imgs.items():
        v = {"host": [], "cryptsetup": [], "guest": []}
        for r in range(RUNS):
            p = subprocess.run([ks, img, KEYSLOT_PASS, "4096"], stdout=subprocess.PIPE, text=True)
            k = keyslot_line(p.stdout)
            if k and k.get("rc") == "0":
                v["host"].append(k["wall_ms"] / 1000.0)
                v["params"] = {n: k[n] for n in ("kdf", "hash", "iter", "mem_kib", "lanes")}
            t0 = time.monotonic()
            subprocess.run(["cryptsetup", "open", "--test-passphrase", img, "-"],
                           input=KEYSLOT_PASS.encode(), check=True)
            v["cryptsetup"].append(time.monotonic() - t0)
        # TCG: once (an Argon2 keyslot of 1 GiB takes minutes there)
        q = TimedQemu(O, "bench-keyslot", kernel=KERNEL, initrd=GUEST_CPIO,
                      append="bootmenu.shell", disks=[img], mem=out["guest_mem"])
        try:
            q.wait(r"rescue shell", 180)
            time.sleep(0.5)
            q.send("keyslot /dev/vda '%s' 4096; echo BENCH-KS$((1))\n" % KEYSLOT_PASS)
            q.wait(r"BENCH-KS1", 1800)
            k = keyslot_line(q.tail(600))
            if k and k.get("rc") == "0":
                v["guest"].append(k["wall_ms"] / 1000.0)
            else:
                v["guest_skipped"] = last_lines(q.tail(600), 3)
        except Timeout as e:
            v["guest_skipped"] = str(e).splitlines()[0]
        finally:
            q.close()
        row = {"params": v.get("params")}
        for n in ("host", "cryptsetup", "guest"):
            if v[n]:
                row[n] = stats(v[n])
        if v.get("guest_skipped"):
            row["guest_skipped"] = v["guest_skipped"]
        row["host / cryptsetup"] = ratio(med_of(row, "host"), med_of(row, "cryptsetup"))
        out["volumes"][typ] = row
        progress("11. %s %s: host %s, cryptsetup %s, TCG guest %s" % (
            typ, v.get("params"), fmt_stats(row.get("host", {})),
            fmt_stats(row.get("cryptsetup", {})), fmt_stats(row.get("guest", {}))))
    RESULTS["measurements"][key] = out


def med_of(row, n):
    return (row.get(n) or {}).get("median")


# ------------------------------------------------------------ the report
def machine():
    cpu = "?"
    for ln in open("/proc/cpuinfo"):
        if ln.startswith("model name"):
            cpu = ln.split(":", 1)[1].strip()
            break
    qv = subprocess.run(["qemu-system-x86_64", "--version"], stdout=subprocess.PIPE,
                        text=True).stdout.splitlines()[0]
    load = open("/proc/loadavg").read().split()[:3]
    return {"nproc": os.cpu_count(), "cpu": cpu, "accel": "KVM" if KVM else "TCG",
            "qemu": qv, "host kernel": platform.release(),
            "loadavg at start": " ".join(load), "guest memory": "%d MiB" % MEM}


def main():
    os.makedirs(O, exist_ok=True)
    now = datetime.datetime.now().astimezone().isoformat(timespec="seconds")
    if KEEP and ONLY and os.path.exists(os.path.join(O, "results.json")):
        old = json.load(open(os.path.join(O, "results.json")))
        RESULTS["measurements"].update(old.get("measurements", {}))
        RESULTS["measured_at"] = {k: old.get("measured_at", {}).get(k, old.get("date"))
                                  for k in old.get("measurements", {})}
    RESULTS.setdefault("measured_at", {})
    RESULTS["date"] = now
    RESULTS["machine"] = machine()
    RESULTS["runs"] = RUNS
    progress("machine: %s" % RESULTS["machine"])
    chain_ok = None  # unknown until measurement 2 has run
    steps = [(1, m1_menu), (2, m2_boot), (3, m3_kexec), (4, m4_scan), (5, m5_size),
             (6, None), (7, m7_parse), (8, m8_hotplug), (9, m9_session),
             (10, m10_network), (11, m11_keyslot)]
    for num, fn in steps:
        names = {1: "1_power_on_to_menu", 2: "2_power_on_to_target", 3: "3_load_and_jump",
                 4: "4_scan_scale", 5: "5_size", 6: "6_memory", 7: "7_parser_throughput",
                 8: "8_hotplug", 9: "9_session_memory", 10: "10_network",
                 11: "11_luks_keyslot"}
        if not want(num):
            skipped(names[num], "not asked for (BENCH_ONLY=%s)" % ",".join(sorted(ONLY)))
            continue
        RESULTS["measured_at"][names[num]] = now
        try:
            if num == 6:
                m6_memory(chain_ok)
            else:
                out = fn()
                if num == 2:
                    t = med(out, BM_KERNEL + ", demo initrd", "target userspace")
                    t40 = med(out, BM_KERNEL + ", 40 MiB initrd", "target userspace")
                    chain_ok = bool(t)
                    if t and t40:  # a boot that takes 2x as long is a failed one
                        BOOT_LIMIT[0] = 2 * max(t, t40) + 30
        except Exception as e:  # a harness problem: report it, go on
            import traceback
            traceback.print_exc()
            skipped(names[num], "harness error: %s: %s" % (type(e).__name__, e))
        save()
    RESULTS["elapsed_s"] = time.monotonic() - T_START
    save()
    import report  # noqa: E402  (tests/bench/report.py)
    report.write(RESULTS, O)
    progress("wrote %s/report.md, results.json, timeline.png" % O)


def save():
    with open(os.path.join(O, "results.json"), "w") as f:
        json.dump(RESULTS, f, indent=1, sort_keys=False)


if __name__ == "__main__":
    sys.path.insert(0, HERE)
    main()
