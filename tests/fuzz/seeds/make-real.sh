#!/usr/bin/env bash
# tests/fuzz/seeds/make-real.sh BUILD [TARGET...] - remake the fuzz seeds
# that real tools write (every target, or the ones named, e.g. fuzz_lvm),
# into tests/fuzz/seeds/<target>/real-*. SOURCES.md says which tool and
# version made each. Run as root: lvm2 and the btrfs search need loop
# devices over scratch files (never another device; nothing else is
# mounted or changed). Each seed is cut to what its target reads and to
# at most 64 KiB (the long runs' -max_len). UUIDs, keys and times change
# on every remake; the seeds' use is their shape.
set -eu
B=$(cd "${1:?usage: make-real.sh BUILD [TARGET...]}" && pwd)
shift
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
loops=()
mnts=()
cleanup() {
	for m in "${mnts[@]}"; do umount "$m"; done
	for l in "${loops[@]}"; do losetup -d "$l"; done
	rm -rf "$tmp"
}
trap cleanup EXIT
out() { # out TARGET: the target's directory, old real-* seeds removed
	rm -f "$here/$1"/real-*
	echo "$here/$1"
}
pair() { # pair SCRIPT TARGET1 TARGET2: a script that writes two targets' seeds
	local a b
	a=$(out "$2")
	b=$(out "$3")
	TEST_LOGS=$tmp python3 "$here/$1" "$B" "$a" "$b"
}
loop() { # loop FILE -> the loop device in $dev
	dev=$(losetup -f --show "$1")
	loops+=("$dev")
}

# fuzz_lvm takes a PV's first bytes (label, metadata area) or bare
# metadata text. Beside the fixtures' PVs (32 KiB areas, made by
# tests/fixtures/lvm/make.sh): lvm2's defaults (a 1 MiB area, its first
# 64 KiB kept), the label in sector 3, a PV without a metadata area, a PV
# in no VG, three PVs with a three-way stripe, and vgcfgbackup's text.
export LVM_SUPPRESS_FD_WARNINGS=1
LVC='devices{filter=["a|^/dev/loop|","r|.*|"] use_devicesfile=0 obtain_device_list_from_udev=0} activation{udev_sync=0 udev_rules=0 monitoring=0}'
lv() { "$@" --driverloaded n --config "$LVC" >/dev/null 2>&1; }
newpv() { # newpv NAME PVCREATE-ARGS... -> the loop device in $dev
	local n=$1
	shift
	truncate -s 64M "$tmp/$n.img"
	loop "$tmp/$n.img"
	lv pvcreate "$@" "$dev"
}
fuzz_lvm() {
	local d a b c
	d=$(out fuzz_lvm)
	newpv lvdef; a=$dev
	newpv lvsec3 --labelsector 3; b=$dev
	newpv lvnomda --pvmetadatacopies 0; c=$dev
	lv vgcreate vgdef "$a" "$b" "$c"
	lv lvcreate -an -Zn -L 8M -n root vgdef
	lv lvcreate -an -Zn -i2 -I64k -L 16M -n stripe vgdef
	lv lvcreate -an -Zn -i3 -I128k -L 12M -n three vgdef
	lv lvextend -L +8M vgdef/root
	lv lvchange --addtag boot vgdef/root
	lv vgcfgbackup -f "$tmp/vgdef.txt" vgdef
	newpv lvorphan
	for n in lvdef lvsec3 lvnomda lvorphan; do
		head -c 65536 "$tmp/$n.img" >"$d/real-$n.pv"
	done
	cp "$tmp/vgdef.txt" "$d/real-vgcfgbackup.txt"
}

