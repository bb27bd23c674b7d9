#!/usr/bin/env bash
# images/dualboot.sh BUILD - BUILD/dualboot/disk.img, the dual-boot tests'
# disk (tests/e2e/test_dualboot.py): a GPT disk whose ESP holds
# bootmenu.efi as \EFI\BOOT\BOOTX64.EFI and the stand-in EFI application
# (BUILD/standin.efi) where Windows keeps its loader,
# \EFI\Microsoft\Boot\bootmgfw.efi. Made without mounting.
set -eu
B=$(cd "$1" && pwd)
W=$B/dualboot
export MTOOLS_SKIP_CHECK=1
mkdir -p "$W"
part=$W/esp-part.img img=$W/disk.img.tmp
rm -f "$part" "$img"
mkfs.vfat -C -n DUALESP -i D0A1E5B0 "$part" $((24 * 1024)) >/dev/null
mmd -i "$part" ::/EFI ::/EFI/BOOT ::/EFI/Microsoft ::/EFI/Microsoft/Boot
mcopy -i "$part" "$B/bootmenu.efi" ::/EFI/BOOT/BOOTX64.EFI
mcopy -i "$part" "$B/standin.efi" ::/EFI/Microsoft/Boot/bootmgfw.efi
truncate -s 26M "$img"
sfdisk -q "$img" <<EOL
label: gpt
label-id: D0A10000-0000-4000-8000-000000000000
start=1MiB, size=24MiB, type=U, name="EFI system partition", uuid=D0A10001-0000-4000-8000-000000000001
EOL
dd if="$part" of="$img" bs=1M seek=1 conv=notrunc status=none
rm -f "$part"
mv "$img" "$W/disk.img"
