#!/usr/bin/env bash
# scripts/debian-kernel.sh BUILD - Debian's own kernel, as a real target:
# the package linux-image-amd64 depends on, downloaded with apt-get download
# and unpacked with dpkg-deb (never installed). Leaves BUILD/debkernel/vmlinuz
# and BUILD/debkernel/VERSION.
set -eu
B=$(mkdir -p "$1" && cd "$1" && pwd)
D=$B/debkernel
[ -f "$D/vmlinuz" ] && exit 0
pkg=$(apt-cache depends linux-image-amd64 2>/dev/null | sed -n 's/^ *Depends: \(linux-image-[0-9].*\)/\1/p' | head -1)
if [ -z "$pkg" ]; then
	echo "debian-kernel: apt-cache cannot resolve linux-image-amd64 (run apt-get update)" >&2
	exit 1
fi
rm -rf "$D"; mkdir -p "$D/x"
echo "  DEBKERNEL $pkg"
(cd "$D" && apt-get download -q "$pkg" >/dev/null)
dpkg-deb -x "$D"/"$pkg"_*.deb "$D/x"
cp "$D"/x/boot/vmlinuz-* "$D/vmlinuz.tmp"
basename "$D"/x/boot/vmlinuz-* | sed 's/^vmlinuz-//' > "$D/VERSION"
rm -rf "$D/x" "$D"/*.deb
mv "$D/vmlinuz.tmp" "$D/vmlinuz"
