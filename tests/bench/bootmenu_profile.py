#!/usr/bin/env python3
"""tests/bench/bootmenu_profile.py BUILD - where bootmenu's own time goes
from its start to the countdown, in the guest (issue #38: "bootmenu's own
time to the first draw, profiled").

perf needs a PMU, which QEMU's TCG does not emulate, and Debian's perf
would need its shared libraries in the initramfs; so this samples the way
ovmf_stages.py does: the vCPU's RIP, CPL and HLT flag asked of QEMU's
monitor about every 5 ms (ovmf_stages.RipSampler), in boots of bench.py's
SeaBIOS line (bootmenu.efi through -kernel, -m 1024, menu.img: the demo
disk's filesystems) with no network card, so that bootmenu is the only
user process that runs. Each sample between "init: bootmenu" and the
countdown on the serial console is placed:
- HLT=1: the CPU idle (bootmenu and the kernel waiting: the settle's
  gap, a disk's answer, a timer);
- CPL=0: a kernel function, on System.map (the KASLR offset found from
  the idle samples);
- CPL=3: a bootmenu function, on an unstripped link of the same objects
  (build/target/bootmenu is linked with -s; the link is made again without
  it, and its text checked to be the same bytes).
The sampler's own queries stop the vCPU for a moment; the counts are
shares of the samples, not times. Writes BUILD/bench/profile/report.md
and results.json; PROFILE_RUNS (default 8) boots.
"""
import collections
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import bench  # noqa: E402
import ovmf_stages as st  # noqa: E402

B = bench.B
O = os.path.join(B, "bench", "profile")
RUNS = max(1, int(os.environ.get("PROFILE_RUNS", "8")))
TOP = 15
START_RE = r"init: bootmenu \d"


def unstripped():
    """bootmenu linked again without -s, its text checked against the
    stripped one's (the same bytes at the same addresses). Returns its
    path."""
    out = os.path.join(O, "bootmenu.sym")
    top = os.path.dirname(os.path.dirname(HERE))
    rel = os.path.relpath(B, top)
    cmd = subprocess.run(["make", "-n", "B=" + rel, "-W", os.path.join(rel, "target", "libbootmenu.a"),
                          os.path.join(rel, "target", "bootmenu")],
                         capture_output=True, text=True, cwd=top, check=True).stdout
    link = [c for c in cmd.splitlines() if re.search(r"-o \S*target/bootmenu\s", c)]
    if not link:
        raise SystemExit("profile: no link command for target/bootmenu in `make -n`")
    line = re.sub(r"-o \S*target/bootmenu\s", "-o %s -Wl,-Map=%s.map " % (out, out),
                  link[-1]).replace(" -s ", " ")
    subprocess.run(line, shell=True, check=True, cwd=top)
    texts = []
    for p in (os.path.join(B, "target", "bootmenu"), out):
        t = p + ".text"
        subprocess.run(["objcopy", "-O", "binary", "-j", ".text", p, t], check=True)
        texts.append(open(t, "rb").read())
        os.unlink(t)
    if texts[0] != texts[1]:
        raise SystemExit("profile: the unstripped link's text differs from target/bootmenu's")
    return out


def objects(path):
    """The linker map's placed text sections as a name_at() table: each
    one named by the file it came from ("bootmenu scan.c", "libblkid",
    "ncurses", "musl libc")."""
    rows = []
    rx = re.compile(r"^ (\.text\S*)\s+0x([0-9a-f]+)\s+0x([0-9a-f]+)\s+(\S+)$", re.M)
    # a long section name has its address on the next line
    text = re.sub(r"^( \.text\S*)\n\s+(?=0x)", r"\1 ", open(path + ".map").read(),
                  flags=re.M)
    for m in rx.finditer(text):
        addr, size, src = int(m.group(2), 16), int(m.group(3), 16), m.group(4)
        if not addr or not size:
            continue
        lib = re.search(r"lib(\w+)\.a\(([^)]*)\)", src)
        if lib and lib.group(1) == "bootmenu":
            name = "bootmenu " + lib.group(2).replace(".c.o", ".c")
        elif lib:
            name = {"blkid": "libblkid", "ncursesw": "ncurses", "c": "musl libc"}.get(
                lib.group(1), "lib" + lib.group(1))
        elif "main.c.o" in src:
            name = "bootmenu main.c"
        else:
            name = os.path.basename(src)
        rows.append((addr, size, name))
    rows.sort()
    return [r[0] for r in rows], rows


