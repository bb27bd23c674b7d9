#!/usr/bin/env bash
# tests/bench/mkdisks.sh BUILD - the benchmark's disks, under BUILD/bench/
# (made without root and without mounting: mke2fs -d, mkfs.vfat + mtools):
#   menu.img     a copy of demo.img whose ext4 "debian" grub.cfg says
#                `terminal_output serial` instead of `console` (so GRUB's menu
#                reaches the serial console); timeout 5 as in the demo.
#                On every bench disk the entries' "console=ttyS0,115200
#                console=tty0" is turned round to "console=tty0
#                console=ttyS0,115200": the last console= is /dev/console, so
#                only then does the target's userspace line reach the serial
#                port the host reads (ESP and syslinux files rewritten in
#                place with mtools, the ext4s rebuilt)
#   boot.img     GPT, one ext4 "debian" partition (the demo's UUID and label):
#                the demo's Debian install, grub.cfg with timeout 0 and serial;
#                its default entry is Debian's kernel + the demo target initrd,
#                with `echo 'BENCH-GRUB: loaded'` after its initrd command
#   boot40.img   the same with the default entry's initrd replaced by
#                initrd40.cpio.gz: the target initrd + a 40 MiB random
#                /payload/pad.bin (an uncompressed cpio appended)
#   scanN.img    GPT with N 1 MiB vfat partitions, one syslinux entry each
#   scan-host/N  the same N filesystems as directories, for bootmenu --root
set -euo pipefail
B=$(cd "$1" && pwd)
H=$(cd "$(dirname "$0")" && pwd)
O=$B/bench
W=$O/work
DEBV=$(cat "$B/debkernel/VERSION")
DEB_UUID=1b8e2c4a-0d3f-4c52-9a61-6b7f00de0b1a
export MTOOLS_SKIP_CHECK=1
mkdir -p "$O"
rm -rf "$W"; mkdir -p "$W"

stamp=$O/.disks-ok
if [ -f "$stamp" ] && [ "$stamp" -nt "$B/demo.img" ] && [ "$stamp" -nt "$0" ] &&
   [ "$stamp" -nt "$H/gen.py" ] && [ "$stamp" -nt "$B/target-initrd.cpio.gz" ]; then
	echo "  bench disks up to date"; rm -rf "$W"; exit 0
fi

swapcon() { sed -i 's/console=ttyS0,115200 console=tty0/console=tty0 console=ttyS0,115200/g' "$@"; }
mkext4() { # dir image MiB
	rm -f "$2"
	mke2fs -q -F -t ext4 -L debian -U "$DEB_UUID" -E root_owner=0:0 -d "$1" "$2" "$3"M
}