# fuzz_md takes a pick byte (where the superblock was found: 1 at 4 KiB,
# 2 at the 1.0 place near the end, 3 at the 0.90 place; bit 2 asks the
# target to sign a mutated superblock), the device's size in sectors
# (le32), then 4 KiB from the superblock on. The members are the ones
# Debian's mdadm wrote in tests/e2e/test_volumes.py's builder VM
# (tests/e2e/mdadm_vm.py, Debian's kernel): 0.90, 1.0 and 1.2 mirrors, a
# degraded one, and a mirror whose member b is stale by event count (this
# machine's kernel has no md: run test_volumes.py first to make them);
# md-raid5.py runs the same builder with raid456 for a three-member RAID5.
fuzz_md() {
	local d v=$B/e2e-volumes
	d=$(out fuzz_md)
	mkdir -p "$tmp/r5"
	[ -d "$v/mdadm-deb" ] && cp -a "$v/mdadm-deb" "$tmp/r5/"
	TEST_LOGS=$tmp python3 "$here/md-raid5.py" "$B" "$tmp/r5" >/dev/null
	python3 - "$d" "$v/m090-a" 3 "$v/m090-b" 7 "$v/m10-a" 2 "$v/m12-a" 1 "$v/m12-b" 5 \
		"$v/mdeg-a" 1 "$v/mstale-a" 1 "$v/mstale-b" 1 "$tmp/r5/mr5-a" 1 \
		"$tmp/r5/mr5-c" 5 <<'PY'
import os, struct, sys
dst, args = sys.argv[1], sys.argv[2:]
for src, pick in zip(args[::2], map(int, args[1::2])):
    path = src + ".img"
    size = os.path.getsize(path)
    at = {1: 4096, 2: ((size // 512 - 16) & ~7) * 512,
          3: (size & ~65535) - 65536}[pick & 3]
    with open(path, "rb") as f:
        f.seek(at)
        sb = f.read(4096)
    if sb[:4] != bytes.fromhex("fc4e2ba9"):
        sys.exit("%s: no md superblock at %d" % (path, at))
    with open(os.path.join(dst, "real-" + os.path.basename(src)), "wb") as f:
        f.write(struct.pack("<BI", pick, size // 512) + sb)
PY
}

# fuzz_btrfs_search takes an item count (one byte), then what
# BTRFS_IOC_TREE_SEARCH copied out: search headers and the root tree's
# items. mkfs.btrfs makes an image in a file, mounted on a loop device
# only for the ioctl (it reads a mounted filesystem); subvolumes as
# openSUSE lays them out (@, @/.snapshots, snapshots 1 to 3, the default
# set to snapshot 1) and 70 more snapshots, so the subvolume search takes
# two pages of 64 items. Each seed is the answer to one of scan/btrfs.c's
# searches, asked with its keys.
fuzz_btrfs_search() {
	local d m
	d=$(out fuzz_btrfs_search)
	truncate -s 160M "$tmp/btrfs.img"
	mkfs.btrfs -q "$tmp/btrfs.img" >/dev/null
	loop "$tmp/btrfs.img"
	m=$tmp/mnt
	mkdir "$m"
	mount -t btrfs "$dev" "$m"
	mnts+=("$m")
	python3 "$here/btrfs-search.py" "$m" "$d"
}

# fuzz_lease takes the lease text our udhcpc script writes, fuzz_tftp a
# TFTP server's answer (one UDP payload). net-capture.py boots bootmenu in
# QEMU on two restricted user networks and keeps the leases (the
# initramfs's busybox udhcpc with bootmenu's script, against QEMU's DHCP
# server) and the TFTP server's first packet of each kind, from a
# filter-dump.
fuzz_lease() { pair net-capture.py fuzz_lease fuzz_tftp; }
fuzz_tftp() { fuzz_lease; }

# fuzz_pe_sig takes a whole PE file or a bare certificate table. Real
# signed images are megabytes, so their tables (the security directory's
# bytes) are kept: Debian's signed kernel, and what the Secure Boot tests
# signed (images/secureboot.sh, images/shim.sh): Debian's shim (snakeoil),
# a kernel signed with the test MOK, bootmenu.efi (snakeoil). The build's standin.efi (48 KiB) is kept
# whole, signed by sbsign with Debian's OVMF snakeoil key, once and then
# twice (sbattach adds the second to the table).
pe_table() { # pe_table PE OUT: the security directory's bytes
	python3 - "$1" "$2" <<'PY'
import struct, sys
b = open(sys.argv[1], "rb").read(1 << 20)
pe = struct.unpack_from("<I", b, 0x3c)[0]
opt = pe + 24
dirs = opt + (112 if struct.unpack_from("<H", b, opt)[0] == 0x20b else 96)
off, size = struct.unpack_from("<II", b, dirs + 4 * 8)
if not size or size > 65536:
    sys.exit("%s: no certificate table of at most 64 KiB" % sys.argv[1])
with open(sys.argv[1], "rb") as f:
    f.seek(off)
    t = f.read(size)
open(sys.argv[2], "wb").write(t)
PY
}
fuzz_pe_sig() {
	local d
	d=$(out fuzz_pe_sig)
	pe_table "$B/debkernel/vmlinuz" "$d/real-debian-vmlinuz.table"
	pe_table "$B/shim-test/esp/EFI/BOOT/BOOTX64.EFI" "$d/real-shim.table"
	pe_table "$B/shim-test/esp/k/mok-signed" "$d/real-mok-kernel.table"
	pe_table "$B/sb-test/bootmenu.signed.efi" "$d/real-bootmenu-signed.table"
	openssl pkey -passin pass:snakeoil -in /usr/share/ovmf/PkKek-1-snakeoil.key \
		-out "$tmp/snakeoil.key"
	sbsign --key "$tmp/snakeoil.key" --cert /usr/share/ovmf/PkKek-1-snakeoil.pem \
		--output "$d/real-standin-signed.efi" "$B/standin.efi" 2>/dev/null
	sbsign --key "$B/shim-test/mok/mok.key" --cert "$B/shim-test/mok/mok.pem" \
		--detached --output "$tmp/mok.sig" "$d/real-standin-signed.efi" 2>/dev/null
	cp "$d/real-standin-signed.efi" "$d/real-standin-twice.efi"
	sbattach --attach "$tmp/mok.sig" "$d/real-standin-twice.efi" >/dev/null 2>&1
}

# fuzz_luks takes a device's first bytes (both LUKS2 header copies: 32 KiB
# with cryptsetup's default 16 KiB metadata; a LUKS1 header: its first
# 4 KiB, the key material after it does not fit in 64 KiB) or LUKS2's
# JSON alone. The target's device is its input, so a header on the disk
# (data at 16 MiB) reads only to "bad data segment": all but one are
# detached headers (--header; data at 0 on another device), which read
# whole. Beside the fixtures' five: cryptsetup's defaults on the disk and
# detached, with a label, a subsystem, two keyslots and a keyring token; a
# re-encryption set up (--init-only: the reencrypt keyslot, three
# segments, the online-reencrypt-v2 requirement bootmenu refuses); an
# encryption of a plain device set up the same way; aes-cbc-plain64,
# aes-ctr-plain64, aes-xts-plain; LUKS1, LUKS2 converted from it, and
# LUKS1 converted back from LUKS2. Only ciphers this machine's kernel has
# can be formatted.
fuzz_luks() {
	local d f
	d=$(out fuzz_luks)
	local fast='--pbkdf argon2id --pbkdf-force-iterations 4 --pbkdf-memory 32 --pbkdf-parallel 1'
	local pb2='--pbkdf pbkdf2 --pbkdf-force-iterations 1000'
	pw() { printf 'correct horse'; }
	fmt() { # fmt NAME ARGS...: $tmp/NAME.hdr detached from $tmp/NAME.data
		local n=$1
		shift
		truncate -s 8M "$tmp/$n.data"
		pw | cryptsetup luksFormat -q "$@" --header "$tmp/$n.hdr" "$tmp/$n.data" -
	}
	truncate -s 40M "$tmp/l2disk.hdr"
	pw | cryptsetup luksFormat -q --type luks2 $fast --label root --subsystem seed \
		"$tmp/l2disk.hdr" -
	fmt l2default --type luks2 $fast --label root --subsystem seed
	for f in l2disk l2default; do
		pw | cryptsetup luksAddKey -q $fast --key-file - \
			--new-keyfile <(printf 'battery staple') "$tmp/$f.hdr"
		cryptsetup token add --key-description seed:key --token-id 3 --key-slot 1 \
			"$tmp/$f.hdr"
	done
	fmt l2reencrypt --type luks2 $pb2
	pw | cryptsetup reencrypt -q --init-only $pb2 --key-file - \
		--header "$tmp/l2reencrypt.hdr" "$tmp/l2reencrypt.data"
	truncate -s 8M "$tmp/l2encrypt.data"
	pw | cryptsetup reencrypt -q --encrypt --init-only --type luks2 $pb2 --key-file - \
		--header "$tmp/l2encrypt.hdr" "$tmp/l2encrypt.data"
	fmt l2cbc --type luks2 $fast --cipher aes-cbc-plain64 --key-size 256
	fmt l2ctr --type luks2 $fast --cipher aes-ctr-plain64 --key-size 256 --sector-size 512
	fmt l2xtsplain --type luks2 $pb2 --cipher aes-xts-plain --key-size 256 --hash sha1
	fmt l1cbc --type luks1 $pb2 --cipher aes-cbc-plain64 --hash sha512 --key-size 128
	cp "$tmp/l1cbc.hdr" "$tmp/l1to2.hdr"
	cryptsetup convert -q --type luks2 "$tmp/l1to2.hdr"
	fmt l2to1 --type luks2 --sector-size 512 $pb2
	cryptsetup convert -q --type luks1 "$tmp/l2to1.hdr"
	for f in l2disk l2default l2reencrypt l2encrypt l2cbc l2ctr l2xtsplain l1to2; do
		head -c 32768 "$tmp/$f.hdr" >"$d/real-$f.hdr"
	done
	for f in l1cbc l2to1; do
		head -c 4096 "$tmp/$f.hdr" >"$d/real-$f.hdr"
	done
	# the JSON text alone (after the 4 KiB binary header, up to its NULs)
	for f in l2default l2reencrypt l2encrypt; do
		tail -c +4097 "$tmp/$f.hdr" | head -c 12288 | tr -d '\0' >"$d/real-$f.json"
	done
}

# fuzz_tpm_evlog takes a TCG event log. tpm-capture.py boots bootmenu in
# QEMU with swtpm under SeaBIOS and under OVMF and keeps the log each
# firmware handed to the kernel (crypto-agile, the banks swtpm offers).
fuzz_tpm_evlog() {
	local d
	d=$(out fuzz_tpm_evlog)
	TEST_LOGS=$tmp python3 "$here/tpm-capture.py" "$B" "$d"
}

# fuzz_uki_measure takes a UKI. Debian's systemd-stub 252 is 83 KB, more
# than a seed holds, so tests/fixtures/uki-measure/mkuki.sh (objcopy onto
# the stub at systemd-measure(1)'s VMAs) builds the UKI twice: onto the
# stub with its .text removed by objcopy (every other section, .sdmagic
# included, as the stub has them; the UKI's sections all within 34 KB),
# and onto the stub itself, cut to 64 KiB (the headers and the stub's
# sections; the UKI's own lie past the cut). A third has only .linux and
# .cmdline on the stub without .text.
fuzz_uki_measure() {
	local d s=/usr/lib/systemd/boot/efi/linuxx64.efi.stub
	d=$(out fuzz_uki_measure)
	objcopy --remove-section .text "$s" "$tmp/stub.efi"
	UKI_STUB=$tmp/stub.efi bash "$here/../../fixtures/uki-measure/mkuki.sh" "$tmp/uki" >/dev/null
	cp "$tmp/uki/uki.efi" "$d/real-uki-notext.efi"
	objcopy --add-section .linux="$tmp/uki/linux.bin" --change-section-vma .linux=0x2000000 \
		--add-section .cmdline="$tmp/uki/cmdline.txt" --change-section-vma .cmdline=0x30000 \
		"$tmp/stub.efi" "$d/real-uki-linux-cmdline.efi"
	bash "$here/../../fixtures/uki-measure/mkuki.sh" "$tmp/full" >/dev/null
	head -c 65536 "$tmp/full/uki.efi" >"$d/real-uki-cut.efi"
}

# fuzz_efi_loadopt takes an EFI_LOAD_OPTION (or BootOrder's array),
# fuzz_efi_devpath a device path list. efi-capture.py lets OVMF boot the
# build's ESP image with a DVD-ROM and a NIC and reads the boot options
# the firmware made from the variable store QEMU kept.
fuzz_efi_loadopt() { pair efi-capture.py fuzz_efi_loadopt fuzz_efi_devpath; }
fuzz_efi_devpath() { fuzz_efi_loadopt; }

# fuzz_netlink takes what one recv() on an rtnetlink socket gave.
# netlink-capture.py, in a network namespace of its own (unshare -n: no
# link of this machine's is touched or seen), keeps the kernel's link
# messages while `ip` makes, changes and deletes veth, bridge and macvlan
# links, and the answer to a dump of every link.
fuzz_netlink() {
	local d
	d=$(out fuzz_netlink)
	unshare -n python3 "$here/netlink-capture.py" "$d"
}

# fuzz_multiboot takes a kernel's bytes; its size picks the multiboot
# version asked (size % 3), SHA-256 measuring (size & 1) and whether the
# bytes stand for boot_params too (size & 2). Debian's Xen (BUILD/debxen,
# scripts/debian-kernel.sh; the ELF in xen.gz), beyond the 16 KiB head
# already a seed: its first 32 KiB (the multiboot2 header's whole search
# window), 64 KiB less one and less two bytes (the other versions, with
# and without SHA-256, as boot_params too).
fuzz_multiboot() {
	local d n
	d=$(out fuzz_multiboot)
	for n in 32768 65535 65534; do
		zcat "$B/debxen/xen.gz" | head -c $n >"$d/real-xen-$n" || true
	done
}

for t in ${@:-fuzz_lvm fuzz_md fuzz_btrfs_search fuzz_lease fuzz_pe_sig fuzz_luks fuzz_tpm_evlog fuzz_uki_measure fuzz_efi_loadopt fuzz_netlink fuzz_multiboot}; do "$t"; done
