#!/usr/bin/env bash
# hostile/media.sh OUT BUILD - filesystem-level hostile cases, one per
# partition, under a GPT whose backup header and table disagree with the
# primary (they describe one partition "evil" over the whole disk):
#   p1 ext4 whose superblock is random but for its magic
#   p2 random bytes
#   p3 a LUKS1 container (locked: offered for unlocking, never mounted)
#   p4 vfat with a 100 MB /boot/grub/grub.cfg
set -eu
OUT=$1; B=$(cd "$2" && pwd)
KERNEL=$B/kernel/bzImage
W=$OUT.d; rm -rf "$W"; mkdir -p "$W"
export MTOOLS_SKIP_CHECK=1
rnd() { python3 -c "import random,sys; r=random.Random($2); sys.stdout.buffer.write(r.randbytes($1))"; }

# p1: the superblock (bytes 1024..2047) randomised, magic 0xEF53 kept at
# 1024+56 so blkid still calls it ext4 and the mount has to refuse it
mkdir -p "$W/sb/boot/grub"; cp "$KERNEL" "$W/sb/boot/vmlinuz"
echo 'menuentry "hostile-corrupt-sb" { linux /boot/vmlinuz }' > "$W/sb/boot/grub/grub.cfg"
mke2fs -q -F -t ext4 -L hsb -d "$W/sb" "$W/p1.img" 8M
rnd 1024 1 | dd of="$W/p1.img" bs=1 seek=1024 conv=notrunc status=none
printf '\123\357' | dd of="$W/p1.img" bs=1 seek=1080 conv=notrunc status=none
# p2
rnd $((4 << 20)) 2 > "$W/p2.img"
# p3
rnd 64 3 > "$W/key"
truncate -s 8M "$W/p3.img"
cryptsetup luksFormat -q --type luks1 --pbkdf-force-iterations 1000 \
	--key-file "$W/key" "$W/p3.img" >/dev/null 2>&1 ||
	cryptsetup luksFormat -q --type luks1 --iter-time 1 --key-file "$W/key" "$W/p3.img"
# p4: one entry, then 100 MiB of comment lines
mkdir -p "$W/fat/boot/grub"; cp "$KERNEL" "$W/fat/boot/vmlinuz"
{ echo 'menuentry "hostile-huge-first" { linux /boot/vmlinuz }'
  yes '# padding padding padding padding padding padding padding padding' | head -c $((100 << 20))
  echo; echo 'menuentry "hostile-huge-last" { linux /boot/vmlinuz }'; } > "$W/fat/boot/grub/grub.cfg"
mkfs.vfat -C -n HHUGE "$W/p4.img" $((110 * 1024)) >/dev/null
mcopy -i "$W/p4.img" -s -m "$W/fat"/* ::/
rm -f "$W/fat/boot/grub/grub.cfg"

img=$OUT.tmp; rm -f "$img"; truncate -s 134M "$img"
# the backup first: a GPT of one partition, kept from the last 33 sectors
sfdisk -q "$img" <<EOL
label: gpt
label-id: BADBAC00-0000-4000-8000-000000000000
start=1MiB, size=130MiB, type=L, name="evil", uuid=BADBAC01-0000-4000-8000-000000000001
EOL
sectors=$(($(stat -c %s "$img") / 512))
dd if="$img" of="$W/backup" bs=512 skip=$((sectors - 33)) count=33 status=none
sfdisk -q "$img" <<EOL
label: gpt
label-id: 40511E00-0000-4000-8000-000000000000
start=1MiB,  size=8MiB,   type=L, name="corrupt-sb"
start=9MiB,  size=4MiB,   type=L, name="random"
start=13MiB, size=8MiB,   type=L, name="luks"
start=21MiB, size=110MiB, type=L, name="huge-cfg"
EOL
for i in 1 2 3 4; do
	start=$(sfdisk -q -l -o Start "$img" 2>/dev/null | sed -n "$((i + 1))p" | tr -d ' ')
	dd if="$W/p$i.img" of="$img" bs=512 seek="$start" conv=notrunc,sparse status=none
done
dd if="$W/backup" of="$img" bs=512 seek=$((sectors - 33)) conv=notrunc status=none
rm -rf "$W"
mv "$img" "$OUT"
