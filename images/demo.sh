#!/usr/bin/env bash
# images/demo.sh BUILD - BUILD/demo.img: a GPT disk with one small install
# per config format bootmenu reads, made without root and without mounting
# (sfdisk on a file, mke2fs -d, mkfs.vfat + mtools). Kernels: ours
# (BUILD/kernel/bzImage) and Debian's (BUILD/debkernel/vmlinuz); initrd:
# BUILD/target-initrd.cpio.gz, which prints the entry it was booted as.
# UUIDs are fixed so configs can name them and tests can expect them.
set -eu
B=$(cd "$1" && pwd)
SRC=$(cd "$(dirname "$0")/.." && pwd)
W=$B/demo
KERNEL=$B/kernel/bzImage
DEBK=$B/debkernel/vmlinuz
DEBV=$(cat "$B/debkernel/VERSION")
INITRD=$B/target-initrd.cpio.gz
OURV=6.1.192-bootmenu
# no_timer_check: under TCG on a loaded machine the target kernel's check
# that the IO-APIC timer ticks can fail ("IO-APIC + timer doesn't work"
# panic); the demo targets skip it. Not needed on real hardware.
CON="console=tty0 console=ttyS0,115200 no_timer_check"
rm -rf "$W"; mkdir -p "$W"
export MTOOLS_SKIP_CHECK=1

# fixed identities (README and tests name them)
ESP_ID=DE40E5B1        ESP_UUID=DE40-E5B1
DEB_UUID=1b8e2c4a-0d3f-4c52-9a61-6b7f00de0b1a
SYS_ID=5A5A0001        SYS_UUID=5A5A-0001
LILO_UUID=5e1a4c0d-2b7e-4f0a-8c3d-11ac0ba5e000
BARE_UUID=ba5eba11-0000-4000-8000-00000000b0b0

# --- p1: ESP with Boot Loader Specification entries
d=$W/esp; mkdir -p "$d/loader/entries" "$d/demo"
cp "$KERNEL" "$d/demo/vmlinuz"; cp "$INITRD" "$d/demo/initrd.img"
printf 'default demo-bls-*\ntimeout 5\n' > "$d/loader/loader.conf"
cat > "$d/loader/entries/demo-bls-6.1.192.conf" <<EOL
title      Demo BLS (bootmenu kernel)
version    6.1.192
machine-id 0123456789abcdef0123456789abcdef
sort-key   demo
linux      /demo/vmlinuz
initrd     /demo/initrd.img
options    $CON demo.entry=bls
EOL
cat > "$d/loader/entries/demo-bls-rescue.conf" <<EOL
title      Demo BLS rescue (extra initrd option)
version    6.1.0
machine-id 0123456789abcdef0123456789abcdef
sort-key   demo
linux      /demo/vmlinuz
initrd     /demo/initrd.img
options    $CON demo.entry=bls-rescue
options    rescue.marker=1
EOL

# --- p2: ext4 Debian install with grub.cfg in update-grub's shape
d=$W/debian; mkdir -p "$d/boot/grub" "$d/etc"
cp "$DEBK" "$d/boot/vmlinuz-$DEBV"; cp "$INITRD" "$d/boot/initrd.img-$DEBV"
cp "$KERNEL" "$d/boot/vmlinuz-$OURV"; cp "$INITRD" "$d/boot/initrd.img-$OURV"
sed -e "s/@UUID@/$DEB_UUID/g" -e "s/@DEBV@/$DEBV/g" -e "s/@OURV@/$OURV/g" -e "s/@CON@/$CON/g" \
	"$SRC/images/demo/grub.cfg" > "$d/boot/grub/grub.cfg"
echo "PRETTY_NAME=\"Debian GNU/Linux 12 (bookworm)\"" > "$d/etc/os-release"

# --- p3: vfat with syslinux.cfg
d=$W/syslinux; mkdir -p "$d/syslinux" "$d/boot"
cp "$KERNEL" "$d/boot/vmlinuz"; cp "$INITRD" "$d/boot/initrd.gz"
sed -e "s/@CON@/$CON/g" "$SRC/images/demo/syslinux.cfg" > "$d/syslinux/syslinux.cfg"

# --- p4: ext4 with /etc/lilo.conf
d=$W/lilo; mkdir -p "$d/etc" "$d/boot"
cp "$KERNEL" "$d/boot/vmlinuz"; cp "$INITRD" "$d/boot/initrd.gz"
sed -e "s/@UUID@/$LILO_UUID/g" -e "s/@CON@/$CON/g" "$SRC/images/demo/lilo.conf" > "$d/etc/lilo.conf"

# --- p5: ext4 with a bare /boot/vmlinuz-VERSION and no config
d=$W/bare; mkdir -p "$d/boot"
cp "$KERNEL" "$d/boot/vmlinuz-$OURV"; cp "$INITRD" "$d/boot/initrd.img-$OURV"

mkvfat() { # dir image MiB label volid
	rm -f "$2"
	mkfs.vfat -C -n "$4" -i "$5" "$2" $(($3 * 1024)) >/dev/null
	mcopy -i "$2" -s -m "$1"/* ::/
}
mkext4() { # dir image MiB label uuid
	rm -f "$2"
	mke2fs -q -F -t ext4 -L "$4" -U "$5" -E root_owner=0:0 -d "$1" "$2" "$3"M
}
mkvfat "$W/esp" "$W/p1.img" 24 DEMO-ESP "$ESP_ID"
mkext4 "$W/debian" "$W/p2.img" 40 debian "$DEB_UUID"
mkvfat "$W/syslinux" "$W/p3.img" 16 SYSLINUX "$SYS_ID"
mkext4 "$W/lilo" "$W/p4.img" 16 slackware "$LILO_UUID"
mkext4 "$W/bare" "$W/p5.img" 16 bare "$BARE_UUID"

img=$B/demo.img.tmp
rm -f "$img"; truncate -s 128M "$img"
sfdisk -q "$img" <<EOL
label: gpt
label-id: 0DE40000-0000-4000-8000-000000000000
first-lba: 2048
start=1MiB,  size=24MiB, type=U, name="EFI system", uuid=0DE40001-0000-4000-8000-000000000001
start=25MiB, size=40MiB, type=L, name="debian",     uuid=0DE40002-0000-4000-8000-000000000002
start=65MiB, size=16MiB, type=L, name="syslinux",   uuid=0DE40003-0000-4000-8000-000000000003
start=81MiB, size=16MiB, type=L, name="slackware",  uuid=0DE40004-0000-4000-8000-000000000004
start=97MiB, size=16MiB, type=L, name="bare",       uuid=0DE40005-0000-4000-8000-000000000005
EOL
for i in 1 2 3 4 5; do
	start=$(sfdisk -q -l -o Start "$img" 2>/dev/null | sed -n "$((i + 1))p" | tr -d ' ')
	dd if="$W/p$i.img" of="$img" bs=512 seek="$start" conv=notrunc,sparse status=none
done
mv "$img" "$B/demo.img"
rm -f "$W"/p?.img
echo "  DEMO $B/demo.img ($(du -h --apparent-size "$B/demo.img" | cut -f1), 5 partitions)"
