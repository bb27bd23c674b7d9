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
        s += " (goal ≤ %.3gx: %s)" % (goal, "met" if v <= goal else
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
    ratio_lines(lines, m)
    lines.append("How: " + how)
    lines.append("")


def stage_meds(m, scen):
    """{stage: median} of one scenario of measurement 1 or 2."""
    mk = m.get("scenarios", {}).get(scen, {}).get("markers", {})
    return {k: x["median"] for k, x in mk.items() if isinstance(x, dict) and "median" in x}


def stage_cell(x):
    if not isinstance(x, dict) or "median" not in x:
        return "—"
    if x["n"] == 1:
        return "%.2f" % x["median"]
    return "%.2f (%.2f–%.2f)" % (x["median"], x["min"], x["max"])


def stage_table(lines, m, scens, suffix=""):
    """Stages (rows, in the bench's order) by scenario (columns): seconds
    from QEMU start, medians (min–max)."""
    sc = m.get("scenarios", {})
    cols = [n for n in scens if n + suffix in sc]
    if not cols:
        return
    meds = [stage_meds(m, n + suffix) for n in cols]
    order = list(m.get("stage_order", []))  # older results: by time
    order += sorted({k for d in meds for k in d if k not in order},
                    key=lambda k: next(d[k] for d in meds if k in d))
    seen = [k for k in order if any(k in sc[n + suffix].get("markers", {}) for n in cols)]
    lines.append("| stage (s from QEMU start) | " + " | ".join(cols) + " |")
    lines.append("|---" * (len(cols) + 1) + "|")
    for k in seen:
        lines.append("| %s | %s |" % (k, " | ".join(
            stage_cell(sc[n + suffix].get("markers", {}).get(k)) for n in cols)))
    lines.append("")
    for n in cols:
        s = sc[n + suffix]
        for note in s.get("notes", []):
            lines.append("- %s: %s" % (n + suffix, note))
        if s.get("skipped"):
            lines.append("- %s: skipped: %s" % (n + suffix, s["skipped"]))
    for n in scens:
        if n + suffix not in sc:
            lines.append("- %s: not run" % (n + suffix))
    lines.append("")


def ratio_lines(lines, m):
    for label, v in m.get("ratios", {}).items():
        if v is not None:
            lines.append("- %s: **%s**" % (label.split(" (goal")[0], rat(v, goal_of(label))))
    lines.append("")


def stage_hows(lines, m):
    how = m.get("stage_how", {})
    lines.append("Stages, each stamped on the host when the text arrives (QEMU's start "
                 "is 0):")
    lines.append("")
    for k in m.get("stage_order", []):
        if k in how:
            lines.append("- **%s**: %s" % (k, how[k]))
    lines.append("")


def profiles(m):
    """Measurement 1's initcall_debug boots, by firmware (older results
    have one, unnamed)."""
    p = m.get("profile")
    if not isinstance(p, dict):
        return {}
    return {"SeaBIOS -kernel": p} if "initcalls" in p or "skipped" in p else p


def profile_lines(lines, m):
    for name, p in profiles(m).items():
        if "skipped" in p:
            lines.append("- profile, %s: skipped: %s" % (name, p["skipped"]))
            continue
        st = p.get("stages", {})
        seen = ", ".join("%s %.2f s" % kv for kv in sorted(st.items(), key=lambda kv: kv[1]))
        if st and "decompressing" not in st:
            seen += " (no decompressor lines: the kernel has no EARLY_PRINTK and " \
                    "X86_VERBOSE_BOOTUP)"
        to_init = p.get("kernel time to /init (printk clock, with initcall_debug)")
        over = ", ".join("%s %.0f ms (from %.2f s)" % (fn, ms, t0)
                         for fn, t0, ms in p.get("initcalls over 10 ms", [])) or \
            ", ".join("%s %.0f ms" % (fn, ms) for fn, ms in p.get("slowest initcalls ms", [])
                      if ms > 10)
        lines.append("- profile, %s: %s/init at %s on the kernel's printk clock (which "
                     "restarts near 0 when the TSC is calibrated, after the console is up); "
                     "%d initcalls took %.0f ms in all; over 10 ms: %s; the TPM drivers' "
                     "(no TPM in this machine) %.2f ms." % (
                         name, seen + ". " if seen else "", "%.2f s" % to_init if to_init else "?",
                         p.get("initcalls", 0), p.get("initcalls total ms", 0), over,
                         p.get("TPM drivers' initcalls ms", 0)))
    lines.append("")


def countdown_note(k):
    if "countdown drawn" not in k:
        return ""
    d = k["countdown drawn"] - k["menu drawn"]
    if d < 0.005:
        return ", its countdown (the disks settled) in the same frame"
    return ", its countdown (the disks settled) %.2f s after that" % d


def where_time_goes(lines, m, pairs):
    for ours, _ in pairs:
        k = stage_meds(m, ours)
        if not all(x in k for x in ("kernel first line", "bootmenu started", "menu drawn")):
            continue
        fw = k.get("firmware done")
        lines.append("- %s: %s%.2f s to the kernel's first line (%s), %.2f s more to "
                     "bootmenu started, %.2f s more to the menu%s." % (
                         ours, "firmware done at %.2f s, " % fw if fw else "",
                         k["kernel first line"] - (fw or 0),
                         "decompression and set-up before the console" if fw else
                         "from QEMU start",
                         k["bootmenu started"] - k["kernel first line"],
                         k["menu drawn"] - k["bootmenu started"],
                         countdown_note(k)))
    lines.append("")


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
        pairs = m.get("pairs") or [["bootmenu -kernel", "grub2 (BIOS ISO)"]]
        ratio_lines(L, m)
        stage_table(L, m, [n for p in pairs for n in p])
        L.append("Where bootmenu's time goes (medians):")
        L.append("")
        where_time_goes(L, m, pairs)
        L.append("The initcalls, from one boot per firmware with `initcall_debug` (never one "
                 "of the timed boots; bootmenu.efi through QEMU's `-kernel`, under OVMF too, "
                 "since the ESP's BOOTX64.EFI gets no command line; each initcall placed on "
                 "the host's clock by its printk time plus the smallest (arrival − printk "
                 "time) of that boot's lines):")
        L.append("")
        profile_lines(L, m)
        L.append("How: `-m %s`, q35, TCG. Four ways, alternated in each run, GRUB's beside "
                 "ours on the same firmware: bootmenu `qemu -kernel build/bootmenu.efi` "
                 "(SeaBIOS) against a `grub-mkrescue` ISO of Debian's grub-pc-bin (SeaBIOS, El "
                 "Torito); bootmenu from build/bench/esp.img (images/esp.sh over the current "
                 "bootmenu.efi) against build/bench/grub-efi/esp.img (the same builder, 16 MiB "
                 "FAT in an 18 MiB GPT disk, with a `grub-mkstandalone -O x86_64-efi` of "
                 "Debian's grub-efi-amd64-bin as \\EFI\\BOOT\\BOOTX64.EFI), both under OVMF "
                 "(Debian's OVMF_CODE_4M.fd, a fresh copy of its variables each boot). Both "
                 "GRUBs run one grub.cfg (tests/bench/grub-cfg.sh): `serial; terminal_output "
                 "serial`, `search` the ext4 UUID 1b8e2c4a-… and `configfile` its "
                 "/boot/grub/grub.cfg. Same disk for all: build/bench/menu.img (demo.img with "
                 "`terminal_output serial` in that grub.cfg), default menu timeouts. The "
                 "SeaBIOS boots carry an isa-debugcon device so that SeaBIOS writes its log "
                 "(about 8 KB, one port write a byte), on both sides (its cost: GRUB's BIOS "
                 "menu at best 0.293 s with it, 0.291 s without, in 10 alternated boots). "
                 "Where bootmenu's menu is not drawn, the ratio is given against the earlier "
                 "marker, labelled as such."
                 % mach["guest memory"].split()[0])
        L.append("")
        stage_hows(L, m)
    m = section("2_power_on_to_target", "2. Power-on to the target kernel and userspace")
    if m:
        pairs = m.get("pairs") or [["bootmenu", "grub2"]]
        ratio_lines(L, m)
        for tag in ("demo initrd", "40 MiB initrd"):
            L.append("%s:" % (tag[0].upper() + tag[1:]))
            L.append("")
            stage_table(L, m, [n for p in pairs for n in p], ", " + tag)
        L.append("How: the four ways of measurement 1 over build/bench/boot.img: one ext4 "
                 "\"debian\" (the demo's UUID) with the demo's Debian install, grub.cfg "
                 "timeout 0 and serial; its default entry is Debian's kernel + the demo target "
                 "initrd, with `echo 'BENCH-GRUB: loaded'` after its initrd command; "
                 "boot40.img the same with a 40 MiB initrd (target initrd + 40 MiB random "
                 "/payload/pad.bin). bootmenu under `-kernel` with `-append "
                 "bootmenu.timeout=0` (no menu: the plain chooser boots at once); from the ESP "
                 "there is no command line, so the disk's timeout 0 counts: the ncurses menu is "
                 "drawn and boots at once (\"menu drawn\" in its column). GRUB's timeout 0 "
                 "(no menu). The bench disks put `console=ttyS0` last on the entries' command "
                 "lines so that /dev/console is the serial port.")
        L.append("")
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
            L.append("- bootmenu.efi: **%.2f MiB** (goal ≤ 4.5 MiB: %s)" % (
                e / 1048576.0, "met" if e <= 4.5 * 1048576 else "missed by %.0f%%" % (
                    (e / (4.5 * 1048576) - 1) * 100)))
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
        L.append("- the session's arena bytes after 1 cycle: %s; after 500: %s" % (
            m.get("bytes_after_1", "?"), m.get("bytes_after_500", "?")))
        L.append("- the scan's bytes after 1 cycle: %s; after 500: %s" % (
            m.get("scan_after_1", "?"), m.get("scan_after_500", "?")))
        L.append("- the heap as AddressSanitizer counts it after 10 cycles: %s; after 500: %s"
                 % (m.get("heap_after_10", "?"), m.get("heap_after_500", "?")))
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
    m = section("11_luks_keyslot", "11. One LUKS keyslot (bootmenu's code; cryptsetup)")
    if m:
        L.append("| volume (cryptsetup's defaults here) | bootmenu, host | cryptsetup, host | "
                 "bootmenu / cryptsetup | bootmenu, TCG guest |")
        L.append("|---|---|---|---|---|")
        for typ, r in m.get("volumes", {}).items():
            p = r.get("params") or {}
            what = "%s %s" % (typ.upper(), p.get("kdf", "?"))
            if p.get("kdf") == "pbkdf2":
                what += "-%s, %s iterations" % (p.get("hash"), p.get("iter"))
            else:
                what += ", t=%s, %s MiB, %s lanes" % (
                    p.get("iter"), int(p.get("mem_kib", 0)) // 1024, p.get("lanes"))
            g = st(r["guest"]) if r.get("guest") else "skipped: %s" % r.get("guest_skipped", "?")
            L.append("| %s | %s | %s | %s | %s |" % (
                what, st(r.get("host")), st(r.get("cryptsetup")), rat(r.get("host / cryptsetup")), g))
        L.append("")
        L.append("How: tests/bench/keyslot.c, linked against the static target objects the "
                 "menu runs (build/target/libbootmenu.a), times luks_unlock() on one keyslot "
                 "(key derivation, AF merge, digest); on the host (native code: the estimate "
                 "for hardware like this machine's CPU) and in a TCG guest (-m %s, the bench's "
                 "guest initrd, the volume as /dev/vda). cryptsetup: `cryptsetup open "
                 "--test-passphrase`, wall time, its own threads. The volumes are formatted "
                 "by `cryptsetup luksFormat` with its defaults, so their cost is calibrated "
                 "on this machine (about 2 s for cryptsetup), as an installer would." % m.get("guest_mem", "?"))
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


def chart_rows(R):
    """(label, {stage: seconds}, initcalls) per bar: measurement 1's
    and 2's scenarios with GRUB's beside ours, the profile boots with their
    initcalls over 10 ms, then measurement 3's loads (from the command)."""
    rows = []
    for key, title, tags in (("1_power_on_to_menu", "1. to menu:", ("",)),
                             ("2_power_on_to_target", "2. to target:", (", demo initrd",
                                                                        ", 40 MiB initrd"))):
        m = R[MEAS].get(key) or {}
        sc = m.get("scenarios") or {}
        for tag in tags:
            # the pairs' order (GRUB's beside ours), then any other run
            first = [n + tag for p in m.get("pairs", []) for n in p]
            for n in first + sorted(n for n in sc if n.endswith(tag) and n not in first):
                meds = stage_meds(m, n)
                if meds:
                    rows.append(("%s %s" % (title, n), meds, []))
        for name, p in profiles(m).items():
            if p.get("stages"):
                rows.append(("1. profile (initcall_debug), %s" % name, p["stages"],
                             p.get("initcalls over 10 ms", [])))
    m = R[MEAS].get("3_load_and_jump") or {}
    for name, s in (m.get("scenarios") or {}).items():
        meds = {k: x["median"] for k, x in s.get("markers", {}).items()}
        if meds:
            rows.append(("3. kexec: %s" % name, meds, []))
    return rows


INITCALL_LABEL = "initcall > 10 ms"


def chart(R, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    rows = chart_rows(R) or [("no boot figures", {}, [])]
    order = []  # every stage, in the bench's order, then the rest as met
    for key in ("1_power_on_to_menu", "2_power_on_to_target"):
        order += [k for k in (R[MEAS].get(key) or {}).get("stage_order", []) if k not in order]
    for _, meds, _ in rows:
        order += [k for k in sorted(meds, key=meds.get) if k not in order]
    cmap = plt.get_cmap("tab20")  # the ten dark hues first, then the light ones
    color = {k: cmap((2 * i) % 20 + (2 * i // 20) % 2) for i, k in enumerate(order)}
    fig, ax = plt.subplots(figsize=(13, 0.42 * len(rows) + 2.2))
    used = set()
    for i, (label, meds, calls) in enumerate(reversed(rows)):
        prev = 0.0
        for k, t in sorted(meds.items(), key=lambda kv: kv[1]):
            ax.barh(i, t - prev, left=prev, height=0.7, color=color[k], edgecolor="white",
                    linewidth=0.5, label=k if k not in used else None)
            used.add(k)
            prev = t
        big = 0
        for fn, t0, ms in calls:  # the initcalls over 10 ms, dark, in the bar
            ax.barh(i, ms / 1000.0, left=t0, height=0.35, color="black",
                    label=INITCALL_LABEL if INITCALL_LABEL not in used else None)
            used.add(INITCALL_LABEL)
            if ms >= 50:  # named above and below the bar in turn
                big += 1
                ax.text(t0, i + (0.36 if big % 2 else -0.36), fn, fontsize=6,
                        va="bottom" if big % 2 else "top")
        if meds:
            ax.text(prev, i, " %.2f s" % prev, va="center", fontsize=7)
    groups = [r[0].split()[0] for r in reversed(rows)]
    for i in range(1, len(rows)):
        if groups[i] != groups[i - 1]:  # a line between measurements
            ax.axhline(i - 0.5, color="grey", linewidth=0.6)
    ax.set_yticks(range(len(rows)))
    ax.set_yticklabels([r[0] for r in reversed(rows)], fontsize=7)
    ax.set_xlabel("seconds from QEMU start (3. kexec rows: from the load command), medians "
                  "of %d runs, %s; each segment ends at the stage named in the legend"
                  % (R.get("runs", 0), R["machine"]["accel"]), fontsize=8)
    rank = order + [INITCALL_LABEL]
    legend = sorted(zip(*ax.get_legend_handles_labels()), key=lambda hl: rank.index(hl[1]))
    ax.legend([h for h, _ in legend], [lb for _, lb in legend], fontsize=7, loc="upper left",
              bbox_to_anchor=(1.01, 1.0), title="segment up to", title_fontsize=7)
    ax.set_title("bootmenu benchmark timelines, %s" % R["date"][:10])
    ax.grid(axis="x", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


if __name__ == "__main__":
    d = sys.argv[1]
    write(json.load(open(os.path.join(d, "results.json"))), d)
