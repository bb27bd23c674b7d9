#!/usr/bin/env bash
# hostile/configs.sh OUT BUILD - config-level hostile cases, one ext4 per
# partition, each with a real kernel at /boot/vmlinuz:
#   p1 a grub.cfg that sources and configfiles itself
#   p2 5,000 nested submenus
#   p3 10,000 menuentries
#   p4 a syslinux INCLUDE loop (a -> b -> syslinux.cfg)
#   p5 symlinks to /, .. chains and absolute paths; the test puts canary
#      configs at /etc/canary/ in the initramfs, which must never be read
#   p6 an initrd that is a directory, a truncated kernel, a char device
#   p7 a syslinux include fan-out: 8 files, each including the next ten
#      times (10^8 reads if followed; the per-filesystem budget stops it)
set -eu
OUT=$1; B=$(cd "$2" && pwd)
KERNEL=$B/kernel/bzImage
W=$OUT.d; rm -rf "$W"; mkdir -p "$W"
for i in 1 2 3 4 5 6 7; do mkdir -p "$W/p$i/boot/grub"; cp "$KERNEL" "$W/p$i/boot/vmlinuz"; done

cat > "$W/p1/boot/grub/grub.cfg" <<'EOL'
menuentry "hostile-self-loop" { linux /boot/vmlinuz }
source /boot/grub/grub.cfg
configfile /boot/grub/grub.cfg
source ($root)/boot/grub/grub.cfg
EOL

python3 - "$W/p2/boot/grub/grub.cfg" <<'EOL'
import sys
n = 5000
with open(sys.argv[1], "w") as f:
    f.write('menuentry "hostile-nest-top" { linux /boot/vmlinuz }\n')
    for i in range(n):
        f.write('submenu "nest-%d" {\n' % i)
    f.write('menuentry "hostile-nest-deep" { linux /boot/vmlinuz }\n')
    f.write("}\n" * n)
EOL

python3 - "$W/p3/boot/grub/grub.cfg" <<'EOL'
import sys
with open(sys.argv[1], "w") as f:
    for i in range(10000):
        f.write('menuentry "hostile-many-%d" { linux /boot/vmlinuz }\n' % i)
EOL

mkdir -p "$W/p4/syslinux"
printf 'DEFAULT sysloop\nLABEL sysloop\n  MENU LABEL hostile-sys-loop\n  KERNEL /boot/vmlinuz\nINCLUDE /syslinux/a.cfg\n' > "$W/p4/syslinux/syslinux.cfg"
printf 'INCLUDE /syslinux/b.cfg\nLABEL a\n  KERNEL /boot/vmlinuz\n' > "$W/p4/syslinux/a.cfg"
printf 'INCLUDE /syslinux/syslinux.cfg\nINCLUDE b.cfg\n' > "$W/p4/syslinux/b.cfg"

d=$W/p5
mkdir -p "$d/syslinux" "$d/loader/entries" "$d/etc"
ln -sf /etc/canary/grub.cfg "$d/boot/grub/grub.cfg"
ln -sf ../../../../../../../../etc/canary/syslinux.cfg "$d/syslinux/syslinux.cfg"
ln -sf /etc/canary/bls.conf "$d/loader/entries/escape.conf"
ln -sf ../../../../../../init "$d/loader/entries/init.conf"
ln -sf / "$d/boot/root"
ln -sf .. "$d/boot/up"
ln -sf /etc/bootmenu.conf "$d/etc/lilo.conf"
# a BLS entry that reaches the canary through the links
printf 'title hostile-sym-kernel\nlinux /boot/root/etc/canary/vmlinuz\n' > "$d/loader/entries/via-root.conf"
printf 'title hostile-sym-up\nlinux /boot/up/up/up/up/etc/canary/vmlinuz\n' > "$d/loader/entries/via-up.conf"

d=$W/p6; mkdir -p "$d/boot/initrd.d"
head -c 65536 "$KERNEL" > "$d/boot/vmlinuz-trunc"
cat > "$d/boot/grub/grub.cfg" <<'EOL'
menuentry "hostile-initrd-dir" { linux /boot/vmlinuz
  initrd /boot/initrd.d }
menuentry "hostile-truncated" { linux /boot/vmlinuz-trunc }
menuentry "hostile-devzero" { linux /boot/vmlinuz-zero }
EOL

d=$W/p7; mkdir -p "$d/syslinux"
printf 'DEFAULT fan\nLABEL fan\n  MENU LABEL hostile-fan-top\n  KERNEL /boot/vmlinuz\n' > "$d/syslinux/syslinux.cfg"
for i in 0 1 2 3 4 5 6 7; do
	f=$d/syslinux/f$i.cfg; [ "$i" = 0 ] && f=$d/syslinux/syslinux.cfg
	for j in 0 1 2 3 4 5 6 7 8 9; do echo "INCLUDE f$((i + 1)).cfg"; done >> "$f"
done
echo '# the leaf' > "$d/syslinux/f8.cfg"

for i in 1 2 3 4 5 6 7; do
	mke2fs -q -F -t ext4 -L hcfg$i -E root_owner=0:0 -d "$W/p$i" "$W/p$i.img" 8M
done
# a character device (1,5 is /dev/zero) as a kernel; the mount is nodev
printf 'cd /boot\nmknod vmlinuz-zero c 1 5\n' > "$W/mknod"
debugfs -w -f "$W/mknod" "$W/p6.img" >/dev/null 2>&1

img=$OUT.tmp; rm -f "$img"; truncate -s 60M "$img"
sfdisk -q "$img" <<EOL
label: gpt
label-id: C0F16000-0000-4000-8000-000000000000
start=1MiB,  size=8MiB, type=L, name="self-loop"
start=9MiB,  size=8MiB, type=L, name="nest"
start=17MiB, size=8MiB, type=L, name="many"
start=25MiB, size=8MiB, type=L, name="sys-loop"
start=33MiB, size=8MiB, type=L, name="symlinks"
start=41MiB, size=8MiB, type=L, name="bad-files"
start=49MiB, size=8MiB, type=L, name="fan-out"
EOL
for i in 1 2 3 4 5 6 7; do
	start=$(sfdisk -q -l -o Start "$img" 2>/dev/null | sed -n "$((i + 1))p" | tr -d ' ')
	dd if="$W/p$i.img" of="$img" bs=512 seek="$start" conv=notrunc,sparse status=none
done
rm -rf "$W"
mv "$img" "$OUT"
