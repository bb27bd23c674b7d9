#!/usr/bin/env bash
# images/esp.sh BUILD - BUILD/esp.img: a GPT disk whose one partition is an
# EFI system partition holding bootmenu.efi as \EFI\BOOT\BOOTX64.EFI, the
# path UEFI firmware boots when no boot entry says otherwise.
set -eu
B=$(cd "$1" && pwd)
export MTOOLS_SKIP_CHECK=1
part=$B/esp-part.img img=$B/esp.img.tmp
rm -f "$part" "$img"
mkfs.vfat -C -n BOOTMENU -i B007E5B0 "$part" $((16 * 1024)) >/dev/null
mmd -i "$part" ::/EFI ::/EFI/BOOT
mcopy -i "$part" "$B/bootmenu.efi" ::/EFI/BOOT/BOOTX64.EFI
truncate -s 18M "$img"
sfdisk -q "$img" <<EOL
label: gpt
start=1MiB, size=16MiB, type=U, name="bootmenu ESP"
EOL
dd if="$part" of="$img" bs=1M seek=1 conv=notrunc status=none
rm -f "$part"
mv "$img" "$B/esp.img"
