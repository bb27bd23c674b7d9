#!/usr/bin/env bash
# kernel/build.sh plain OUT          - the tiny kernel alone (no initramfs)
# kernel/build.sh efi OUT LISTFILE   - the same kernel with the initramfs
#                                      described by LISTFILE built in
# kernel/build.sh sb OUT LISTFILE    - the image to sign for Secure Boot: as
#                                      efi, with CONFIG_CMDLINE_OVERRIDE (only
#                                      the built-in command line, nothing the
#                                      firmware or a boot entry passes) and
#                                      CONFIG_INITRAMFS_FORCE (only the
#                                      built-in initramfs: an initrd from the
#                                      firmware or a loader is ignored), built
#                                      in its own objects (build/kernel/obj-sb)
# The built-in trusted keys are build/kernel/trusted-keys.pem (kernel/keys.sh).
# Source: Debian's linux-source-6.1, unpacked under build/kernel/, with
# kernel/patches/*.patch applied in name order (the tree is shared by the
# three builds: a patch meant for one of them, like 0001's INITRAMFS_FORCE
# for sb, must change nothing unless that build's config asks). Config:
# `make tinyconfig` with kernel/bootmenu.config merged over it. The kernel's
# own make is incremental, so a rebuild after an initramfs change relinks.
set -eu
mode=$1; out=$2; list=${3:-}
here=$(cd "$(dirname "$0")" && pwd)
B=$(cd "$here/.." && pwd)/build/kernel
tarball=$(ls /usr/src/linux-source-6.1.tar.* | head -1)
src=$B/linux-source-6.1
obj=$B/obj
[ "$mode" = sb ] && obj=$B/obj-sb
keys=$B/trusted-keys.pem
[ -f "$keys" ] || bash "$here/keys.sh" "$keys"
jobs=${JOBS:-$(nproc)}
mkdir -p "$B" "$obj"

# The patch set's checksums are kept in the tree ($src/.patches): another set
# (a patch changed, added or removed) unpacks the source afresh, so no patch
# is ever applied twice. The files the old set changed are touched, so that
# their objects are rebuilt from the new text (tar restores old mtimes).
patches=$(cd "$here" && ls patches/*.patch 2>/dev/null || true)
want=$(cd "$here" && for p in $patches; do sha256sum "$p"; done)
exec 9>"$B/.unpack.lock"
flock 9
if [ ! -f "$src/.unpacked" ] || [ "$tarball" -nt "$src/.unpacked" ] ||
   [ "$want" != "$(cat "$src/.patches" 2>/dev/null)" ]; then
	old=$(cat "$src/.patched-files" 2>/dev/null || true)
	echo "  KERNEL unpack $(basename "$tarball")"
	rm -rf "$src"
	tar -C "$B" -xf "$tarball"
	for p in $patches; do
		echo "  KERNEL patch $p"
		patch -s -d "$src" -p1 --no-backup-if-mismatch < "$here/$p"
		sed -n 's|^+++ b/\([^	]*\).*|\1|p' "$here/$p" >> "$src/.patched-files"
	done
	for f in $old; do
		[ -f "$src/$f" ] && touch "$src/$f"
	done
	printf '%s' "$want" > "$src/.patches"
	touch "$src/.unpacked"
fi
exec 9>&-
kmake() { make -C "$src" O="$obj" ARCH=x86_64 -j"$jobs" "$@"; }

# The config is remade only when the fragment is newer than it.
frag=$here/bootmenu.config
if [ ! -f "$obj/.config" ] || [ "$frag" -nt "$obj/.config.frag-stamp" ] ||
   [ "$0" -nt "$obj/.config.frag-stamp" ]; then
	echo "  KERNEL config: tinyconfig + kernel/bootmenu.config"
	kmake -s tinyconfig >/dev/null
	(cd "$obj" && "$src/scripts/kconfig/merge_config.sh" -m -O "$obj" "$obj/.config" "$frag" >/dev/null)
	kmake -s olddefconfig
	miss=0
	for o in $(grep -o '^CONFIG_[A-Z0-9_]*=y' "$frag" | cut -d= -f1); do
		grep -q "^$o=y" "$obj/.config" || { echo "kernel: $o did not stick (a dependency is missing)" >&2; miss=1; }
	done
	[ $miss -eq 0 ] || exit 1
	if [ "$mode" = sb ]; then
		"$src/scripts/config" --file "$obj/.config" -e CMDLINE_OVERRIDE
		kmake -s olddefconfig
	fi
	touch "$obj/.config.frag-stamp"
fi
# sb: only the built-in initramfs. INITRAMFS_FORCE depends on CMDLINE_OVERRIDE
# through kernel/patches/0001-*, which also makes x86 drop the initrd at once
if [ "$mode" = sb ] && ! grep -qx CONFIG_INITRAMFS_FORCE=y "$obj/.config"; then
	"$src/scripts/config" --file "$obj/.config" -e INITRAMFS_FORCE
	kmake -s olddefconfig
	grep -qx CONFIG_INITRAMFS_FORCE=y "$obj/.config" ||
		{ echo "kernel: INITRAMFS_FORCE did not stick (kernel/patches not applied?)" >&2; exit 1; }
fi
if ! grep -qx "CONFIG_SYSTEM_TRUSTED_KEYS=\"$keys\"" "$obj/.config"; then
	"$src/scripts/config" --file "$obj/.config" --set-str SYSTEM_TRUSTED_KEYS "$keys"
	kmake -s olddefconfig
fi

set_initramfs() {
	local cur
	cur=$(sed -n 's/^CONFIG_INITRAMFS_SOURCE="\(.*\)"$/\1/p' "$obj/.config")
	[ "$cur" = "$1" ] && return 0
	"$src/scripts/config" --file "$obj/.config" --set-str INITRAMFS_SOURCE "$1"
	if [ -n "$1" ]; then
		"$src/scripts/config" --file "$obj/.config" -e INITRAMFS_COMPRESSION_NONE
	fi
	kmake -s olddefconfig
}

case $mode in
plain) set_initramfs "" ;;
efi|sb) [ -n "$list" ] || { echo "usage: $0 $mode OUT LISTFILE" >&2; exit 2; }
     set_initramfs "$list" ;;
*) echo "usage: $0 plain|efi|sb OUT [LISTFILE]" >&2; exit 2 ;;
esac
echo "  KERNEL $mode -> $out (make -j$jobs, log in $B/$mode.log)"
if ! kmake bzImage >"$B/$mode.log" 2>&1; then
	tail -30 "$B/$mode.log" >&2
	exit 1
fi
mkdir -p "$(dirname "$out")"
cp "$obj/arch/x86/boot/bzImage" "$out.tmp" && mv "$out.tmp" "$out"
