#!/usr/bin/env python3
"""tests/bench/ovmf_stages.py BUILD - where bootmenu's start-up goes under
OVMF, stage by stage, beside the same bootmenu.efi under SeaBIOS `-kernel`
(issue #38). tests/bench/ovmf-stages.sh makes the ESPs and runs this; it
writes BUILD/bench/ovmf-stages/{report.md,results.json}.

The boots are bench.py's own (its QEMU line, -m 1024, q35, TCG, a fresh
copy of OVMF_VARS, menu.img as the disk), alternated within one run. Each
is stamped three ways, all on the host's clock from QEMU's start:
- serial lines as they arrive (bench.TimedQemu): OVMF's "BdsDxe: loading"
  (before its LoadImage reads the file) and "BdsDxe: starting" (the image
  read and loaded), the kernel's lines, bootmenu's;
- SeaBIOS's own log on the debugcon port ("Booting from ROM");
- the vCPU's RIP sampled through QEMU's monitor ("info registers" about
  every SAMPLE_S): the first sample in the kernel's upper half is the
  kernel's entry (the EFI stub and the decompressor run identity-mapped),
  a sample with HLT=1 is the CPU idle, CPL=3 user space. Samples in the
  decompressor's image are placed on arch/x86/boot/compressed/vmlinux and
  those in the kernel on System.map (the KASLR offset is found from the
  idle samples, which all sit after native_safe_halt's hlt).

Environment: OVMF_STAGES_RUNS (default 5); OVMF_STAGES_APPEND="opts;opts"
adds, for each set of options, a pair of variants booted with them (OVMF
and SeaBIOS, both through QEMU's -kernel: an ESP's BOOTX64.EFI gets no
command line) and one plain "OVMF -kernel" to set them beside;
OVMF_STAGES_INITCALLS (default 3) boots of each firmware with
initcall_debug (through -kernel), the initcalls that differ most;
OVMF_STAGES_REPORT_ONLY=1 analyses the last run's boots again;
OVMF_STAGES_ONLY="name;name" boots only the variants of those names.
"""
import bisect
import collections
import json
import os
import re
import socket
import statistics
import struct
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import bench  # noqa: E402  (its QEMU line, stamps and statistics)

B = bench.B
O = os.path.join(B, "bench", "ovmf-stages")
RUNS = max(1, int(os.environ.get("OVMF_STAGES_RUNS", "5")))
APPENDS = [a.strip() for a in os.environ.get("OVMF_STAGES_APPEND", "").split(";")
           if a.strip()]
ONLY = [n.strip() for n in os.environ.get("OVMF_STAGES_ONLY", "").split(";") if n.strip()]
SAMPLE_S = 0.004  # pause between two monitor samples (each takes ~1 ms more)
HIGH_HALF = 0xffff800000000000
COMPRESSED = os.path.join(B, "kernel", "obj", "arch", "x86", "boot", "compressed",
                          "vmlinux")
EFI_ON_ESP = os.path.join(O, "bootmenu", "bootmenu.efi")  # ovmf-stages.sh's copy
COUNTDOWN_RE = r"Booting [^\r\n]{1,200}? in \d+ s"
STANDIN_RE = r"BOOTMENU-STANDIN"


