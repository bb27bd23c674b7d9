#!/usr/bin/env bash
# images/dualboot.sh BUILD - BUILD/dualboot/disk.img, the dual-boot tests'
# disk (tests/e2e/test_dualboot.py): a GPT disk whose ESP holds
# bootmenu.efi as \EFI\BOOT\BOOTX64.EFI and the stand-in EFI application
# (BUILD/standin.efi) where Windows keeps its loader,
# \EFI\Microsoft\Boot\bootmgfw.efi; and BUILD/dualboot/grub.img, an
# ext4 filesystem whose grub.cfg has the entry os-prober writes for that
# Windows as its default. Made without mounting.
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

# grub-mkconfig's header lines and 30_os-prober's entry for an EFI
# Windows on the ESP above (its vfat serial D0A1E5B0 is UUID D0A1-E5B0)
tree=$W/grub-tree
rm -rf "$tree" && mkdir -p "$tree/boot/grub"
cat > "$tree/boot/grub/grub.cfg" <<'EOL'
if [ x"${feature_menuentry_id}" = xy ]; then
  menuentry_id_option="--id"
else
  menuentry_id_option=""
fi
export menuentry_id_option
set default="osprober-efi-D0A1-E5B0"
set timeout=2
menuentry 'Windows Boot Manager (on /dev/vda1)' --class windows --class os $menuentry_id_option 'osprober-efi-D0A1-E5B0' {
	insmod part_gpt
	insmod fat
	search --no-floppy --fs-uuid --set=root D0A1-E5B0
	chainloader /EFI/Microsoft/Boot/bootmgfw.efi
}
EOL
rm -f "$W/grub.img.tmp"
mkfs.ext4 -q -F -L DUALGRUB -d "$tree" "$W/grub.img.tmp" 8M
rm -rf "$tree"
mv "$W/grub.img.tmp" "$W/grub.img"
