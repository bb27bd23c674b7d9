#!/usr/bin/env bash
# scripts/debian-kernel.sh BUILD - Debian's own kernel and initrd, as real
# targets:
#   BUILD/debkernel/vmlinuz     the kernel of the package linux-image-amd64
#                               depends on (apt-get download + dpkg-deb -x)
#   BUILD/debkernel/VERSION     its release, e.g. 6.1.0-57-amd64
#   BUILD/debkernel/initrd.img  Debian's initramfs-tools initrd for that
#                               same release (root only, see below)
# The initrd is made the way Debian makes it: as root, the linux-image
# package of that release is installed on this machine, and its postinst
# runs update-initramfs with the machine's /etc/initramfs-tools (Debian's
# defaults on a fresh machine: MODULES=most, zstd). As another user the
# initrd is left out with a note (the e2e test that needs it says so).
set -eu
B=$(mkdir -p "$1" && cd "$1" && pwd)
D=$B/debkernel

kernel() {
	local pkg
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
}

initrd() {
	local ver t0 t1
	ver=$(cat "$D/VERSION")
	if [ "$(id -u)" != 0 ]; then
		echo "debian-kernel: not root: Debian's initrd for $ver is left out" \
			"(as root: apt-get install linux-image-$ver)" >&2
		return 0
	fi
	t0=$(date +%s)
	echo "  DEBINITRD linux-image-$ver (installed on this machine; runs update-initramfs)"
	if [ ! -f "/boot/initrd.img-$ver" ]; then
		DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
			-o DPkg::Lock::Timeout=600 --no-install-recommends \
			"linux-image-$ver" >"$D/install.log" 2>&1 ||
			{ tail -20 "$D/install.log" >&2; exit 1; }
	fi
	# update-initramfs may be switched off on this machine: make it here then
	[ -f "/boot/initrd.img-$ver" ] || mkinitramfs -o "/boot/initrd.img-$ver" "$ver"
	cmp -s "/boot/vmlinuz-$ver" "$D/vmlinuz" || {
		echo "debian-kernel: /boot/vmlinuz-$ver differs from $D/vmlinuz" >&2
		exit 1
	}
	cp "/boot/initrd.img-$ver" "$D/initrd.img.tmp"
	mv "$D/initrd.img.tmp" "$D/initrd.img"
	t1=$(date +%s)
	echo "  DEBINITRD $(stat -c %s "$D/initrd.img") bytes in $((t1 - t0)) s"
}

[ -f "$D/vmlinuz" ] && [ -f "$D/VERSION" ] || kernel
[ -f "$D/initrd.img" ] || initrd
touch "$D/vmlinuz" # newer than this script: make sees it done
