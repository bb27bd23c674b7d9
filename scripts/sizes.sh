#!/usr/bin/env bash
# scripts/sizes.sh BUILD [--quiet] - print the sizes of what the build made
# (and write them to BUILD/SIZES).
set -u
B=$1
{
	for f in kernel/bzImage initramfs.cpio.gz bootmenu.efi target/bootmenu target/kexload target/init sysroot/bin/busybox; do
		[ -f "$B/$f" ] && printf '%-22s %9d bytes  %6.2f MiB\n' "$f" "$(stat -c %s "$B/$f")" \
			"$(echo "$(stat -c %s "$B/$f") / 1048576" | bc -l)"
	done
} > "$B/SIZES"
[ "${2:-}" = --quiet ] && exit 0
echo "sizes:"; sed 's/^/  /' "$B/SIZES"
