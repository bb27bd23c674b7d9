#!/usr/bin/env python3
"""tests/bench/modules.py BUILD OUT - the timed boots of issue #38's modules
experiment (kernel/modules-experiment.sh made OUT/bootmenu-mod.efi).

A is BUILD/bootmenu.efi (every driver built in), B is OUT/bootmenu-mod.efi
(the drivers as signed modules that bootmenu loads after its first frame:
bootmenu/util/modload.c). Both boot as `make bench` boots bootmenu: SeaBIOS,
`-kernel`, q35, 1 GiB, the demo disk on virtio, QEMU's default e1000e NIC.
BENCH_RUNS (default 5) boots each, alternated A, B, A, B...; every time is
taken on the host from QEMU's start to the arrival of a serial marker
(bench.py's TimedQemu). Writes OUT/modules.json and OUT/modules.md.
"""
import json
import os
import statistics
import sys
import time

sys.argv = sys.argv[:1] + [os.path.abspath(sys.argv[1])] + sys.argv[2:]
OUT = os.path.abspath(sys.argv[2])
os.environ.setdefault("TEST_LOGS", os.path.join(OUT, "logs"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench  # noqa: E402

RUNS = bench.RUNS
A = ("A: built in", os.path.join(bench.B, "bootmenu.efi"))
B = ("B: modules", os.path.join(OUT, "bootmenu-mod.efi"))
DISK = os.path.join(bench.B, "demo.img")
MODLOAD = r"bootmenu-modload: "

# (stage, where, regex): each looked for after "bootmenu started"
# (bench.stamp_stages); "menu" stages count only when drawn by ncurses
STAGES = [
    ("/init", "serial", r"Run /init as init process"),
    ("first frame", "menu", r"entries\s*on\s*\d+\s*filesystem"),
    ("first entry listed", "menu", bench.MENU_RE),
    ("countdown drawn", "serial", r"Booting [^\r\n]{1,200}? in \d+ s"),
    ("modules: start", "serial", MODLOAD + r"start"),
    ("modules: filesystems loaded", "serial", MODLOAD + r"filesystems loaded"),
    ("modules: storage loaded", "serial", MODLOAD + r"storage loaded"),
    ("modules: all loaded", "serial", MODLOAD + r"all done"),
]
ORDER = [s[0] for s in STAGES]


def markers(modular):
    """The waits of one boot: the menu with its first entry, then (B) the
    loader's last line; the stages are stamped from the log afterwards."""
    m = [("bootmenu started", r"init: bootmenu \d", 120, False, None),
         ("first entry listed", bench.MENU_RE, 60, True, None, {"esc": True})]
    if modular:
        m.append(("modules: all loaded", MODLOAD + r"all done", 60, False, None,
                  {"rewind": True}))
    m.append(("countdown drawn", r"Booting [^\r\n]{1,200}? in \d+ s", 30, True, None,
              {"rewind": True}))
    return m


def boot(name, efi, modular):
    q = bench.TimedQemu(bench.O, "modules-" + name[0],
                        kernel=efi, append="", disks=[DISK], mem=bench.MEM)
    try:
        got, note = bench.wait_markers(q, markers(modular), "first entry listed")
        start = bench.KERNEL_STAGES[1:3]  # /init, bootmenu started
        for st in STAGES:
            spec = [st] if st[0] == "/init" else start + [st]
            got.setdefault(st[0], bench.stamp_stages(q, spec).get(st[0]))
        got["bootmenu started"] = bench.stamp_stages(q, start).get("bootmenu started")
        return got, note
    finally:
        q.close()


def main():
    os.makedirs(OUT, exist_ok=True)
    res = {A[0]: [], B[0]: []}
    load = [os.getloadavg()]
    for r in range(RUNS):
        for (name, efi), modular in ((A, False), (B, True)):
            t0 = time.monotonic()
            got, note = boot(name, efi, modular)
            res[name].append(got)
            bench.progress("%s run %d/%d: %s%s (%.0fs)" % (
                name, r + 1, RUNS, ", ".join(
                    "%s %.2fs" % kv for kv in sorted(
                        ((k, v) for k, v in got.items() if v is not None),
                        key=lambda kv: kv[1])),
                " [" + note + "]" if note else "", time.monotonic() - t0))
    load.append(os.getloadavg())
    write(res, load)


def med(runs, stage):
    v = [g[stage] for g in runs if g.get(stage) is not None]
    return (statistics.median(v), len(v)) if v else (None, 0)


def write(res, load):
    when = time.strftime("%Y-%m-%d %H:%M", time.localtime())
    with open(os.path.join(OUT, "modules.json"), "w") as f:
        json.dump({"date": when, "runs": res, "loadavg": load}, f, indent=1)
    lines = ["Measured %s, %d boots each alternated, medians; load average "
             "%.2f/%.2f/%.2f before, %.2f/%.2f/%.2f after." % ((when, RUNS) + load[0] + load[1]),
             "", "| from QEMU start to | A: built in | B: modules | B - A |",
             "|---|---:|---:|---:|"]
    for st in ["bootmenu started"] + ORDER:
        a, na = med(res[A[0]], st)
        b, nb = med(res[B[0]], st)
        cell = lambda v, n: "" if v is None else "%.2f s%s" % (v, "" if n == RUNS else " (%d)" % n)
        diff = "%+.2f s" % (b - a) if a is not None and b is not None else ""
        lines.append("| %s | %s | %s | %s |" % (st, cell(a, na), cell(b, nb), diff))
    text = "\n".join(lines) + "\n"
    with open(os.path.join(OUT, "modules.md"), "w") as f:
        f.write(text)
    print(text)


if __name__ == "__main__":
    main()
