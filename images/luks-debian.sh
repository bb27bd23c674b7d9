#!/usr/bin/env bash
# images/luks-debian.sh BUILD - a Debian 12 disk with an encrypted root for
# the "type it once" tests (tests/e2e/test_luks.py, issue #33 test 5):
#   BUILD/luks-debian/disk.img  GPT: 1 MiB BIOS boot, then vda2, a LUKS2
#                               volume (PBKDF2, UUID $LUKS_UUID below,
#                               passphrase "correct horse 33") holding an
#                               ext4 root: debootstrap minbase + systemd,
#                               systemd-sysv, udev, kmod, busybox,
#                               cryptsetup, cryptsetup-initramfs,
#                               initramfs-tools; /boot holds Debian's
#                               kernel (build/debkernel), the initrd its
#                               mkinitramfs made (cryptroot with
#                               /etc/crypttab's vda2_crypt line) and a
#                               grub.cfg with one entry, root=/dev/mapper/
#                               vda2_crypt, console on ttyS0
# The root filesystem is made without mounting (mkfs -d) and encrypted
# offline (cryptsetup reencrypt --encrypt): no device-mapper on this host.
# The mirror is the first one this machine's apt sources name. Root only
# (debootstrap, chroot); otherwise it says so and makes nothing.
set -eu
B=$(mkdir -p "$1" && cd "$1" && pwd)
D=$B/luks-debian
OUT=$D/disk.img
LUKS_UUID=33e2e0ce-d3b1-4a50-8c4a-000000000033
PASS="correct horse 33"
NAME=vda2_crypt

if [ "$(id -u)" != 0 ]; then
	echo "luks-debian: not root: debootstrap needs root; $OUT is not made" >&2
	exit 0
fi
for t in debootstrap cryptsetup sfdisk mkfs.ext4 lsinitramfs; do
	if ! command -v "$t" > /dev/null; then
		echo "luks-debian: no $t on this machine; $OUT is not made" >&2
		exit 0
	fi
done
VER=$(cat "$B/debkernel/VERSION" 2>/dev/null || true)
MODS=/lib/modules/$VER
if [ -z "$VER" ] || [ ! -d "$MODS/kernel" ] || [ ! -f "/boot/config-$VER" ]; then
	echo "luks-debian: no modules or config of Debian's kernel ${VER:-?} in $MODS" \
		"(scripts/debian-kernel.sh); $OUT is not made" >&2
	exit 0
fi
. "$(dirname "$0")/debian-root.sh"
R=$D/root
mkdir -p "$D"
t0=$(date +%s)
PKGS=systemd,systemd-sysv,udev,kmod,busybox,cryptsetup,cryptsetup-initramfs,initramfs-tools
debian_root "$D" "$PKGS"
# what the initramfs and the booted system read
echo b1e5c0de33b1e5c0de33b1e5c0de3333 > "$R/etc/machine-id"
echo luks-debian > "$R/etc/hostname"
printf '%s UUID=%s none luks,initramfs\n' "$NAME" "$LUKS_UUID" > "$R/etc/crypttab"
# fsck pass 0: minbase has no fsck.ext4 to run
printf '/dev/mapper/%s / ext4 errors=remount-ro 0 0\n' "$NAME" > "$R/etc/fstab"
sed -i 's/^#\?CRYPTSETUP=.*/CRYPTSETUP=y/' "$R/etc/cryptsetup-initramfs/conf-hook"
grep -q '^CRYPTSETUP=y' "$R/etc/cryptsetup-initramfs/conf-hook" ||
	echo CRYPTSETUP=y >> "$R/etc/cryptsetup-initramfs/conf-hook"
# minbase has no zstd, initramfs.conf's default
sed -i 's/^COMPRESS=.*/COMPRESS=gzip/' "$R/etc/initramfs-tools/initramfs.conf"
# Debian's mkinitramfs in the root for Debian's kernel, its modules copied in
rm -rf "$R/lib/modules"
mkdir -p "$R/lib/modules" "$R/boot/grub"
cp -a "$MODS" "$R/lib/modules/"
cp "$B/debkernel/vmlinuz" "$R/boot/vmlinuz"
# mkinitramfs reads the kernel's config for its compressors
cp "/boot/config-$VER" "$R/boot/"
mount -t proc proc "$R/proc"
trap 'umount "$R/proc" 2>/dev/null || true' EXIT
chroot "$R" mkinitramfs -o /boot/initrd.img "$VER" > "$D/mkinitramfs.log" 2>&1 ||
	{ tail -20 "$D/mkinitramfs.log" >&2; exit 1; }