class RipSampler:
    """The vCPU's RIP, CPL and HLT flag, asked of QEMU's human monitor in a
    loop until stop(): self.samples = [(seconds from QEMU start, rip, cpl,
    hlt)]. The queries cost the guest some time: the unsampled variants
    show how much."""

    def __init__(self, q, image=None):
        self.q = q
        self.samples = []
        # @image: the EFI file OVMF loads; its load address is found in the
        # guest's memory (image_base) from the first samples in the stub,
        # by its DOS and COFF headers and its optional header up to the
        # ImageBase field, which the firmware rewrites when it relocates
        self.image = None
        if image:
            head = open(image, "rb").read(4096)
            self.image = head[:int.from_bytes(head[0x3c:0x40], "little") + 24 + 24]
        self.image_size = pe_layout(image)[0] if image else 0
        self.image_base = None
        self.tries = 0
        self.done = False
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _connect(self):
        for _ in range(500):
            try:
                s = socket.socket(socket.AF_UNIX)
                s.connect(self.q.mon_path)
                return s
            except OSError:
                time.sleep(0.01)
        return None

    def _run(self):
        s = self._connect()
        if not s:
            return
        buf = b""
        t_ask = 0.0
        rx = re.compile(rb"RIP=([0-9a-f]+).*?CPL=(\d).*?HLT=(\d)", re.S)
        try:
            while not self.done:
                while b"(qemu) " not in buf:
                    data = s.recv(65536)
                    if not data:
                        return
                    buf += data
                out, _, buf = buf.partition(b"(qemu) ")
                m = rx.search(out)
                if m:
                    smp = (t_ask - self.q.started, int(m.group(1), 16), int(m.group(2)),
                           int(m.group(3)))
                    self.samples.append(smp)
                    if self._should_find(smp):
                        self._find_image(s, smp[1])
                time.sleep(SAMPLE_S)
                t_ask = time.monotonic()
                s.sendall(b"info registers\n")
        except OSError:
            return
        finally:
            s.close()

    def _should_find(self, smp):
        return (self.image and self.image_base is None and self.tries < 8 and
                smp[1] < HIGH_HALF and not smp[3] and "BdsDxe: starting" in self.q.buf)

    def _find_image(self, s, rip):
        """The image's PE headers (OVMF copies them to its load address) in
        the pages below @rip: one pmemsave of up to the image's size (4.4
        MiB), once per boot."""
        self.tries += 1
        lo = max(0, rip - self.image_size) & ~0xfff
        mem = self._save(s, lo, rip - lo)
        for off in range((len(mem) - 1) & ~0xfff, -1, -0x1000):
            if mem[off:off + len(self.image)] == self.image:
                self.image_base = lo + off
                return

    def _save(self, s, lo, size):
        """@size bytes of guest memory from @lo (b"" on failure)."""
        path = self.q.log_path.replace(".serial.log", ".mem")
        s.sendall(b'pmemsave %#x %#x "%s"\n' % (lo, size, path.encode()))
        buf = b""
        while b"(qemu) " not in buf:
            buf += s.recv(65536)
        try:
            with open(path, "rb") as f:
                mem = f.read()
            os.unlink(path)
            return mem
        except OSError:
            return b""

    def stop(self):
        self.done = True
        self.thread.join(2)


def pe_layout(path):
    """(SizeOfImage, the .text section's RVA) of the PE file @path: under
    OVMF the decompressor's code (arch/x86/boot/compressed/vmlinux, linked
    at 0) starts at the load address + that RVA."""
    d = open(path, "rb").read(4096)
    pe = struct.unpack_from("<I", d, 0x3c)[0]
    nsec, opt = struct.unpack_from("<H", d, pe + 6)[0], struct.unpack_from("<H", d, pe + 20)[0]
    size = struct.unpack_from("<I", d, pe + 24 + 56)[0]
    for i in range(nsec):
        name, _, rva = struct.unpack_from("<8sII", d, pe + 24 + opt + 40 * i)
        if name.rstrip(b"\0") == b".text":
            return size, rva
    return size, 0


class FirmwareDump(RipSampler):
    """A RipSampler that, once it has found the image, saves the guest's
    memory around the first sample in the firmware (outside the image):
    self.dump = (address, bytes), for busy_wait(). (Debian's OVMF keeps no
    debug directory in its drivers, so their names cannot be read there.)"""

    SPAN = 0x2000000  # below the sample; OVMF's drivers lie near the top of RAM

    def __init__(self, q, image):
        super().__init__(q, image)
        self.dump = None

    def _should_find(self, smp):
        if self.image_base is None:
            return super()._should_find(smp)
        return (self.dump is None and smp[1] < HIGH_HALF and not smp[3] and
                not self.image_base <= smp[1] < self.image_base + self.image_size)

    def _find_image(self, s, rip):
        if self.image_base is None:
            return super()._find_image(s, rip)
        lo = max(0, rip - self.SPAN) & ~0xfff
        hi = bench.MEM << 20  # all of RAM (below 4 GiB) above
        self.dump = (lo, self._save(s, lo, hi - lo))


