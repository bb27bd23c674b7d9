#!/usr/bin/env bash
# scripts/debian-xen.sh BUILD - Debian's Xen hypervisor, as a real
# multiboot2 target (issue #35):
#   BUILD/debxen/xen.gz    /boot/xen-4.17-amd64.gz of the package
#                          xen-hypervisor-4.17-amd64 (apt-get download +
#                          dpkg-deb -x; nothing is installed)
#   BUILD/debxen/xen.efi   /boot/xen-4.17-amd64.efi of the same package:
#                          Xen's EFI loader, booted through the firmware
#   BUILD/debxen/VERSION   the package's version
set -eu
B=$(mkdir -p "$1" && cd "$1" && pwd)
D=$B/debxen
PKG=${XEN_PKG:-xen-hypervisor-4.17-amd64}

rm -rf "$D"; mkdir -p "$D/x"
echo "  DEBXEN $PKG"
if ! (cd "$D" && apt-get download -q "$PKG" >/dev/null); then
	echo "debian-xen: apt-get cannot download $PKG (run apt-get update)" >&2
	exit 1
fi
dpkg-deb -x "$D"/"$PKG"_*.deb "$D/x"
dpkg-deb -f "$D"/"$PKG"_*.deb Version > "$D/VERSION"
cp "$D"/x/boot/xen-*.gz "$D/xen.gz.tmp"
cp "$D"/x/boot/xen-*.efi "$D/xen.efi"
rm -rf "$D/x" "$D"/*.deb
mv "$D/xen.gz.tmp" "$D/xen.gz"
