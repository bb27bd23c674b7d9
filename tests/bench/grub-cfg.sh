#!/usr/bin/env bash
# tests/bench/grub-cfg.sh OUT.cfg - the grub.cfg of both GRUB images the
# benchmark compares with (grub-iso.sh: BIOS, grub-efi.sh: UEFI), so that
# both run the same commands: GRUB on the serial console, `search` for the
# demo disk's ext4 "debian" by UUID and `configfile` that disk's
# /boot/grub/grub.cfg, as GRUB installed on that disk would from its core
# image.
set -euo pipefail
DEB_UUID=1b8e2c4a-0d3f-4c52-9a61-6b7f00de0b1a
cat > "$1" <<EOL
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
