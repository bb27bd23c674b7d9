#!/usr/bin/env bash
# initramfs/mklist.sh BUILD - write BUILD/initramfs.list (gen_init_cpio's
# format, also what CONFIG_INITRAMFS_SOURCE takes) and pack it into
# BUILD/initramfs.cpio.gz, usable with any kernel.
set -euo pipefail
B=$(cd "$1" && pwd)
SRC=$(cd "$(dirname "$0")/.." && pwd)
list=$B/initramfs.list
tool=$B/tools/gen_init_cpio  # built by the Makefile
{
	sed -e '/^#/d' -e "s|@B@|$B|g" -e "s|@SRC@|$SRC|g" "$SRC/initramfs/files.list"
	while read -r a; do
		case $a in busybox|init) continue ;; esac
		[ -e "$B/target/$a" ] && continue
		echo "slink /bin/$a busybox 0777 0 0"
	done < "$B/sysroot/bin/busybox.applets"
} > "$list.tmp"
mv "$list.tmp" "$list"
"$tool" "$list" | gzip -9 -n > "$B/initramfs.cpio.gz.tmp"
mv "$B/initramfs.cpio.gz.tmp" "$B/initramfs.cpio.gz"
echo "  INITRAMFS $(stat -c %s "$B/initramfs.cpio.gz") bytes"
