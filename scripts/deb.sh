#!/usr/bin/env bash
# scripts/deb.sh ROOT VERSION OUT - OUT: a Debian package of the tree ROOT
# (what `make install-files PREFIX=/usr DESTDIR=ROOT` staged), version
# VERSION, built by dpkg-deb. Installing the package installs files and
# nothing else: no maintainer script, so no firmware variable and no disk
# is touched until bootmenu-install is run.
set -eu
root=${1:-} version=${2:-} out=${3:-}
die() { echo "deb: $*" >&2; exit 1; }
[ -d "$root/usr" ] || die "nothing staged in $root/usr"
[ -n "$version" ] && [ -n "$out" ] || die "usage: deb.sh ROOT VERSION OUT"
command -v dpkg-deb >/dev/null || die "dpkg-deb is missing (Debian's dpkg package)"
# Debian policy 12.1: manual pages compressed with gzip -9n
find "$root/usr/share/man" -type f ! -name '*.gz' -exec gzip -9nf {} +
mkdir -p "$root/DEBIAN"
cat > "$root/DEBIAN/control" <<CONTROL
Package: bootmenu
Version: $version
Architecture: amd64
Maintainer: bootmenu maintainers <maintainers@users.noreply.a-seed-48a81d1b.example>
Installed-Size: $(du -sk --exclude=DEBIAN "$root" | cut -f1)
Depends: libc6, libblkid1
Section: admin
Priority: optional
Description: Linux as a boot loader: a menu of every disk's boot configs
 bootmenu.efi is a Linux kernel with a small userspace built in that
 reads the GRUB, BLS, syslinux, LILO and EFI boot configurations of every
 disk it finds, shows them in one menu and boots the choice by kexec.
 .
 This package holds the image under /usr/lib/bootmenu and the installer
 bootmenu-install, which puts it on the EFI system partition and adds a
 boot entry. Installing the package does neither: run bootmenu-install.
CONTROL
dpkg-deb --root-owner-group --build "$root" "$out" >/dev/null
echo "  DEB $out"