def firmware_dump(v):
    """One more boot of variant @v, not timed: the guest's memory around
    OVMF's drivers while the stub runs (FirmwareDump), or None."""
    q = bench.TimedQemu(O, "os-fw", **v["qargs"])
    fd = FirmwareDump(q, v["image"])
    try:
        q.wait(r"Linux version", 180)
    except (bench.Timeout, bench.Skip):
        pass
    finally:
        fd.stop()
        q.close()
    return fd.dump


# ------------------------------------------------------------------ variants
# the stamps looked for in each boot, as bench.stamp_stages takes them
OVMF_FW = [("firmware done", "serial", r"BdsDxe: loading Boot"),
           ("image loaded", "serial", r"BdsDxe: starting Boot")]
BM_SPEC = [("kernel console", "serial", r"Linux version"),
           ("/init", "serial", r"Run /init as init process"),
           ("bootmenu started", "serial", r"init: bootmenu \d"),
           ("menu drawn", "menu", bench.MENU_RE),
           ("countdown drawn", "serial", COUNTDOWN_RE)]
SEA = "SeaBIOS -kernel"
OVMF = "OVMF ESP"
STANDIN = "OVMF ESP, stand-in (48 KB)"
PADDED = "OVMF ESP, stand-in padded to bootmenu.efi's size"


def variant(qargs, end=COUNTDOWN_RE, spec=BM_SPEC, image=None, sample=True):
    """A way to boot: QEMU's arguments, the marker that ends the boot, the
    stamps, the EFI file to find in memory (or None), sampled or not."""
    return {"qargs": qargs, "end": end, "spec": spec, "image": image, "sample": sample}


def variants():
    """{name: variant()}, in the order they alternate."""
    esp = lambda name: os.path.join(O, name, "esp.img")  # noqa: E731
    sea = lambda append="": bench.bm_qargs(bench.MENU_IMG, append, fw_log=True)  # noqa: E731
    ovmf_k = lambda append="": {"kernel": bench.EFI, "append": append,  # noqa: E731
                                "disks": [bench.MENU_IMG], "mem": bench.MEM, "uefi": True}
    v = collections.OrderedDict()
    v[SEA] = variant(sea(), spec=[bench.FW_SEABIOS] + BM_SPEC)
    v[OVMF] = variant({"disks": [esp("bootmenu"), bench.MENU_IMG], "mem": bench.MEM,
                       "uefi": True}, spec=OVMF_FW + BM_SPEC, image=EFI_ON_ESP)
    # the same two boots unsampled: what the sampler itself costs, and the
    # figures to set beside `make bench`'s
    v[SEA + " (not sampled)"] = dict(v[SEA], sample=False)
    v[OVMF + " (not sampled)"] = dict(v[OVMF], sample=False, image=None)
    # no network card: OVMF then loads no NIC driver (QEMU's iPXE ROM),
    # which resets its card at ExitBootServices
    v[OVMF + ", no NIC"] = dict(v[OVMF], qargs=dict(v[OVMF]["qargs"], extra=["-nic", "none"]))
    # the card without its option ROM: the device is there, its UEFI driver not
    v[OVMF + ", NIC without its ROM"] = dict(v[OVMF], qargs=dict(v[OVMF]["qargs"], extra=[
        "-netdev", "user,id=n0,restrict=on", "-device", "e1000e,netdev=n0,romfile="]))
    for name, d in ((STANDIN, "standin"), (PADDED, "padded")):
        v[name] = variant({"disks": [esp(d), bench.MENU_IMG], "mem": bench.MEM,
                           "uefi": True}, STANDIN_RE,
                          OVMF_FW + [("stand-in running", "serial", STANDIN_RE)])
    if APPENDS:
        v["OVMF -kernel"] = variant(ovmf_k())
    for a in APPENDS:
        v["OVMF -kernel, " + a] = variant(ovmf_k(a))
        v["SeaBIOS -kernel, " + a] = variant(sea(a), spec=[bench.FW_SEABIOS] + BM_SPEC)
    return v


