"""tests/bench/report.py - results.json -> report.md and timeline.png.

write(results, outdir) is called by bench.py; `python3 report.py DIR`
rewrites the report and chart from DIR/results.json alone.
"""
import json
import os
import sys

MEAS = "measurements"


def fmt(v, unit="s"):
    if v is None:
        return "-"
    return {"s": "%.2f s", "ms": "%.1f ms", "us": "%.1f µs", "KiB": "%.0f KiB", "MiB": "%d MiB"}.get(
        unit, "%s " + unit) % v


def st(x):
    """median (min–max, n) of a stats dict."""
    if not isinstance(x, dict) or "median" not in x:
        return "-"
    u = x["unit"]
    if x["n"] == 1:
        return fmt(x["median"], u)
    return "%s (%s–%s, n=%d)" % (fmt(x["median"], u), fmt(x["min"], u).split()[0],
                                 fmt(x["max"], u).split()[0], x["n"])


def rat(v, goal=None):
    if v is None:
        return "-"
    s = "%.2fx" % v
    if goal is not None:
        s += " (goal ≤ %.2gx: %s)" % (goal, "met" if v <= goal else
                                      "missed by %.0f%%" % ((v / goal - 1) * 100))
    return s


def goal_of(label):
    import re
    m = re.search(r"goal <= ([\d.]+)", label)
    return float(m.group(1)) if m else None


def scen_table(lines, m, how):
    lines.append("| run | marker | median (min–max, n) |")
    lines.append("|---|---|---|")
    for name, s in m.get("scenarios", {}).items():
        if s.get("skipped") and not s.get("markers"):
            lines.append("| %s | — | skipped: %s |" % (name, s["skipped"]))
            continue
        for mk, x in s.get("markers", {}).items():
            lines.append("| %s | %s | %s |" % (name, mk, st(x)))
        for note in s.get("notes", []):
            lines.append("| %s | — | skipped: %s |" % (name, note))
        if s.get("skipped"):
            lines.append("| %s | — | skipped (later run): %s |" % (name, s["skipped"]))
    lines.append("")
    for label, v in m.get("ratios", {}).items():
        if v is None:
            continue
        lines.append("- %s: **%s**" % (label.split(" (goal")[0], rat(v, goal_of(label))))
    lines.append("")
    lines.append("How: " + how)
    lines.append("")


def med_of(m, scen):
    mk = m.get("scenarios", {}).get(scen, {}).get("markers", {})
    g = [mk.get(k, {}).get("median") for k in ("kernel first line", "init: bootmenu line",
                                               "menu drawn")]
    return g if g[0] and g[1] else None


