#!/usr/bin/env bash
# initramfs/mklist.sh BUILD [fault] - write BUILD/initramfs.list (gen_init_cpio's
# format, also what CONFIG_INITRAMFS_SOURCE takes) and pack it into
# BUILD/initramfs.cpio.gz, usable with any kernel. With "fault": the same
# as BUILD/initramfs-fault.{list,cpio.gz}, whose bootmenu and kexload are
# the fault builds (kexec calls from tests/double/), for the end-to-end
# tests only; it is never built into an image.
set -euo pipefail
B=$(cd "$1" && pwd)
SRC=$(cd "$(dirname "$0")/.." && pwd)
name=initramfs
prog() { echo "$1"; }
if [ "${2:-}" = fault ]; then
	name=initramfs-fault
	prog() { echo "$1-fault"; }
fi
list=$B/$name.list
tool=$B/tools/gen_init_cpio  # built by the Makefile
{
	sed -e '/^#/d' -e "s|@B@|$B|g" -e "s|@SRC@|$SRC|g" \
	    -e "s|/target/bootmenu |/target/$(prog bootmenu) |" \
	    -e "s|/target/kexload |/target/$(prog kexload) |" \
	    "$SRC/initramfs/files.list"
	while read -r a; do
		case $a in busybox|init) continue ;; esac
		[ -e "$B/target/$a" ] && continue
		echo "slink /bin/$a busybox 0777 0 0"
	done < "$B/sysroot/bin/busybox.applets"
} > "$list.tmp"
mv "$list.tmp" "$list"
"$tool" "$list" | gzip -9 -n > "$B/$name.cpio.gz.tmp"
mv "$B/$name.cpio.gz.tmp" "$B/$name.cpio.gz"
echo "  INITRAMFS $name: $(stat -c %s "$B/$name.cpio.gz") bytes"