def boot(tag, v):
    """One boot of variant @v: {"stamps": {stage: s}, "samples": [...],
    "image base": the load address of v's image (the EFI file on the ESP)
    or None}. @tag names its logs (QEMU's monitor socket path must stay
    under 108 bytes)."""
    q = bench.TimedQemu(O, tag, **v["qargs"])
    sampler = RipSampler(q, v["image"]) if v["sample"] else None
    try:
        q.wait(v["end"], 180, strip=True)
        time.sleep(0.2)
        stamps = bench.stamp_stages(q, v["spec"])
    finally:
        if sampler:
            sampler.stop()
        q.close()
    return {"stamps": stamps, "samples": sampler.samples if sampler else [],
            "image base": sampler.image_base if sampler else None}


# ------------------------------------------------------------------ analysis
def symbols(path, kinds="tTwW"):
    """(sorted addresses, [(address, size, name)]) of @path's functions."""
    out = subprocess.run(["nm", "-n", "-S", path], capture_output=True, text=True).stdout
    syms = []
    for ln in out.splitlines():
        f = ln.split()
        if len(f) == 4 and f[2] in kinds:
            syms.append((int(f[0], 16), int(f[1], 16), f[3]))
    return [s[0] for s in syms], syms


def kernel_symbols():
    """symbols()'s table of System.map's functions (no sizes there)."""
    syms = []
    for ln in open(os.path.join(B, "kernel", "obj", "System.map")):
        a, t, n = ln.split()[:3]
        if t in "tTwW":
            syms.append((int(a, 16), 0, n))
    syms.sort()
    return [s[0] for s in syms], syms


def name_at(table, addr):
    keys, syms = table
    i = bisect.bisect_right(keys, addr) - 1
    if i < 0:
        return None
    a, size, n = syms[i]
    return n if not size or addr < a + size else None


def kaslr_offset(samples, ktab):
    """The kernel's KASLR offset, a multiple of CONFIG_PHYSICAL_ALIGN
    (2 MiB): idle samples all sit just after the hlt in native_safe_halt
    (the first of its copies in System.map), a few bytes into it."""
    halt = [r for _, r, _, h in samples if h and r >= HIGH_HALF]
    if not halt:
        return None
    rip = collections.Counter(halt).most_common(1)[0][0]
    keys, syms = ktab
    base = min(a for a, _, n in syms if n == "native_safe_halt")
    return (rip - base) & ~0x1fffff


def relocated_base():
    """Where the decompressor runs when booted through the bzImage's own
    entry (SeaBIOS -kernel): head_64.S moves it to the end of its buffer,
    LOAD_PHYSICAL_ADDR + init_size - _end (QEMU loads the kernel at 1 MiB,
    below LOAD_PHYSICAL_ADDR, so the buffer starts there)."""
    cfg = open(os.path.join(B, "kernel", "obj", ".config")).read()
    load = int(re.search(r"CONFIG_PHYSICAL_START=(\w+)", cfg).group(1), 16)
    init_size = int.from_bytes(open(bench.EFI, "rb").read(0x264)[0x260:0x264], "little")
    nm = subprocess.run(["nm", COMPRESSED], capture_output=True, text=True).stdout
    end = int(re.search(r"^(\w+) \w _end$", nm, re.M).group(1), 16)
    return load + init_size - end


def busy_wait(dump, rip):
    """Whether the firmware code at @rip (in @dump, the probe boot's memory:
    OVMF's drivers sit at the same addresses in every boot) is a timer poll:
    a `pause` or an `in` from a port followed by `ret` (EDK2's TimerLib
    under gBS->Stall() reads the ACPI PM timer in such a loop)."""
    if not dump:
        return False
    lo, mem = dump
    code = mem[max(0, rip - lo - 24):rip - lo + 24]
    return b"\xf3\x90" in code or b"\xed\xc3" in code


def classify(samples, t0, t1, ctab, cbase, ktab, koff, image=None, dump=None):
    """Samples in [t0, t1): {class: n} and {function: n}. @image: the EFI
    image's (start, end) when known: samples outside it are the firmware's,
    told apart by busy_wait() with @dump."""
    cls, fns = collections.Counter(), collections.Counter()
    for t, r, cpl, hlt in samples:
        if not (t0 <= t < t1):
            continue
        if hlt:
            cls["idle (hlt)"] += 1
        elif cpl == 3:
            cls["user space"] += 1
        elif r >= HIGH_HALF:
            cls["kernel"] += 1
            n = name_at(ktab, r - koff) if koff is not None else None
            fns["kernel " + (n or "?")] += 1
        else:
            n = name_at(ctab, r - cbase) if cbase is not None else None
            if image and not image[0] <= r < image[1]:
                if busy_wait(dump, r):
                    cls["firmware busy-waiting (Stall)"] += 1
                else:
                    cls["firmware, other"] += 1
                fns["firmware page %#x" % (r & ~0xfff)] += 1
            elif n:
                cls["decompressor " + ("zstd" if n.startswith(("ZSTD_", "HUF_", "FSE_"))
                                       else "other")] += 1
                fns["decompressor " + n] += 1
            else:
                cls["outside the decompressor's functions"] += 1
    return cls, fns