def write(R, outdir):
    M = R[MEAS]
    mach = R["machine"]
    L = ["# bootmenu benchmark", "",
         "Date: %s. Machine: %s CPUs (`nproc`), %s; %s; QEMU %s; host kernel %s; "
         "load average at start %s. Each timed figure: the median of %d runs "
         "(BENCH_RUNS), min–max beside it; comparisons alternated A/B in one run. "
         "Total time %.0f s." % (
             R["date"], mach["nproc"], mach["cpu"], mach["accel"],
             mach["qemu"].replace("QEMU emulator version ", ""), mach["host kernel"],
             mach["loadavg at start"], R["runs"], R.get("elapsed_s", 0)),
         "",
         "Times are taken on the host from QEMU's start to the arrival of a serial-console "
         "line (every chunk QEMU writes is stamped as it is read). Under TCG every figure "
         "is inflated by emulation and by whatever else the 2 cores run; compare the "
         "ratios, not the seconds. Figures marked skipped need a piece of bootmenu "
         "that was not there when the run was made; none is estimated.", ""]

    def section(key, title):
        L.append("## " + title)
        L.append("")
        m = M.get(key)
        if m is None:
            L.append("skipped: not run")
            L.append("")
            return None
        if "skipped" in m and len(m) == 1:
            L.append("skipped: " + m["skipped"])
            L.append("")
            return None
        return m

    m = section("1_power_on_to_menu", "1. Power-on to menu drawn")
    if m:
        scen_table(L, m, (
            "`-m %s`, q35. bootmenu: `qemu -kernel build/bootmenu.efi` (and OVMF booting "
            "build/esp.img), default menu timeout; GRUB 2: a `grub-mkrescue` ISO of Debian's "
            "grub-pc-bin (SeaBIOS, El Torito) whose grub.cfg sets `serial; terminal_output "
            "serial`, `search`es the ext4 UUID 1b8e2c4a-… and `configfile`s its "
            "/boot/grub/grub.cfg. Same disk for both: build/bench/menu.img (demo.img with "
            "`terminal_output serial` in that grub.cfg). Marker \"menu drawn\": the text "
            "\"Debian GNU/Linux\" (the disk's first entry) on the serial console, escape "
            "sequences removed, with a screen-drawing escape sequence before it (ncurses or "
            "GRUB's terminfo). bootmenu's \"entries on the console\" is the same text as "
            "plain lines (the interim chooser main.c prints before the ncurses menu lands); "
            "\"init: bootmenu line\" is /init's first line. Where bootmenu's menu is not "
            "drawn, the ratio is given against the earlier marker, labelled as such." % mach["guest memory"].split()[0]))
    if m and isinstance(m.get("profile"), dict):
        p = m["profile"]
        if "skipped" in p:
            L.append("Profile: skipped: " + p["skipped"])
        else:
            k = med_of(m, "bootmenu -kernel")
            if k:
                L.append("Where bootmenu's time goes (medians): QEMU start to our kernel's "
                         "first line %.2f s (loading, xz decompression, early boot before "
                         "the serial console), to /init's line %.2f s more, to the menu "
                         "%s." % (k[0], k[1] - k[0], "%.2f s more" % (k[2] - k[1])
                                  if k[2] else "(not drawn)"))
            L.append("")
            L.append("One boot with `initcall_debug`: the kernel reached /init at %s s on "
                     "its own clock; %d initcalls took %.0f ms in all; the slowest: %s." % (
                         p.get("kernel time to /init (printk clock, with initcall_debug)"),
                         p.get("initcalls", 0), p.get("initcalls total ms", 0),
                         ", ".join("%s %.0f ms" % (fn, ms) for fn, ms in
                                   p.get("slowest initcalls ms", [])[:6])))
        L.append("")
    m = section("2_power_on_to_target", "2. Power-on to the target kernel and userspace")
    if m:
        scen_table(L, m, (
            "Disk build/bench/boot.img: one ext4 \"debian\" (the demo's UUID) with the demo's "
            "Debian install, grub.cfg timeout 0 and serial; its default entry is Debian's "
            "kernel + the demo target initrd; boot40.img the same with a 40 MiB initrd "
            "(target initrd + 40 MiB random /payload/pad.bin). bootmenu with "
            "`-append bootmenu.timeout=0`; GRUB's timeout 0. Markers: Debian's \"Linux "
            "version\" line (the target kernel's first line; under bootmenu the one after our "
            "own kernel's) and \"BOOTMENU-TARGET: booted\" (the target's /init). The "
            "bench disks put `console=ttyS0` last on the entries' command lines so that "
            "/dev/console is the serial port."))
    m = section("3_load_and_jump", "3. Load + jump inside our own kernel")
    if m:
        scen_table(L, m, (
            "Our bzImage with build/initramfs.cpio.gz + an appended cpio (the fresh "
            "build/target/kexload and bootmenu, peakrss, and Debian's /usr/sbin/kexec copied "
            "with every library `ldd` names at the same paths — it is dynamically linked "
            "against glibc and libxen*), `bootmenu.shell`; boot40.img mounted read-only on "
            "/mnt; then one shell line `echo T0; LOAD && echo T1 && EXEC`. \"load\": T0 to T1; "
            "\"load+jump\": T0 to the target's \"Linux version\" line. Kernel: %s; initrd: "
            "%s; one fresh boot (cold page cache) per sample. kexec-tools is run as `kexec -c "
            "-l` (its -c forces kexec_load: 2.0.25 may otherwise pick the file syscall) and "
            "`kexec -s -l`." % (m.get("kernel"), m.get("initrd"))))
    m = section("4_scan_scale", "4. Scan scale")
    if m:
        L.append("| filesystems | host `bootmenu --root`×N `--list` | guest `bootmenu --list` |")
        L.append("|---|---|---|")
        for n in ("1", "16", "64", "128"):
            h = m["host"].get(n) if isinstance(m.get("host"), dict) else None
            g = m["guest"].get(n) if isinstance(m.get("guest"), dict) else None
            L.append("| %s | %s | %s |" % (
                n, st(h) + (" (%d entries)" % h["entries"] if h else ""),
                (st(g) + " (%d entries)" % g["entries"]) if g else "-"))
        L.append("")
        for side in ("host", "guest"):
            if isinstance(m.get(side), dict) and "skipped" in m[side]:
                L.append("- %s: skipped: %s" % (side, m[side]["skipped"]))
            f = m.get(side + "_fit")
            if f:
                L.append("- %s: least-squares fit %.3f ms per filesystem + %.1f ms fixed, "
                         "R² %.4f (linear when close to 1)%s" % (
                             side, f["ms_per_fs"], f["ms_fixed"], f["r2"],
                             "; goal ≤ 10 ms per filesystem: %s" % (
                                 "met" if f["ms_per_fs"] <= 10 else "missed")
                             if side == "host" else ""))
        pd = m.get("host_probe_per_device")
        if isinstance(pd, dict):
            L.append("- host, libblkid probe of one device (tests/bench/probecost.c: "
                     "probe_path() over each partition window of scan128.img, page cache "
                     "warm): %s" % (st(pd) if "median" in pd else "skipped: " + pd["skipped"]))
        L.append("")
        L.append("How: build/bench/scanN.img is one GPT disk with N 1 MiB vfat partitions, "
                 "each holding /syslinux/syslinux.cfg with one entry and small stand-in "
                 "kernel/initrd files; build/bench/scan-host/N/pK are the same trees as "
                 "directories. Host: wall time of the whole process, python loop. Guest: our "
                 "kernel's shell, `bootmenu --list` over every device, from the line before "
                 "to the line after on the serial console, several times in one boot (the "
                 "first cold).")
        L.append("")
    m = section("5_size", "5. Size")
    if m:
        L.append("| file | bytes | MiB |")
        L.append("|---|---|---|")
        for name, x in m.items():
            if "bytes" in x:
                L.append("| %s | %d | %.2f |" % (name, x["bytes"], x["bytes"] / 1048576.0))
            else:
                L.append("| %s | skipped: %s | |" % (name, x["skipped"]))
        e = m.get("bootmenu.efi", {}).get("bytes")
        if e:
            L.append("")
            L.append("- bootmenu.efi: **%.2f MiB** (goal ≤ 3 MiB: %s)" % (
                e / 1048576.0, "met" if e <= 3 * 1048576 else "missed by %.0f%%" % (
                    (e / 3145728.0 - 1) * 100)))
        L.append("")
        L.append("How: `stat` sizes of the build outputs (bootmenu.efi = bzImage with the "
                 "initramfs built in, EFI stub; the binaries static musl, stripped).")
        L.append("")
    m = section("6_memory", "6. Memory")
    if m:
        L.append("| figure | value |")
        L.append("|---|---|")
        for name, x in m.items():
            if "skipped" in x:
                L.append("| %s | skipped: %s |" % (name, x["skipped"]))
            elif "value" in x:
                L.append("| %s | %d MiB |" % (name, x["value"]))
            else:
                L.append("| %s | %s |" % (name, st(x)))
        L.append("")
        for name, x in m.items():
            if "peak RSS" in name and "median" in x and "10,000" not in name:
                L.append("- %s: %.2f MiB (goal ≤ 8 MiB: %s)" % (
                    name, x["median"] / 1024.0, "met" if x["median"] <= 8192 else "missed"))
            if name.startswith("smallest") and "demo target" in name and "value" in x:
                L.append("- %s: %d MiB (goal: boots in 128 MiB: %s)" % (
                    name, x["value"], "met" if x["value"] <= 128 else "missed"))
        L.append("")
        L.append("How: peak RSS is the child's ru_maxrss from wait4(2) (tests/bench/peakrss.c, "
                 "the figure /usr/bin/time -v calls Maximum resident set size), host build over "
                 "build/demo/* as --root trees, and in the guest the static build over the demo "
                 "disk's devices. The memory floor: `-m` bisected in 8 MiB steps between 32 and "
                 "512, a boot counting when the target's userspace line arrives (bootmenu.efi, "
                 "bootmenu.timeout=0, the default entry).")
        L.append("")
    m = section("7_parser_throughput", "7. Parser throughput (host)")
    if m:
        L.append("| input | time to entries | entries | per entry |")
        L.append("|---|---|---|---|")
        for name, x in m.items():
            L.append("| %s | %s | %d | %s |" % (
                name, st(x), x.get("entries", 0),
                "%.1f µs" % x["us_per_entry"] if x.get("us_per_entry") else "-"))
        L.append("")
        L.append("How: `build/host/bootmenu --root DIR --list >/dev/null`, whole-process wall "
                 "time (%s), over tests/bench/gen.py's trees: a grub.cfg of 10,000 "
                 "update-grub-shaped menuentries and 1,000 BLS entry files." %
                 next(iter(m.values())).get("how", ""))
        L.append("")
    m = section("8_hotplug", "8. Hotplug: a device's entries in the running menu")
    if m:
        for name, x in m.items():
            L.append("- %s: %s%s" % (name, st(x) if "median" in x else "skipped: " + x["skipped"],
                                     ("; goal %s" % ("met" if x["goal_met"] else "missed"))
                                     if "goal_met" in x else ""))
        L.append("")
        L.append("How: bootmenu.efi with the demo disk and an xHCI controller, "
                 "`bootmenu.timeout=-1`; once the menu is drawn and 3 s have passed, the QEMU "
                 "monitor adds build/bench/stick.img as a `usb-storage` device. The time is "
                 "from the serial line in which the kernel says the disk is attached "
                 "(\"Attached SCSI disk\": the device is ready) to the stick's entry "
                 "title drawn by the menu, both on one serial line and one clock; one fresh "
                 "boot per sample.")
        L.append("")
    m = section("9_session_memory", "9. Session memory over plug/pull cycles (host)")
    if m:
        L.append("- arena bytes after 1 cycle: %s; after 500: %s" % (
            m.get("bytes_after_1", "?"), m.get("bytes_after_500", "?")))
        L.append("")
        L.append("How: tests/unit/test_session.c's plug_pull_500 (a fake sysfs, a real ext4 "
                 "image mounted by the scan's seam): a stick with a config is plugged and "
                 "pulled 500 times; the bytes are session_arena_bytes() (the session's "
                 "arena, every filesystem's, and those retired) after session_release().")
        L.append("")
    m = section("10_network", "10. Network boot")
    if m:
        scen_table(L, m, (
            "`-m %s`, q35, SeaBIOS, `-kernel build/bootmenu.efi`. \"no NIC\" and \"silent "
            "NIC\": build/bench/boot.img, `bootmenu.timeout=0`, to the target's userspace; "
            "the silent NIC is a virtio-net with no peer (no DHCP server ever answers) "
            "and `bootmenu.net=on`. \"network menu\": no disk, QEMU's user network "
            "(restrict=on) as DHCP and TFTP server for build/bench/net-tree, from /init's "
            "line to the eth0 group drawn by the menu." % M.get("10_network", {}).get("mem", "1024")))
        if m.get("transfers"):
            L.append("")
            L.append("| transfer in one guest (rescue shell) | median (min–max, n) |")
            L.append("|---|---|")
            for n, x in m["transfers"].items():
                L.append("| %s | %s |" % (n, st(x)))
        v = m.get("bootmenu started to network entries drawn (DHCP, config over TFTP)")
        if v:
            L.append("")
            L.append("bootmenu started to network entries drawn: %.2f s (median)." % v)
        L.append("")
        L.append("How: tests/bench/bench.py m10_network(). bootmenu's transfers are busybox "
                 "tftp (-b 1432) and wget run by bootmenu into its tmpfs cache, then read; "
                 "`--boot N --dry-run` does DHCP and the config first, so `--list` (the same "
                 "DHCP and config) is subtracted. HTTP goes through QEMU's guestfwd to "
                 "tests/e2e/httpd1.py, one process per connection.")
        L.append("")
    dates = sorted(set((R.get("measured_at") or {}).values()))
    if len(dates) > 1:
        R.setdefault("notes", []).append("measured in more than one run: " + "; ".join(
            "%s at %s" % (", ".join(sorted(k.split("_")[0] for k, d in
                                           R["measured_at"].items() if d == t)), t)
            for t in dates))
    if R.get("notes"):
        L.append("## Notes")
        L.append("")
        L.extend("- " + n for n in R["notes"])
        L.append("")
    L.append("![boot timelines](timeline.png)")
    L.append("")
    with open(os.path.join(outdir, "report.md"), "w") as f:
        f.write("\n".join(L))
    try:
        chart(R, os.path.join(outdir, "timeline.png"))
    except Exception as e:  # no matplotlib: the report stands without it
        print("bench: no chart: %s" % e)


