#!/usr/bin/env bash
# tests/unit/mkimages.sh DIR - build the disk images test_probe.c probes,
# as plain (sparse) files: no loop devices, no mounts, no root needed.
# Every UUID and label is fixed so the test can assert values. Rebuilds
# only when this script changed (DIR/.stamp holds its checksum).
set -eu
out=$1
mkdir -p "$out"
sum=$(sha256sum "$0" | cut -d' ' -f1)
[ -f "$out/.stamp" ] && [ "$(cat "$out/.stamp")" = "$sum" ] && exit 0
rm -f "$out"/*.img "$out/.stamp"
PATH=$PATH:/usr/sbin:/sbin
cd "$out"
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
q() { "$@" >/dev/null 2>&1 || { echo "mkimages: failed: $*" >&2; "$@"; exit 1; }; }

# Deterministic "random" bytes (a seeded generator, so no signature can
# appear by chance between runs).
noise() { python3 -c "import random,sys; random.seed($2); sys.stdout.buffer.write(random.randbytes($1))"; }

# put FILE START_MIB: copy a partition image into disk image FILE
put() { dd if="$1" of="$2" bs=1M seek="$3" conv=notrunc,sparse status=none; }

mk_vfat() { truncate -s "$2" "$1"; q mkfs.vfat -F 16 -i "$3" -n "$4" "$1"; }
mk_ext() { truncate -s "$2" "$1"; q mke2fs -F -q -t "$3" -U "$4" -L "$5" -E root_owner=0:0 "$1"; }
mk_luks() {
	truncate -s "$2" "$1"
	printf 'pw' > "$t/key"
	q cryptsetup luksFormat --batch-mode --type luks2 --uuid "$3" \
		--pbkdf pbkdf2 --pbkdf-force-iterations 1000 --luks2-metadata-size 16k \
		--luks2-keyslots-size 1m --key-file "$t/key" "$1"
}

# --- GPT: ESP, XBOOTLDR, ext4, swap, LUKS, noise; fixed PARTUUIDs and names
mk_vfat "$t/esp" 16M 1234ABCD ESP
mk_vfat "$t/xbl" 16M 0BADF00D XBOOT
mk_ext "$t/root" 32M ext4 0f0e0d0c-0b0a-4908-8706-050403020100 rootfs
truncate -s 8M "$t/swap"; q mkswap -U 5a5a5a5a-1111-4222-8333-444455556666 -L swp "$t/swap"
mk_luks "$t/luks" 8M 1c1c1c1c-2222-4333-8444-555566667777
noise 4194304 6 > "$t/noise"
truncate -s 100M gpt.img
sfdisk -q gpt.img <<'EOF'
label: gpt
label-id: 11111111-2222-4333-8444-555555555555
first-lba: 2048
start=1MiB, size=16MiB, type=C12A7328-F81F-11D2-BA4B-00A0C93EC93B, uuid=AAAAAAAA-0000-4000-8000-000000000001, name="EFI System"
start=17MiB, size=16MiB, type=BC13C2FF-59E6-4262-A352-B275FD6F7172, uuid=AAAAAAAA-0000-4000-8000-000000000002, name="Linux extended boot"
start=33MiB, size=32MiB, type=0FC63DAF-8483-4772-8E79-3D69D8477DE4, uuid=AAAAAAAA-0000-4000-8000-000000000003, name="root"
start=65MiB, size=8MiB, type=0657FD6D-A4AB-43C4-84E5-0933C84B4F4F, uuid=AAAAAAAA-0000-4000-8000-000000000004, name="swap"
start=73MiB, size=8MiB, type=CA7D7CCB-63ED-4C53-861C-1742536059CC, uuid=AAAAAAAA-0000-4000-8000-000000000005, name="vault"
start=81MiB, size=4MiB, type=0FC63DAF-8483-4772-8E79-3D69D8477DE4, uuid=AAAAAAAA-0000-4000-8000-000000000006, name="noise"
EOF
put "$t/esp" gpt.img 1; put "$t/xbl" gpt.img 17; put "$t/root" gpt.img 33
put "$t/swap" gpt.img 65; put "$t/luks" gpt.img 73; put "$t/noise" gpt.img 81

# --- MBR: ESP (0xef), ext2 (0x83), extended with one logical ext4
mk_vfat "$t/mesp" 16M CAFE0001 MBRESP
mk_ext "$t/m2" 8M ext2 22222222-aaaa-4bbb-8ccc-dddddddddddd boot2
mk_ext "$t/m5" 8M ext4 55555555-aaaa-4bbb-8ccc-dddddddddddd logical
truncate -s 40M mbr.img
sfdisk -q mbr.img <<'EOF'
label: dos
label-id: 0x12345678
start=1MiB, size=16MiB, type=ef
start=17MiB, size=8MiB, type=83
start=25MiB, size=14MiB, type=5
start=26MiB, size=8MiB, type=83
EOF
put "$t/mesp" mbr.img 1; put "$t/m2" mbr.img 17; put "$t/m5" mbr.img 26

# --- whole-disk filesystems and the things that must be skipped
mk_ext ext4.img 16M ext4 e4e4e4e4-0000-4000-8000-00000000e4e4 wholedisk
truncate -s 300M xfs.img; q mkfs.xfs -f -q -m uuid=f0f0f0f0-1234-4567-89ab-cdef01234567 -L xfsdisk xfs.img
truncate -s 128M btrfs.img; q mkfs.btrfs -f -q -U b7b7b7b7-0000-4000-8000-00000000b7b7 -L btrdisk btrfs.img
mkdir -p "$t/iso/boot"; echo hi > "$t/iso/boot/readme.txt"
q xorriso -as mkisofs -quiet -V BMTEST_ISO -J -R \
	--modification-date=2024010203040500 -o iso.img "$t/iso"
q mksquashfs "$t/iso" squashfs.img -noappend -quiet -no-progress -mkfs-time 0
cp "$t/swap" swap.img
mk_luks luks.img 4M 1c1c1c1c-2222-4333-8444-555566667777
noise 1048576 7 > noise.img
# the first 1.5 KiB of an ext4: the superblock is cut in half
head -c 1536 ext4.img > truncated.img
# an xfs superblock at 0 and an ext4 one at 1 KiB: two answers, none guessed
cp xfs.img ambivalent.img
dd if=ext4.img of=ambivalent.img bs=1024 skip=1 seek=1 count=1 conv=notrunc status=none
echo "$sum" > .stamp
