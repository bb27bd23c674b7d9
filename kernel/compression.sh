#!/usr/bin/env bash
# kernel/compression.sh [RUNS] - the kernel compression table of
# kernel/README.md: bootmenu.efi built four ways from the same objects
# (xz, zstd, lz4, gzip), each booted RUNS times (default 5, alternated)
# under QEMU TCG with `-kernel`, timed on the host from QEMU's start to
# the serial lines "Linux version" (decompression done) and "Run /init".
# Needs a full build first (make). Each way relinks only the compressed
# part of the kernel's own tree (build/kernel/obj); build/bootmenu.efi is
# never touched, and the tree is put back to the fragment's compression at
# the end. The images go to build/kernel/comp/. Prints a Markdown table.
set -eu
runs=${1:-5}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
B=$root/build/kernel
src=$B/linux-source-6.1
obj=$B/obj
out=$B/comp
[ -f "$root/build/bootmenu.efi" ] || { echo "compression: build first (make)" >&2; exit 1; }
grep -q '^CONFIG_INITRAMFS_SOURCE=".\+"' "$obj/.config" ||
	{ echo "compression: build/kernel/obj holds the plain kernel; run make first" >&2; exit 1; }
mkdir -p "$out"
kmake() { make -C "$src" O="$obj" ARCH=x86_64 -j"${JOBS:-$(nproc)}" "$@"; }
use() { # use xz|zstd|lz4|gzip: that compression in the tree's .config
	"$src/scripts/config" --file "$obj/.config" -d KERNEL_XZ -d KERNEL_ZSTD \
		-d KERNEL_LZ4 -d KERNEL_GZIP -e "KERNEL_$(echo "$1" | tr a-z A-Z)"
	kmake -s olddefconfig
}
chosen=$(sed -n 's/^CONFIG_KERNEL_\(XZ\|ZSTD\|LZ4\|GZIP\)=y$/\1/p' "$obj/.config" | tr A-Z a-z)
trap 'use "$chosen"; kmake bzImage >"$out/restore.log" 2>&1' EXIT
for m in xz zstd lz4 gzip; do
	use "$m"
	echo "  KERNEL $m" >&2
	kmake bzImage >"$out/$m.log" 2>&1 || { tail -20 "$out/$m.log" >&2; exit 1; }
	cp "$obj/arch/x86/boot/bzImage" "$out/bootmenu-$m.efi"
done
python3 - "$root" "$out" "$runs" <<'PY'
import os, statistics, sys, time
root, out, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
sys.path.insert(0, os.path.join(root, "tests", "e2e"))
from qemu import Qemu  # noqa: E402
ways = ["xz", "zstd", "lz4", "gzip"]
got = {m: ([], []) for m in ways}
for r in range(runs):
    for m in ways:
        q = Qemu(os.path.join(root, "build"), "compression-" + m,
                 kernel=os.path.join(out, "bootmenu-%s.efi" % m), mem=1024,
                 append="bootmenu.shell")
        t0 = time.monotonic()
        try:
            q.expect(r"Linux version", 120)
            got[m][0].append(time.monotonic() - t0)
            q.expect(r"Run /init", 120)
            got[m][1].append(time.monotonic() - t0)
        finally:
            q.close()
        print("  %s run %d: %.2f s, %.2f s" % (m, r + 1, got[m][0][-1], got[m][1][-1]),
              file=sys.stderr, flush=True)
print("| compression | bootmenu.efi | to \"Linux version\" | to /init |")
print("|---|---:|---:|---:|")
for m in ways:
    size = os.path.getsize(os.path.join(out, "bootmenu-%s.efi" % m))
    print("| %s | %s B (%.2f MiB) | %.2f s | %.2f s |" % (
        m, format(size, ","), size / 1048576, statistics.median(got[m][0]),
        statistics.median(got[m][1])))
PY
