#!/usr/bin/env bash
# images/shim.sh BUILD - the disks of tests/e2e/test_shim.py: bootmenu
# behind Debian's shim, under OVMF with the snakeoil key in db (standing in
# for Microsoft's UEFI CA, which signs shim on a real machine):
#   BUILD/shim-test/mok/       the test Machine Owner Key, made here once
#                              (mok.key, mok.pem, mok.der; not in any db)
#   BUILD/shim-test/disk.img   p1, an ESP:
#        \EFI\BOOT\BOOTX64.EFI  Debian's shimx64.efi (shim-unsigned) signed
#                               with the snakeoil key
#        \EFI\BOOT\mmx64.efi    Debian's MokManager, signed likewise
#        \EFI\BOOT\grubx64.efi  bootmenu-sb.efi (with its .sbat) signed
#                               ONLY with the MOK: the second stage shim
#                               starts; the firmware alone would refuse it
#      Boot Loader Specification entries for our test kernel signed only
#      with the MOK, the same kernel unsigned, and Debian's signed kernel
#      with Debian's initrd (when BUILD/debkernel has it);
#                              p2, an ext4 root for Debian's initrd
#                              (/sbin/init is the test target)
#   BUILD/shim-test/fallback.img  an ESP whose \EFI\BOOT\BOOTX64.EFI is
#      bootmenu-sb.efi signed with the snakeoil key (what the firmware boots
#      after shim gives up), and mok/, the MokNew and MokAuth variables
#      `mokutil --import mok.der` would write, as efivarfs files
#      (images/mok-request.py) with the password in mok/password
set -eu
B=$(cd "$1" && pwd)
SRC=$(cd "$(dirname "$0")/.." && pwd)
W=$B/shim-test
SNAKE_KEY=/usr/share/ovmf/PkKek-1-snakeoil.key
SNAKE_CERT=/usr/share/ovmf/PkKek-1-snakeoil.pem
SHIM_DIR=/usr/lib/shim
MOK_PASSWORD=bootmenu-mok
DEBV=$(cat "$B/debkernel/VERSION")
ROOT_UUID=5b000003-0000-4000-8000-000000000003
CON="console=tty0 console=ttyS0,115200 no_timer_check"
export MTOOLS_SKIP_CHECK=1
for f in "$SHIM_DIR/shimx64.efi" "$SHIM_DIR/mmx64.efi"; do
	[ -r "$f" ] || { echo "shim.sh: missing $f" >&2; exit 1; }
done
rm -rf "$W/esp" "$W/root" "$W/fallback"
mkdir -p "$W/esp/EFI/BOOT" "$W/esp/k" "$W/esp/loader/entries" "$W/fallback/EFI/BOOT" "$W/mok"

# the MOK: a self-signed code-signing certificate, kept across rebuilds
if [ ! -s "$W/mok/mok.der" ]; then
	openssl req -new -x509 -newkey rsa:2048 -nodes -days 3650 -sha256 \
		-subj "/CN=bootmenu test MOK/" -addext "extendedKeyUsage=codeSigning" \
		-keyout "$W/mok/mok.key" -out "$W/mok/mok.pem" 2>/dev/null
	openssl x509 -in "$W/mok/mok.pem" -outform DER -out "$W/mok/mok.der"
fi

sign() { # in out key cert
	SIGN_PASS=snakeoil bash "$SRC/scripts/sign.sh" "$1" "$2" "$3" "$4" >/dev/null
}
snake() { sign "$1" "$2" "$SNAKE_KEY" "$SNAKE_CERT"; }
mok() { sign "$1" "$2" "$W/mok/mok.key" "$W/mok/mok.pem"; }

snake "$SHIM_DIR/shimx64.efi" "$W/esp/EFI/BOOT/BOOTX64.EFI"
snake "$SHIM_DIR/mmx64.efi" "$W/esp/EFI/BOOT/mmx64.efi"
mok "$B/bootmenu-sb.efi" "$W/esp/EFI/BOOT/grubx64.efi"
# the second stage carries the MOK's signature and no other
n=$(sbverify --list "$W/esp/EFI/BOOT/grubx64.efi" 2>/dev/null | grep -c '^signature [0-9]')
[ "$n" = 1 ] || { echo "shim.sh: grubx64.efi has $n signatures, not 1" >&2; exit 1; }
if sbverify --cert "$SNAKE_CERT" "$W/esp/EFI/BOOT/grubx64.efi" >/dev/null 2>&1; then
	echo "shim.sh: grubx64.efi verifies with the snakeoil (db) key" >&2; exit 1
