#!/usr/bin/env bash
# tests/bench/grub-iso.sh OUT.iso - the GRUB 2 the benchmark compares with:
# a grub-mkrescue (Debian's grub-pc-bin, BIOS/El Torito) ISO whose grub.cfg
# puts GRUB on the serial console, `search`es the demo disk's ext4 "debian"
# by UUID and `configfile`s that disk's /boot/grub/grub.cfg, as a BIOS
# machine with GRUB installed on that disk would do from its core image.
set -euo pipefail
out=$1
DEB_UUID=1b8e2c4a-0d3f-4c52-9a61-6b7f00de0b1a
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/boot/grub"
cat > "$stage/boot/grub/grub.cfg" <<EOL
serial --unit=0 --speed=115200
terminal_input serial
terminal_output serial
insmod part_gpt
insmod ext2
insmod search_fs_uuid
echo BENCH-GRUB: searching $DEB_UUID
search --no-floppy --fs-uuid --set=root $DEB_UUID
configfile (\$root)/boot/grub/grub.cfg
EOL
# only the BIOS platform (grub-pc-bin), no themes/locales: the smallest
# image grub-mkrescue makes; the modules the disk's grub.cfg insmods come
# from the ISO's /boot/grub/i386-pc.
grub-mkrescue -d /usr/lib/grub/i386-pc --locales= --themes= --fonts= \
	--install-modules="normal search search_fs_uuid search_label part_gpt part_msdos ext2 fat linux gzio serial terminal echo configfile test all_video video_bochs video_cirrus vbe vga iso9660 biosdisk" \
	-o "$out" "$stage" >/dev/null 2>&1 || {
	grub-mkrescue -d /usr/lib/grub/i386-pc -o "$out" "$stage"
}
echo "  GRUB-ISO $out ($(du -h "$out" | cut -f1))"
