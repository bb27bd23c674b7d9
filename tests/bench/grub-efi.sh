#!/usr/bin/env bash
# tests/bench/grub-efi.sh DIR - the GRUB 2 the benchmark compares with under
# OVMF: DIR/esp.img, an ESP made by images/esp.sh (the builder of bootmenu's
# own ESP: same size, label and layout, so the firmware's part costs the
# same on both sides) whose \EFI\BOOT\BOOTX64.EFI is a `grub-mkstandalone
# -O x86_64-efi` image (Debian's grub-efi-amd64-bin) with grub-cfg.sh's
# grub.cfg (the BIOS ISO's) and the same modules as the ISO, with the EFI
# video drivers in place of the BIOS ones. Not efifwsetup: the demo disk's
# grub.cfg asks `fwsetup --is-supported`, which GRUB 2.06's fwsetup does not
# know, so it reboots into the firmware's setup; without the module the
# command fails and the "UEFI Firmware Settings" entry is left out.
set -euo pipefail
D=$1
H=$(cd "$(dirname "$0")" && pwd)
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$D"
bash "$H/grub-cfg.sh" "$stage/grub.cfg"
grub-mkstandalone -O x86_64-efi -d /usr/lib/grub/x86_64-efi --locales= --themes= --fonts= \
	--install-modules="normal search search_fs_uuid search_label part_gpt part_msdos ext2 fat linux gzio serial terminal echo configfile test all_video video_bochs video_cirrus efi_gop efi_uga iso9660" \
	-o "$stage/grubx64.efi" "boot/grub/grub.cfg=$stage/grub.cfg"
# esp.sh puts BUILD/bootmenu.efi in place: here that name holds GRUB
cp "$stage/grubx64.efi" "$D/bootmenu.efi"
bash "$H/../../images/esp.sh" "$D"
rm -f "$D/bootmenu.efi"
echo "  GRUB-EFI $D/esp.img (grub-mkstandalone $(du -h "$stage/grubx64.efi" | cut -f1) as \\EFI\\BOOT\\BOOTX64.EFI)"