# --- menu.img: the demo disk, GRUB on serial
cp -a "$B/demo/debian" "$W/deb-menu"
sed -i 's/^terminal_output console$/terminal_output serial/' "$W/deb-menu/boot/grub/grub.cfg"
swapcon "$W/deb-menu/boot/grub/grub.cfg"
mkext4 "$W/deb-menu" "$W/p2.img" 40 >/dev/null
cp --sparse=always "$B/demo.img" "$O/menu.img.tmp"
pstart() { sfdisk -q -l -o Start "$O/menu.img.tmp" 2>/dev/null | sed -n "$(($1 + 1))p" | tr -d ' '; }
dd if="$W/p2.img" of="$O/menu.img.tmp" bs=512 seek="$(pstart 2)" conv=notrunc,sparse status=none
mkdir -p "$W/esp" "$W/sys"
cp "$B"/demo/esp/loader/entries/*.conf "$W/esp/"; swapcon "$W"/esp/*.conf
mcopy -o -i "$O/menu.img.tmp@@$(($(pstart 1) * 512))" "$W"/esp/*.conf ::/loader/entries/
cp "$B/demo/syslinux/syslinux/syslinux.cfg" "$W/sys/"; swapcon "$W/sys/syslinux.cfg"
mcopy -o -i "$O/menu.img.tmp@@$(($(pstart 3) * 512))" "$W/sys/syslinux.cfg" ::/syslinux/
mv "$O/menu.img.tmp" "$O/menu.img"
echo "  BENCH menu.img (demo.img, grub.cfg terminal_output serial)"

# --- the 40 MiB initrd
mkdir -p "$W/pad"
head -c $((40 * 1024 * 1024)) /dev/urandom > "$W/pad/pad.bin"
printf 'dir /payload 0755 0 0\nfile /payload/pad.bin %s 0644 0 0\n' "$W/pad/pad.bin" > "$W/pad.list"
"$B/tools/gen_init_cpio" "$W/pad.list" > "$W/pad.cpio"
python3 - "$B/target-initrd.cpio.gz" "$W/pad.cpio" "$O/initrd40.cpio.gz" <<'PY'
import sys
base = open(sys.argv[1], "rb").read()
extra = open(sys.argv[2], "rb").read()
with open(sys.argv[3], "wb") as f:
    f.write(base + b"\0" * (-len(base) % 4) + extra)
PY
rm -rf "$W/pad" "$W/pad.cpio"
echo "  BENCH initrd40.cpio.gz ($(du -h --apparent-size "$O/initrd40.cpio.gz" | cut -f1))"

# --- boot.img / boot40.img: one ext4 "debian"
gptdisk() { # image partimage MiB
	rm -f "$1"; truncate -s $(($3 + 2))M "$1"
	sfdisk -q "$1" <<EOL
label: gpt
label-id: 0DE40000-0000-4000-8000-0000000000B0
first-lba: 2048
start=1MiB, size=$3MiB, type=L, name="debian", uuid=0DE40002-0000-4000-8000-000000000002
EOL
	dd if="$2" of="$1" bs=1M seek=1 conv=notrunc,sparse status=none
}
cp -a "$B/demo/debian" "$W/deb-boot"
# the default entry (the first top-level initrd) says when GRUB has loaded
# its files: measurement 2's "load done" for GRUB
sed -i -e 's/^terminal_output console$/terminal_output serial/' \
	-e 's/set timeout=5/set timeout=0/' \
	-e "0,/^\tinitrd\t.*\$/s//&\n\techo\t'BENCH-GRUB: loaded'/" "$W/deb-boot/boot/grub/grub.cfg"
swapcon "$W/deb-boot/boot/grub/grub.cfg"
mkext4 "$W/deb-boot" "$W/p.img" 40 >/dev/null
gptdisk "$O/boot.img" "$W/p.img" 40
cp "$O/initrd40.cpio.gz" "$W/deb-boot/boot/initrd.img-$DEBV"
mkext4 "$W/deb-boot" "$W/p.img" 100 >/dev/null
gptdisk "$O/boot40.img" "$W/p.img" 100
echo "  BENCH boot.img, boot40.img (one ext4 'debian', grub.cfg timeout 0, serial)"

# --- scan disks and host trees
for n in 1 16 64 128; do
	img=$O/scan$n.img
	rm -rf "$O/scan-host/$n"; mkdir -p "$O/scan-host/$n"
	{
		echo "label: gpt"
		echo "first-lba: 2048"
		for k in $(seq 1 $n); do echo "size=1MiB, type=L, name=\"scan$k\""; done
	} > "$W/scan.sfdisk"
	rm -f "$img"; truncate -s $((n + 2))M "$img"
	sfdisk -q "$img" < "$W/scan.sfdisk"
	for k in $(seq 1 $n); do
		d=$O/scan-host/$n/p$k
		python3 "$H/gen.py" syslinux "$d" "$k"
		rm -f "$W/v.img"
		mkfs.vfat -C -n "SCAN$k" -i "$(printf '5CA%05X' "$k")" "$W/v.img" 1024 >/dev/null
		mcopy -i "$W/v.img" -s -m "$d"/* ::/
		dd if="$W/v.img" of="$img" bs=1M seek="$k" conv=notrunc,sparse status=none
	done
	echo "  BENCH scan$n.img ($n vfat partitions) and scan-host/$n"
done

# --- stick.img: a USB stick for the hotplug figure (measurement 8): MBR, one
# vfat partition with a syslinux.cfg whose one entry is "Bench USB stick"
mkdir -p "$W/stick/syslinux"
printf 'DEFAULT stick\nLABEL stick\n  MENU LABEL Bench USB stick\n  KERNEL /vmlinuz\n  APPEND console=ttyS0\n' \
	> "$W/stick/syslinux/syslinux.cfg"
head -c 4096 /dev/zero > "$W/stick/vmlinuz"
rm -f "$W/s.img" "$O/stick.img"; truncate -s 10M "$O/stick.img"
printf 'label: dos\nstart=1MiB, size=8MiB, type=c\n' | sfdisk -q "$O/stick.img"
mkfs.vfat -C -n BENCHSTICK "$W/s.img" 8192 >/dev/null
mcopy -i "$W/s.img" -s "$W/stick"/* ::/
dd if="$W/s.img" of="$O/stick.img" bs=1M seek=1 conv=notrunc,sparse status=none
echo "  BENCH stick.img (a USB stick with one syslinux entry)"

# --- parser-throughput trees
rm -rf "$O/gen-grub" "$O/gen-bls"
python3 "$H/gen.py" grub "$O/gen-grub" 10000
python3 "$H/gen.py" bls "$O/gen-bls" 1000
echo "  BENCH gen-grub (10,000 menuentries), gen-bls (1,000 entries)"
rm -rf "$W"
touch "$stamp"
