#!/usr/bin/env bash
# hostile/volumes.sh OUT BUILD - volume-level hostile cases, one per GPT
# partition (issue #37, item 5):
#   p1 an LVM2 PV (Debian's lvm2) whose newest metadata, rewritten with
#      valid checksums, puts LV hvpast/past 9000 extents into a 16 MiB PV
#   p2 an LVM2 PV whose metadata stacks LVs in a loop: hvloop/a's segment
#      lies on LV b, b's on a, and self's on self (lvm2's text format takes
#      an LV's name where a PV's would be: import_vsn1.c, areas)
#   p3 an md 1.2 member, valid sb_csum, claiming 2^32-1 raid_disks (with
#      max_dev 384, all the roles a 4 KiB superblock holds); its data area
#      is an ext4 with one entry, hostile-md-members
#   p4 btrfs (mkfs.btrfs) whose superblocks (every copy on the device,
#      csum redone) point the chunk root at logical 1 PiB, which no chunk
#      of sys_chunk_array maps; its /boot/grub/grub.cfg names
#      hostile-btrfs-chunk
#   p5 an ESP (mkfs.vfat, mcopy) whose \EFI\BOOT\BOOTX64.EFI cluster chain
#      loops (its last cluster's FAT entry, in both FATs, names its first)
#      and whose directory entry claims 32 MiB, more than the volume
#      holds; \EFI\debian\grubx64.efi is cross-linked onto the same chain
#      with the same size, so the fallback-loader comparison reads both
set -eu
OUT=$1; B=$(cd "$2" && pwd)
KERNEL=$B/kernel/bzImage
HERE=$(cd "$(dirname "$0")" && pwd)
W=$OUT.d; rm -rf "$W"; mkdir -p "$W"
export MTOOLS_SKIP_CHECK=1 LVM_SUPPRESS_FD_WARNINGS=1
C='devices{filter=["a|^/dev/loop|","r|.*|"] use_devicesfile=0 obtain_device_list_from_udev=0} activation{udev_sync=0 udev_rules=0 monitoring=0} backup{backup=0 archive=0}'
lv() { "$@" --driverloaded n --config "$C" >/dev/null 2>&1; }
rnd() { python3 -c "import random,sys; r=random.Random($2); sys.stdout.buffer.write(r.randbytes($1))"; }
loop=
trap '[ -z "$loop" ] || losetup -d "$loop"; [ -n "${KEEP:-}" ] || rm -rf "$W"' EXIT

# pv FILE VG LV...: a 16 MiB PV of volume group VG with 2 MiB LVs
pv() {
	local f=$1 vg=$2
	shift 2
	truncate -s 16M "$f"
	loop=$(losetup -f --show "$f")
	lv pvcreate --metadatasize 512k --dataalignment 1m "$loop"
	lv vgcreate -s 1m "$vg" "$loop"
	for n in "$@"; do lv lvcreate -an -Zn -L 2M -n "$n" "$vg"; done
	lv vgchange -an "$vg" || true
	losetup -d "$loop"
	loop=
}
pv "$W/p1.img" hvpast past
pv "$W/p2.img" hvloop a b self
python3 "$HERE/volumes.py" lvm-past "$W/p1.img"
python3 "$HERE/volumes.py" lvm-loop "$W/p2.img"

# p3: the md member's data, an ext4 /boot
mkdir -p "$W/md/grub"; cp "$KERNEL" "$W/md/vmlinuz"
echo 'menuentry "hostile-md-members" { linux /vmlinuz }' > "$W/md/grub/grub.cfg"
mke2fs -q -F -t ext4 -L hmd -d "$W/md" "$W/md.ext4" 12M
python3 "$HERE/volumes.py" md "$W/p3.img" "$W/md.ext4"

# p4
mkdir -p "$W/bt/boot/grub"; cp "$KERNEL" "$W/bt/boot/vmlinuz"
echo 'menuentry "hostile-btrfs-chunk" { linux /boot/vmlinuz }' > "$W/bt/boot/grub/grub.cfg"
truncate -s 128M "$W/p4.img"
mkfs.btrfs -q -L hbtrfs --rootdir "$W/bt" "$W/p4.img" >/dev/null
python3 "$HERE/volumes.py" btrfs "$W/p4.img"

# p5: two loaders the fallback comparison reads whole (not a kernel:
# a copy of bootmenu's own would be left out before it is read)
mkdir -p "$W/esp/EFI/BOOT" "$W/esp/EFI/debian"
{ printf MZ; rnd $((64 << 10)) 5; } > "$W/esp/EFI/BOOT/BOOTX64.EFI"
cp "$W/esp/EFI/BOOT/BOOTX64.EFI" "$W/esp/EFI/debian/grubx64.efi"
mkfs.vfat -C -F 16 -s 4 -n HESP "$W/p5.img" $((16 * 1024)) >/dev/null
mcopy -i "$W/p5.img" -s -m "$W/esp/EFI" ::/
python3 "$HERE/volumes.py" fat "$W/p5.img" \
	"$(mshowfat -i "$W/p5.img" ::/EFI/BOOT/BOOTX64.EFI)"

img=$OUT.tmp; rm -f "$img"; truncate -s 200M "$img"
sfdisk -q "$img" <<EOL
label: gpt
label-id: 401DE500-0000-4000-8000-000000000000
start=1MiB,  size=16MiB,  type=E6D6D379-F507-44C2-A23C-238F2A3DF928, name="lvm-past"
start=17MiB, size=16MiB,  type=E6D6D379-F507-44C2-A23C-238F2A3DF928, name="lvm-loop"
start=33MiB, size=16MiB,  type=A19D880F-05FC-4D3B-A006-743F0F84911E, name="md-members"
start=49MiB, size=128MiB, type=L, name="btrfs-chunk"
start=177MiB, size=16MiB, type=U, name="esp-loop"
EOL
for i in 1 2 3 4 5; do
	start=$(sfdisk -q -l -o Start "$img" 2>/dev/null | sed -n "$((i + 1))p" | tr -d ' ')
	dd if="$W/p$i.img" of="$img" bs=512 seek="$start" conv=notrunc,sparse status=none
done
mv "$img" "$OUT"