fi
mok "$B/kernel/bzImage" "$W/esp/k/mok-signed"
cp "$B/kernel/bzImage" "$W/esp/k/unsigned"
cp "$B/target-initrd.cpio.gz" "$W/esp/k/initrd.img"
cp "$B/debkernel/vmlinuz" "$W/esp/k/debian"
# Debian's initrd is made only as root (scripts/debian-kernel.sh): without
# it there is no Debian entry, and the test says it skipped that boot
have_debinitrd=no
if [ -f "$B/debkernel/initrd.img" ]; then
	cp "$B/debkernel/initrd.img" "$W/esp/k/debian-initrd.img"
	have_debinitrd=yes
fi

printf 'default shim-mok.conf\ntimeout 60\n' > "$W/esp/loader/loader.conf"
entry() { # file title kernel initrd options
	printf 'title %s\nlinux %s\ninitrd %s\noptions %s\n' "$2" "$3" "$4" "$5" \
		> "$W/esp/loader/entries/$1.conf"
}
entry shim-mok "MOK-signed test kernel" /k/mok-signed /k/initrd.img "$CON demo.entry=shim-mok"
entry shim-unsigned "Unsigned test kernel" /k/unsigned /k/initrd.img "$CON demo.entry=shim-unsigned"
if [ $have_debinitrd = yes ]; then
	entry shim-debian "Debian signed kernel $DEBV" /k/debian /k/debian-initrd.img \
		"console=ttyS0 no_timer_check root=UUID=$ROOT_UUID ro demo.entry=shim-debian"
fi

mkdir -p "$W/root/sbin" "$W/root/dev" "$W/root/proc" "$W/root/sys" "$W/root/run"
cp "$B/target/testinit" "$W/root/sbin/init"
chmod 755 "$W/root/sbin/init"

# the fallback disk: a db-signed bootmenu and the enrolment request
snake "$B/bootmenu-sb.efi" "$W/fallback/EFI/BOOT/BOOTX64.EFI"
mkdir -p "$W/fallback/mok"
python3 "$SRC/images/mok-request.py" "$W/mok/mok.der" "$MOK_PASSWORD" "$W/fallback/mok"
printf '%s\n' "$MOK_PASSWORD" > "$W/fallback/mok/password"
cp "$W/mok/mok.der" "$W/fallback/mok/mok.der"

vfat() { # dir label serial out
	local mib=$(( $(du -sm "$1" | cut -f1) + 8 ))
	rm -f "$4"
	mkfs.vfat -C -n "$2" -i "$3" "$4" $((mib * 1024)) >/dev/null
	mcopy -i "$4" -s -m "$1"/* ::/
}
gpt() { # out part-images...
	local out=$1 total=2 i=0 spec="" p start
	shift
	for p in "$@"; do total=$((total + $(stat -c %s "$p") / 1048576 + 1)); done
	rm -f "$out.tmp"; truncate -s "${total}M" "$out.tmp"
	for p in "$@"; do
		i=$((i + 1))
		if [ $i = 1 ]; then
			spec+="start=1MiB, size=$(($(stat -c %s "$p") / 1048576))MiB, type=U, name=\"EFI system\""$'\n'
		else
			spec+="size=$(($(stat -c %s "$p") / 1048576))MiB, type=L, name=\"shimroot\", uuid=$ROOT_UUID"$'\n'
		fi
	done
	printf 'label: gpt\nfirst-lba: 2048\n%s' "$spec" | sfdisk -q "$out.tmp"
	i=0
	for p in "$@"; do
		i=$((i + 1))
		start=$(sfdisk -q -l -o Start "$out.tmp" 2>/dev/null | sed -n "$((i + 1))p" | tr -d ' ')
		dd if="$p" of="$out.tmp" bs=512 seek="$start" conv=notrunc,sparse status=none
	done
	mv "$out.tmp" "$out"
}
vfat "$W/esp" SHIM-ESP 5B00E5B1 "$W/p1.img"
mke2fs -q -F -t ext4 -L shimroot -U "$ROOT_UUID" -E root_owner=0:0 -d "$W/root" "$W/p2.img" 16M
gpt "$W/disk.img" "$W/p1.img" "$W/p2.img"
vfat "$W/fallback" FALLBACK 5B00E5B2 "$W/f1.img"
gpt "$W/fallback.img" "$W/f1.img"
rm -f "$W/p1.img" "$W/p2.img" "$W/f1.img"
echo "  SHIMDISK $W/disk.img, $W/fallback.img (shim $(dpkg-query -W -f='${Version}' shim-unsigned), MOK $(openssl x509 -in "$W/mok/mok.pem" -noout -subject | sed 's/^subject=//'), Debian's: $have_debinitrd)"
