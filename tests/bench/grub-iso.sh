#!/usr/bin/env bash
# tests/bench/grub-iso.sh OUT.iso - the GRUB 2 the benchmark compares with
# under SeaBIOS: a grub-mkrescue (Debian's grub-pc-bin, BIOS/El Torito) ISO
# whose /boot/grub/grub.cfg is grub-cfg.sh's.
set -euo pipefail
out=$1
H=$(cd "$(dirname "$0")" && pwd)
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/boot/grub"
bash "$H/grub-cfg.sh" "$stage/boot/grub/grub.cfg"
# only the BIOS platform (grub-pc-bin), no themes/locales: the smallest
# image grub-mkrescue makes; the modules the disk's grub.cfg insmods come
# from the ISO's /boot/grub/i386-pc.
grub-mkrescue -d /usr/lib/grub/i386-pc --locales= --themes= --fonts= \
	--install-modules="normal search search_fs_uuid search_label part_gpt part_msdos ext2 fat linux gzio serial terminal echo configfile test all_video video_bochs video_cirrus vbe vga iso9660 biosdisk" \
	-o "$out" "$stage" >/dev/null 2>&1 || {
	grub-mkrescue -d /usr/lib/grub/i386-pc -o "$out" "$stage"
}
echo "  GRUB-ISO $out ($(du -h "$out" | cut -f1))"