def interval(samples):
    """The median time between two samples, in s."""
    if len(samples) < 2:
        return 0.0
    return statistics.median(b[0] - a[0] for a, b in zip(samples, samples[1:]))


def analyse(name, runs, ctab, ktab, dump):
    """Per-stage medians and, from the samples, what fills each stage."""
    durations = collections.defaultdict(list)
    points = collections.defaultdict(list)
    split = collections.defaultdict(lambda: collections.Counter())
    fn_ms = collections.defaultdict(lambda: collections.Counter())
    window = collections.Counter()
    bases = []
    for run in runs:
        st, sm = dict(run["stamps"]), run["samples"]
        start = st.get("image loaded", st.get("firmware done", 0.0))
        k = [t for t, r, c, h in sm if r >= HIGH_HALF and t > start]
        if k and ("kernel console" in st or "bootmenu started" in st):
            st["kernel entered"] = k[0]
        image = None
        if run.get("image base") is not None:
            size, rva = pe_layout(EFI_ON_ESP)
            image = (run["image base"], run["image base"] + size)
            cbase = run["image base"] + rva
        elif "image loaded" not in st:
            cbase = relocated_base()
        else:
            cbase = None
        bases.append(cbase)
        koff = kaslr_offset(sm, ktab)
        for p, t in st.items():
            points[p].append(t)
        order = [p for p in ("firmware done", "image loaded", "kernel entered",
                             "kernel console", "/init", "bootmenu started", "menu drawn",
                             "countdown drawn", "stand-in running") if p in st]
        for a, b in zip(order, order[1:]):
            key = "%s -> %s" % (a, b)
            durations[key].append(st[b] - st[a])
            cls, fns = classify(sm, st[a], st[b], ctab, cbase, ktab, koff, image, dump)
            n = sum(cls.values())
            for c, v in cls.items():  # each class's share of the stage, in s
                split[key][c] += (st[b] - st[a]) * v / n / len(runs)
            for f, v in fns.items():
                fn_ms[key][f] += 1000 * (st[b] - st[a]) * v / n / len(runs)
        for a in ("firmware done", "kernel entered"):
            if a in st and "menu drawn" in st:
                durations[a + " -> menu drawn"].append(st["menu drawn"] - st[a])
        if "kernel entered" in st and "menu drawn" in st:
            _, fns = classify(sm, st["kernel entered"], st["menu drawn"], ctab, cbase,
                              ktab, koff)
            for f, v in fns.items():  # one sample stands for its interval
                window[f] += 1000 * v * interval(sm) / len(runs)
    return {"stages": {k: bench.stats(v) for k, v in durations.items()},
            "points": {k: bench.stats(v) for k, v in points.items()},
            "split s (mean per boot)": {k: dict(v) for k, v in split.items()},
            "functions ms (mean per boot)": {k: dict(v.most_common(25))
                                             for k, v in fn_ms.items()},
            "kernel entered -> menu drawn, functions ms (mean per boot)": dict(window),
            "decompressor base": ["%#x" % b if b is not None else None for b in bases],
            "samples per boot": statistics.median(len(r["samples"]) for r in runs)}