def text_range(path):
    """(start, end) of @path's .text."""
    out = subprocess.run(["readelf", "-S", "-W", path], capture_output=True, text=True).stdout
    m = re.search(r"\.text\s+PROGBITS\s+([0-9a-f]+)\s+[0-9a-f]+\s+([0-9a-f]+)", out)
    a = int(m.group(1), 16)
    return a, a + int(m.group(2), 16)


def boot(i):
    q = bench.TimedQemu(O, "profile-%d" % i, extra=["-nic", "none"],
                        **bench.bm_qargs(bench.MENU_IMG))
    sampler = st.RipSampler(q)
    try:
        q.wait(st.COUNTDOWN_RE, 180, strip=True)
        stamps = bench.stamp_stages(q, [("start", "serial", START_RE),
                                        ("countdown", "serial", st.COUNTDOWN_RE)])
    finally:
        sampler.stop()
        q.close()
    return stamps, sampler.samples


def place(samples, stamps, ktab, utab, otab, urange):
    """Counters of the samples between bootmenu's start and the
    countdown: {"idle"|"kernel"|"bootmenu"|"other": n}, per function for
    the kernel and bootmenu, and per source file for bootmenu."""
    kinds, kfun, ufun, uobj = (collections.Counter() for _ in range(4))
    off = st.kaslr_offset(samples, ktab) or 0
    for t, rip, cpl, hlt in samples:
        if not stamps["start"] <= t <= stamps["countdown"]:
            continue
        if hlt:
            kinds["idle"] += 1
        elif cpl == 0:
            kinds["kernel"] += 1
            kfun[st.name_at(ktab, rip - off) or "?"] += 1
        elif urange[0] <= rip < urange[1]:
            kinds["bootmenu"] += 1
            ufun[st.name_at(utab, rip) or "?"] += 1
            uobj[st.name_at(otab, rip) or "?"] += 1
        else:
            kinds["other"] += 1
    return kinds, kfun, ufun, uobj


def main():
    os.makedirs(O, exist_ok=True)
    sym = unstripped()
    utab, otab, urange = st.symbols(sym), objects(sym), text_range(sym)
    ktab = st.kernel_symbols()
    kinds, kfun, ufun, uobj = (collections.Counter() for _ in range(4))
    spans = []
    for i in range(RUNS):
        stamps, samples = boot(i)
        k, kf, uf, uo = place(samples, stamps, ktab, utab, otab, urange)
        kinds.update(k)
        kfun.update(kf)
        ufun.update(uf)
        uobj.update(uo)
        spans.append(stamps["countdown"] - stamps["start"])
        bench.progress("profile %d/%d: %.3f s, %s" % (i + 1, RUNS, spans[-1], dict(k)))
    n = sum(kinds.values()) or 1
    res = {"runs": RUNS, "start_to_countdown_s": spans, "kinds": dict(kinds),
           "kernel": kfun.most_common(), "bootmenu": ufun.most_common(),
           "bootmenu files": uobj.most_common()}
    json.dump(res, open(os.path.join(O, "results.json"), "w"), indent=1)
    lines = ["# bootmenu from its start to the countdown, sampled (%d boots)" % RUNS, "",
             "bootmenu.efi under SeaBIOS -kernel, menu.img, no NIC, TCG; start -> countdown "
             "median %.3f s (with the sampler's pauses). %d samples." % (
                 sorted(spans)[len(spans) // 2], n), "",
             "| where | samples | share |", "| --- | ---: | ---: |"]
    for kind in ("idle", "kernel", "bootmenu", "other"):
        lines.append("| %s | %d | %.0f%% |" % (kind, kinds[kind], 100.0 * kinds[kind] / n))
    for title, c in (("kernel functions", kfun), ("bootmenu's files and libraries", uobj),
                     ("bootmenu functions", ufun)):
        lines += ["", "| %s | samples | share of all |" % title, "| --- | ---: | ---: |"]
        for name, cnt in c.most_common(TOP):
            lines.append("| `%s` | %d | %.1f%% |" % (name, cnt, 100.0 * cnt / n))
    open(os.path.join(O, "report.md"), "w").write("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
