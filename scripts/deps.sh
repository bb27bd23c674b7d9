#!/usr/bin/env bash
# scripts/deps.sh [extra packages...] - make sure Debian's packages the build
# and the tests need are installed. As root it installs what is missing
# (apt-get update first); otherwise it prints the command and fails.
set -eu
pkgs=(
	# compilers and the static libc for the initramfs programs
	gcc make clang musl-tools musl-dev linux-libc-dev pkg-config dpkg-dev
	# the kernel: source and what building it takes
	linux-source-6.1 bc flex bison libelf-dev libssl-dev xz-utils zstd cpio
	# host builds of libblkid and ncurses (tests, --list), crypt(3) for passwords
	libblkid-dev libncurses-dev ncurses-bin ncurses-base ncurses-term libcrypt-dev
	# disk images without mounting, and the filesystems the tests probe
	fdisk e2fsprogs dosfstools mtools xorriso xfsprogs btrfs-progs squashfs-tools
	cryptsetup-bin
	# LVM2 physical volumes for the volume tests (written without device-mapper)
	lvm2
	# the first stage bootmenu-install --bios puts on BIOS machines
	extlinux syslinux-common
	# Debian's real netboot tree, read over TFTP by the network tests
	debian-installer-12-netboot-amd64
	# guests: QEMU under TCG, OVMF for UEFI (and Secure Boot); sbsign and
	# sbverify for `make sign` and the Secure Boot tests; gnu-efi for the
	# tests' stand-in EFI application
	qemu-system-x86 qemu-utils ovmf sbsigntool gnu-efi
	# Debian's shim and MokManager (unsigned; the tests sign them with the
	# snakeoil key) and mokutil, for the shim test and its MOK request
	shim-unsigned mokutil
	# measured boot: a TPM 2.0 for the guests (swtpm), tpm2_eventlog to
	# read the event log we hand on, systemd-stub and systemd-measure for
	# the UKI's PCR 11 (systemd itself brings systemd-measure)
	swtpm swtpm-tools tpm2-tools systemd-boot-efi
	# LUKS2 TPM tokens: systemd-cryptenroll (systemd's) and tpm2-tools
	# reach a test's swtpm through this TCTI
	libtss2-tcti-swtpm0
	# a real Debian 12 userspace for the Boot Loader Interface tests
	debootstrap
	# test drivers (openssl makes the password hashes; strace holds the
	# BIOS installer's writes for the power-cut test)
	python3 tmux openssl strace
	# the LUKS tests decrypt a volume's first bytes on the host before a
	# guest sees it (python3-cryptography's AES-XTS)
	python3-cryptography
	# the committed .clang-format, checked by make test
	clang-format
)
pkgs+=("$@")
missing=()
for p in "${pkgs[@]}"; do
	st=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
	[ "$st" = "install ok installed" ] || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "bootmenu: Debian packages needed: ${missing[*]}"
if [ "$(id -u)" -ne 0 ]; then
	echo "bootmenu: run as root:  apt-get update && apt-get install -y ${missing[*]}" >&2
	exit 1
fi
echo "bootmenu: installing: apt-get install -y ${missing[*]}"
apt-get update -q
DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