# -------------------------------------------------------------------- report
STAGE_TEXT = collections.OrderedDict([
    ("firmware done -> image loaded", "OVMF reads the EFI file from the ESP and loads it "
     "(LoadImage: \"BdsDxe: loading\" to \"BdsDxe: starting\")"),
    ("image loaded -> kernel entered", "the EFI stub: options, zstd decompression, "
     "relocation, memory map, ExitBootServices (to the first sample in the kernel)"),
    ("firmware done -> kernel entered", "SeaBIOS: the -kernel option ROM's copy, the "
     "decompressor (zstd, relocation) (\"Booting from ROM\" to the first sample in the "
     "kernel)"),
    ("kernel entered -> kernel console", "the kernel's set-up until its console "
     "registers (\"Linux version\" arrives)"),
    ("kernel console -> /init", "initcalls and the wait for asynchronous probes "
     "(\"Run /init\")"),
    ("/init -> bootmenu started", "/init's mounts (\"init: bootmenu\")"),
    ("bootmenu started -> menu drawn", "bootmenu's start and first draw with the "
     "disk's entries"),
    ("menu drawn -> countdown drawn", "the disks settled (the countdown starts)"),
    ("kernel entered -> bootmenu started", "with `quiet` (no \"Linux version\" or "
     "\"Run /init\" line): the kernel's whole start and /init"),
    ("firmware done -> menu drawn", "total from the firmware's hand-over"),
    ("kernel entered -> menu drawn", "total from the kernel's entry (the -kernel "
     "variants under OVMF print no firmware line)"),
    ("image loaded -> stand-in running", "the stand-in's start to its line"),
])


def diff_tables(res):
    """The kernel's functions from its entry to the menu drawn whose time
    differs most between two variants (RIP samples, ms per boot)."""
    pairs = [(SEA, OVMF)] + [("OVMF -kernel", n) for n in res if n.startswith("OVMF -kernel, ")]
    out = []
    key = "kernel entered -> menu drawn, functions ms (mean per boot)"
    for a, b in pairs:
        if a not in res or b not in res:
            continue
        fa, fb = res[a][key], res[b][key]
        diff = sorted(set(fa) | set(fb), key=lambda f: -abs(fb.get(f, 0) - fa.get(f, 0)))
        out += ["", "Kernel entry to menu drawn, the functions that differ most, %s vs %s "
                "(RIP samples, ms per boot, mean; total %.0f vs %.0f ms sampled):" % (
                    a, b, sum(fa.values()), sum(fb.values())), "",
                "| function | %s | %s | difference |" % (a, b), "|---|---|---|---|"]
        for f in diff[:15]:
            out.append("| %s | %.0f | %.0f | %+.0f |" % (f, fa.get(f, 0), fb.get(f, 0),
                                                      fb.get(f, 0) - fa.get(f, 0)))
    return out


def report(res, load, started, runs):
    out = ["# Start-up under OVMF, stage by stage (tests/bench/ovmf-stages.sh)", "",
           "%s; %d runs of each variant, alternated; medians (min-max) on the host's "
           "clock; TCG; load average at the start %.1f, at the end %.1f." % (
               started, runs, load[0], load[1]), ""]
    names = list(res)
    out.append("| stage | how | " + " | ".join(names) + " |")
    out.append("|---|---|" + "---|" * len(names))
    for key, how in STAGE_TEXT.items():
        cells = [bench.fmt_stats(res[n]["stages"].get(key)) for n in names]
        if any(c != "-" for c in cells):
            out.append("| %s | %s | %s |" % (key, how, " | ".join(cells)))
    out += diff_tables(res)
    out += ["", "What fills each stage (RIP samples, seconds per boot, mean):", ""]
    for n in names:
        out.append("## " + n)
        out.append("")
        for key, parts in res[n]["split s (mean per boot)"].items():
            out.append("- %s: %s" % (key, ", ".join(
                "%s %.3f" % kv for kv in sorted(parts.items(), key=lambda kv: -kv[1]))))
        out.append("")
        for key, fns in res[n]["functions ms (mean per boot)"].items():
            top = [(f, ms) for f, ms in sorted(fns.items(), key=lambda kv: -kv[1]) if ms >= 10]
            if top:
                out.append("- %s, functions over 10 ms: %s" % (key, ", ".join(
                    "%s %.0f ms" % kv for kv in top)))
        out.append("")
    return "\n".join(out) + "\n"