umount "$R/proc"
trap - EXIT
rm -rf "$R/lib/modules"
# the initrd must hold cryptroot's crypttab with our line, and cryptsetup
lsinitramfs "$R/boot/initrd.img" > "$D/initrd.list"
for f in cryptroot/crypttab usr/sbin/cryptsetup scripts/local-top/cryptroot; do
	grep -qx "$f" "$D/initrd.list" ||
		{ echo "luks-debian: the initrd has no $f" >&2; exit 1; }
done
rm -rf "$D/unpacked"
unmkinitramfs "$R/boot/initrd.img" "$D/unpacked"
grep -q "^$NAME UUID=$LUKS_UUID none " "$D/unpacked/cryptroot/crypttab" ||
	{ echo "luks-debian: the initrd's crypttab has no $NAME line:" \
		"$(cat "$D/unpacked/cryptroot/crypttab")" >&2; exit 1; }
rm -rf "$D/unpacked"
cat > "$R/boot/grub/grub.cfg" <<CFG
set timeout=5
menuentry 'Debian GNU/Linux (encrypted root)' {
  linux /boot/vmlinuz root=/dev/mapper/$NAME ro console=ttyS0,115200
  initrd /boot/initrd.img
}
CFG
# small: no documentation, manuals, locales or package lists
rm -rf "$R"/usr/share/doc/* "$R"/usr/share/man/* "$R"/usr/share/locale/* \
	"$R"/var/cache/apt/* "$R"/var/lib/apt/lists/*
# the root filesystem, then encrypted in place with room for the header
rm -f "$D/root.ext4" "$D/root.luks" "$OUT.tmp"
size=$(( $(du -sm "$R" | cut -f1) + 96 ))
mkfs.ext4 -q -F -L luks-root -d "$R" "$D/root.ext4" "${size}M" > /dev/null
mv "$D/root.ext4" "$D/root.luks"
truncate -s "+16M" "$D/root.luks"
printf '%s' "$PASS" | cryptsetup reencrypt --encrypt --type luks2 -q --batch-mode \
	--key-file - --cipher aes-xts-plain64 --key-size 512 --reduce-device-size 16M \
	--sector-size 512 --pbkdf pbkdf2 --hash sha256 --pbkdf-force-iterations 1000 \
	--uuid "$LUKS_UUID" --label cr_debian "$D/root.luks" > /dev/null
[ "$(cryptsetup luksUUID "$D/root.luks")" = "$LUKS_UUID" ] ||
	{ echo "luks-debian: the volume's UUID is not $LUKS_UUID" >&2; exit 1; }
vol=$(( ($(stat -c %s "$D/root.luks") >> 20) + 1 ))
truncate -s "$(( vol + 3 ))M" "$OUT.tmp"
# partition 1 BIOS boot, 2 Linux LUKS: the volume is vda2 in the guest
BIOS_BOOT=21686148-6449-6E6F-744E-656564454649
LINUX_LUKS=CA7D7CCB-63ED-4C53-861C-1742536059CC
printf 'label: gpt\nsize=1MiB, type=%s, name=bios\nsize=%dMiB, type=%s, name=cr_debian\n' \
	"$BIOS_BOOT" "$vol" "$LINUX_LUKS" | sfdisk -q --no-reread --no-tell-kernel "$OUT.tmp"
start=$(sfdisk -d "$OUT.tmp" | sed -n 's/.*2 : start= *\([0-9]*\),.*/\1/p')
dd if="$D/root.luks" of="$OUT.tmp" bs=1M seek="$(( start * 512 ))" oflag=seek_bytes \
	conv=notrunc,sparse status=none
rm -f "$D/root.luks"
mv "$OUT.tmp" "$OUT"
echo "  LUKSDEBIAN $(du -sm "$OUT" | cut -f1) MiB in $(( $(date +%s) - t0 )) s"