def chart(R, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    rows = []
    for key, title in (("1_power_on_to_menu", "menu"), ("2_power_on_to_target", "boot"),
                       ("3_load_and_jump", "kexec")):
        m = R[MEAS].get(key) or {}
        for name, s in (m.get("scenarios") or {}).items():
            marks = [(mk, x["median"]) for mk, x in s.get("markers", {}).items()]
            if marks:
                rows.append(("%s: %s" % (title, name), sorted(marks, key=lambda t: t[1])))
    if not rows:
        rows = [("no boot figures", [])]
    fig, ax = plt.subplots(figsize=(11, 0.55 * len(rows) + 1.6))
    colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    cmap = {}
    for i, (label, marks) in enumerate(reversed(rows)):
        prev = 0.0
        for mk, t in marks:
            c = cmap.setdefault(mk, colors[len(cmap) % len(colors)])
            ax.barh(i, t - prev, left=prev, color=c, edgecolor="white",
                    label=mk if mk not in ax.get_legend_handles_labels()[1] else None)
            prev = t
        if marks:
            ax.text(prev, i, " %.1f s" % prev, va="center", fontsize=8)
    ax.set_yticks(range(len(rows)))
    ax.set_yticklabels([r[0] for r in reversed(rows)], fontsize=8)
    ax.set_xlabel("seconds from QEMU start (kexec rows: from the load command), medians, %s"
                  % R["machine"]["accel"])
    ax.legend(fontsize=7, loc="lower right", title="segment up to", title_fontsize=7)
    ax.set_title("bootmenu benchmark timelines, %s" % R["date"][:10])
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


if __name__ == "__main__":
    d = sys.argv[1]
    write(json.load(open(os.path.join(d, "results.json"))), d)