def initcalls(runs):
    """The initcalls that differ between the firmwares: @runs boots each of
    bootmenu.efi under SeaBIOS and OVMF, both through -kernel (the only way
    to pass initcall_debug), alternated; {firmware: {initcall: median ms}}
    from the kernel's own "initcall ... returned ... after N usecs"."""
    append = "initcall_debug ignore_loglevel nokaslr"
    ways = ((SEA, bench.bm_qargs(bench.MENU_IMG, append)),
            ("OVMF -kernel", {"kernel": bench.EFI, "append": append,
                              "disks": [bench.MENU_IMG], "mem": bench.MEM, "uefi": True}))
    got = {n: collections.defaultdict(list) for n, _ in ways}
    for r in range(runs):
        for i, (n, qargs) in enumerate(ways):
            q = bench.TimedQemu(O, "os-ic%d" % i, **qargs)
            try:
                q.wait(r"init: bootmenu \d", 180)
                raw = q.output()
            finally:
                q.close()
            for _, fn, us in bench.INITCALL_RE.findall(raw):
                got[n][bench.symbolize(fn)].append(int(us) / 1000.0)
            bench.progress("initcalls %s run %d/%d" % (n, r + 1, runs))
    return {n: {fn: statistics.median(v + [0.0] * (runs - len(v))) for fn, v in calls.items()}
            for n, calls in got.items()}


def initcall_table(ic):
    a, b = list(ic)
    fa, fb = ic[a], ic[b]
    diff = sorted(set(fa) | set(fb), key=lambda f: -abs(fb.get(f, 0) - fa.get(f, 0)))
    out = ["", "Initcalls (initcall_debug, -kernel under both, medians, ms; all "
           "initcalls %.0f vs %.0f ms):" % (sum(fa.values()), sum(fb.values())), "",
           "| initcall | %s | %s | difference |" % (a, b), "|---|---|---|---|"]
    for f in diff[:15]:
        out.append("| %s | %.1f | %.1f | %+.1f |" % (f, fa.get(f, 0), fb.get(f, 0),
                                                  fb.get(f, 0) - fa.get(f, 0)))
    return out


def measure():
    """The timed boots: (date, [load average at the start, at the end],
    {variant: [boot(), ...]})."""
    started = time.strftime("%Y-%m-%d %H:%M %Z")
    load = [os.getloadavg()[0], None]
    v = variants()
    if ONLY:
        v = collections.OrderedDict((n, x) for n, x in v.items() if n in ONLY)
    runs = {n: [] for n in v}
    for r in range(RUNS):
        for i, (n, spec) in enumerate(v.items()):
            got = boot("os-%d" % i, spec)
            runs[n].append(got)
            bench.progress("%s run %d/%d: %s; %d samples" % (
                n, r + 1, RUNS, ", ".join("%s %.3f" % kv for kv in sorted(
                    got["stamps"].items(), key=lambda kv: kv[1])), len(got["samples"])))
    load[1] = os.getloadavg()[0]
    return started, load, runs


def main():
    os.makedirs(O, exist_ok=True)
    path = os.path.join(O, "results.json")
    if os.environ.get("OVMF_STAGES_REPORT_ONLY") == "1":
        # the boots of the last run again, analysed anew (the probe boot
        # for the firmware's memory is made again)
        last = json.load(open(path))
        started, load = last["date"], last["load average"]
        runs = collections.OrderedDict((n, [dict(r, samples=[tuple(x) for x in r["samples"]])
                                            for r in rs]) for n, rs in last["boots"].items())
    else:
        started, load, runs = measure()
    ctab, ktab = symbols(COMPRESSED), kernel_symbols()
    dump = firmware_dump(variants()[OVMF])
    n_ic = int(os.environ.get("OVMF_STAGES_INITCALLS", "3"))
    ic = initcalls(n_ic) if n_ic > 0 else None
    res = collections.OrderedDict((n, analyse(n, runs[n], ctab, ktab, dump)) for n in runs)
    n = len(next(iter(runs.values())))
    with open(path, "w") as f:
        json.dump({"date": started, "runs": n, "load average": load, "variants": res,
                   "initcalls ms": ic, "boots": runs}, f, indent=1)
    with open(os.path.join(O, "report.md"), "w") as f:
        f.write(report(res, load, started, n))
        if ic:
            f.write("\n".join(initcall_table(ic)) + "\n")
    bench.progress("wrote %s/report.md and results.json" % O)


if __name__ == "__main__":
    main()
