#!/usr/bin/env bash
# images/secureboot.sh BUILD - BUILD/sb-test/disk.img, the Secure Boot
# tests' disk (tests/e2e/test_secureboot.py), made without mounting:
#   p1, an ESP: \EFI\BOOT\BOOTX64.EFI = bootmenu-sb.efi signed with the
#       snakeoil key that Debian's OVMF_VARS_4M.snakeoil.fd enrols in db;
#       Boot Loader Specification entries for our test kernel signed with
#       that key, the same kernel unsigned, the signed one with one byte
#       changed, and Debian's own signed kernel with Debian's initrd
#   p2, an ext4 root for Debian's initrd: /sbin/init is the test target
# Also BUILD/sb-test/bootmenu.signed.efi, the signed image alone, and
# BUILD/sb-test/outside.cpio, an initrd from outside whose /init prints
# OUTSIDE-INITRD-RAN (also on the ESP as \outside.cpio): the signed image
# must ignore it, from qemu -initrd or from initrd= in a Boot#### (issue #39)
set -eu
B=$(cd "$1" && pwd)
SRC=$(cd "$(dirname "$0")/.." && pwd)
W=$B/sb-test
KEY=/usr/share/ovmf/PkKek-1-snakeoil.key
CERT=/usr/share/ovmf/PkKek-1-snakeoil.pem
DEBV=$(cat "$B/debkernel/VERSION")
CON="console=tty0 console=ttyS0,115200 no_timer_check"
ROOT_UUID=5b000002-0000-4000-8000-000000000002
export MTOOLS_SKIP_CHECK=1 SIGN_PASS=snakeoil
rm -rf "$W/esp" "$W/root"; mkdir -p "$W/esp/EFI/BOOT" "$W/esp/k" "$W/esp/loader/entries"

sign() { bash "$SRC/scripts/sign.sh" "$1" "$2" "$KEY" "$CERT" >/dev/null; }
sign "$B/bootmenu-sb.efi" "$W/bootmenu.signed.efi"
cp "$W/bootmenu.signed.efi" "$W/esp/EFI/BOOT/BOOTX64.EFI"
sign "$B/kernel/bzImage" "$W/esp/k/signed"
cp "$B/kernel/bzImage" "$W/esp/k/unsigned"
# one byte of the signed kernel's code changed: the signature no longer
# matches the image (the byte is inside what Authenticode hashes)
cp "$W/esp/k/signed" "$W/esp/k/tampered"
half=$(($(stat -c %s "$W/esp/k/tampered") / 2))
b=$(od -An -tu1 -j "$half" -N1 "$W/esp/k/tampered" | tr -d ' ')
printf "$(printf '\\%03o' $(((b + 1) % 256)))" |
	dd of="$W/esp/k/tampered" bs=1 seek="$half" conv=notrunc status=none
cp "$B/target-initrd.cpio.gz" "$W/esp/k/initrd.img"
cp "$B/debkernel/vmlinuz" "$W/esp/k/debian"
# the outside initrd: only /init, a script for the built-in busybox's sh
cat > "$W/outside-init" <<'EOL'
#!/bin/sh
echo "OUTSIDE-INITRD-RAN: an initrd from outside replaced /init"
exec /bin/sh
EOL
printf 'file /init %s 0755 0 0\n' "$W/outside-init" > "$W/outside.list"
"$B/tools/gen_init_cpio" "$W/outside.list" > "$W/outside.cpio"
cp "$W/outside.cpio" "$W/esp/outside.cpio"
have_debinitrd=no
if [ -f "$B/debkernel/initrd.img" ]; then
	cp "$B/debkernel/initrd.img" "$W/esp/k/debian-initrd.img"
	have_debinitrd=yes
fi

printf 'default sb-signed.conf\ntimeout 60\n' > "$W/esp/loader/loader.conf"
entry() { # file title kernel initrd options
	printf 'title %s\nlinux %s\ninitrd %s\noptions %s\n' "$2" "$3" "$4" "$5" \
		> "$W/esp/loader/entries/$1.conf"
}
entry sb-signed "Signed test kernel" /k/signed /k/initrd.img "$CON demo.entry=sb-signed"
entry sb-unsigned "Unsigned test kernel" /k/unsigned /k/initrd.img "$CON demo.entry=sb-unsigned"
entry sb-tampered "Tampered test kernel" /k/tampered /k/initrd.img "$CON demo.entry=sb-tampered"
if [ $have_debinitrd = yes ]; then
	entry sb-debian "Debian signed kernel $DEBV" /k/debian /k/debian-initrd.img \
		"console=ttyS0 no_timer_check root=UUID=$ROOT_UUID ro demo.entry=sb-debian"
fi

mkdir -p "$W/root/sbin" "$W/root/dev" "$W/root/proc" "$W/root/sys" "$W/root/run"
cp "$B/target/testinit" "$W/root/sbin/init"
chmod 755 "$W/root/sbin/init"

esp_mib=$(( $(du -sm "$W/esp" | cut -f1) + 16 ))
rm -f "$W/p1.img" "$W/p2.img"
mkfs.vfat -C -n SB-ESP -i 5B00E5B0 "$W/p1.img" $((esp_mib * 1024)) >/dev/null
mcopy -i "$W/p1.img" -s -m "$W/esp"/* ::/
mke2fs -q -F -t ext4 -L sbroot -U "$ROOT_UUID" -E root_owner=0:0 -d "$W/root" "$W/p2.img" 16M

img=$W/disk.img.tmp
rm -f "$img"; truncate -s $((esp_mib + 18))M "$img"
sfdisk -q "$img" <<EOL
label: gpt
first-lba: 2048
start=1MiB, size=${esp_mib}MiB, type=U, name="EFI system"
size=16MiB, type=L, name="sbroot", uuid=$ROOT_UUID
EOL
for i in 1 2; do
	start=$(sfdisk -q -l -o Start "$img" 2>/dev/null | sed -n "$((i + 1))p" | tr -d ' ')
	dd if="$W/p$i.img" of="$img" bs=512 seek="$start" conv=notrunc,sparse status=none
done
rm -f "$W/p1.img" "$W/p2.img"
mv "$img" "$W/disk.img"
echo "  SBDISK $W/disk.img (signed bootmenu, 3 test kernels, Debian's: $have_debinitrd, an outside initrd)"
