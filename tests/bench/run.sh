#!/usr/bin/env bash
# tests/bench/run.sh BUILD - `make bench`: installs the benchmark's extras
# (as root, saying what), makes its disks, GRUB image and guest initrd, then
# runs tests/bench/bench.py, which writes BUILD/bench/{report.md,
# results.json,timeline.png}.
#   BENCH_RUNS=5   repetitions of every timed boot (A/B alternated)
#   KVM=1          KVM instead of TCG
#   BENCH_ONLY=1,3 only some measurements (the others say "not asked for")
set -euo pipefail
B=$(cd "$1" && pwd)
H=$(cd "$(dirname "$0")" && pwd)
O=$B/bench
mkdir -p "$O"
# Debian's python, where python3-matplotlib goes (not a pyenv shim's)
PY=/usr/bin/python3; [ -x "$PY" ] || PY=python3
echo "bench: BENCH_RUNS=${BENCH_RUNS:-5} accel=$([ "${KVM:-0}" = 1 ] && echo KVM || echo TCG) into $O"

# --- the extras: GRUB (BIOS and UEFI), xorriso for grub-mkrescue, kexec-tools,
# the chart
need=()
[ -d /usr/lib/grub/i386-pc ] || need+=(grub-pc-bin)
[ -d /usr/lib/grub/x86_64-efi ] || need+=(grub-efi-amd64-bin)
command -v grub-mkrescue >/dev/null || need+=(grub-common)
command -v xorriso >/dev/null || need+=(xorriso)
command -v mcopy >/dev/null || need+=(mtools)
[ -x /usr/sbin/kexec ] || need+=(kexec-tools)
"$PY" -c 'import matplotlib' 2>/dev/null || need+=(python3-matplotlib)
if [ ${#need[@]} -gt 0 ]; then
	echo "bench: installing ${need[*]} (apt-get, as root)"
	if [ "$(id -u)" != 0 ]; then
		echo "bench: not root: install ${need[*]} yourself" >&2
	else
		apt-get update -qq >/dev/null 2>&1 || true
		DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
			"${need[@]}" >"$O/apt.log" 2>&1 || echo "bench: apt-get failed, see $O/apt.log" >&2
	fi
fi

# --- GRUB 2: a BIOS rescue ISO and a UEFI ESP, with the same grub.cfg
if [ -d /usr/lib/grub/i386-pc ] && command -v grub-mkrescue >/dev/null; then
	[ "$O/grub.iso" -nt "$H/grub-iso.sh" ] && [ "$O/grub.iso" -nt "$H/grub-cfg.sh" ] ||
		bash "$H/grub-iso.sh" "$O/grub.iso"
else
	rm -f "$O/grub.iso"; echo "bench: no grub-pc-bin: the GRUB BIOS figures will be skipped"
fi
if [ -d /usr/lib/grub/x86_64-efi ] && command -v grub-mkstandalone >/dev/null; then
	[ "$O/grub-efi/esp.img" -nt "$H/grub-efi.sh" ] && [ "$O/grub-efi/esp.img" -nt "$H/grub-cfg.sh" ] &&
		[ "$O/grub-efi/esp.img" -nt "$H/../../images/esp.sh" ] ||
		bash "$H/grub-efi.sh" "$O/grub-efi"
else
	rm -f "$O/grub-efi/esp.img"; echo "bench: no grub-efi-amd64-bin: the GRUB UEFI figures will be skipped"
fi

# --- disks
bash "$H/mkdisks.sh" "$B"

# --- an ESP disk with the current bootmenu.efi (images/esp.sh over a copy,
# so the bench never boots a stale BUILD/esp.img)
cp "$B/bootmenu.efi" "$O/bootmenu.efi"
bash "$(dirname "$H")/../images/esp.sh" "$O"

# --- peakrss for host and guest
gcc -O2 -o "$O/peakrss.host" "$H/peakrss.c"
musl-gcc -Os -static -s -o "$O/peakrss.guest" "$H/peakrss.c"
# --- probecost: libblkid's cost per device on the host (the scan's calls)
gcc -O2 -I"$H/../../bootmenu" -D_GNU_SOURCE -o "$O/probecost" "$H/probecost.c" \
	"$B/host/libbootmenu.a" -lblkid -lncursesw -ltinfo -lpthread

# --- keyslot: one LUKS keyslot tried by bootmenu's own code (the shipped
# target objects, static), run on the host and inside a TCG guest
musl-gcc -Os -static -isystem "$B/sysroot/uapi" -I"$B/sysroot/include" -I"$H/../../bootmenu" \
	-D_GNU_SOURCE -s -o "$O/keyslot" "$H/keyslot.c" "$B/target/libbootmenu.a" \
	-L"$B/sysroot/lib" -lblkid -lncursesw -lpthread

# --- the guest initrd: our initramfs + the freshly built kexload, peakrss,
# and Debian's kexec-tools (dynamically linked: /usr/sbin/kexec with every
# library ldd names, at the same paths, so it runs as it is)
G=$O/guest-root
rm -rf "$G"; mkdir -p "$G/bin"
cp "$B/target/kexload" "$G/bin/kexload" 2>/dev/null || echo "bench: no $B/target/kexload"
[ -x "$B/target/bootmenu" ] && cp "$B/target/bootmenu" "$G/bin/bootmenu"
cp "$O/peakrss.guest" "$G/bin/peakrss"
cp "$O/keyslot" "$G/bin/keyslot"
if [ -x /usr/sbin/kexec ]; then
	cp /usr/sbin/kexec "$G/bin/kexec"  # /sbin is a link to bin there
	for lib in $(ldd /usr/sbin/kexec | grep -o '/[^ ]*'); do
		mkdir -p "$G$(dirname "$lib")"; cp -L "$lib" "$G$lib"
	done
fi
(cd "$G" && find . -mindepth 1 | sed 's,^\./,,' | cpio -o -H newc --quiet) > "$O/guest-extra.cpio"
python3 - "$B/initramfs.cpio.gz" "$O/guest-extra.cpio" "$O/guest-initrd.cpio" <<'PY'
import sys
base = open(sys.argv[1], "rb").read()
extra = open(sys.argv[2], "rb").read()
open(sys.argv[3], "wb").write(base + b"\0" * (-len(base) % 4) + extra)
PY
echo "  BENCH guest-initrd.cpio (initramfs + kexload, bootmenu, peakrss, kexec-tools with $(ldd /usr/sbin/kexec 2>/dev/null | grep -c /) libraries)"

exec "$PY" "$H/bench.py" "$B"
