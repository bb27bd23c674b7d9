#!/usr/bin/env bash
# images/bli-debian.sh BUILD - a real Debian 12 userspace for the Boot
# Loader Interface tests (tests/e2e/test_bli.py, issue #34):
#   BUILD/bli-debian/root.ext4  debootstrap minbase + systemd, systemd-sysv,
#                               udev, systemd-boot (bootctl), dbus (logind;
#                               Debian's own systemd 252), made into
#                               an ext4 image without mounting (mkfs -d)
# with one unit, bli-report.service, that prints to the serial console
# between markers: the boot's number (counted on the root filesystem) and
# the entry's bli.tag=, `bootctl status`, `bootctl list`, `systemd-analyze`,
# then runs /boot/bli/steer-<N> (the test writes those onto the ESP,
# mounted at /boot) or powers off when there is none.
# The mirror is the first one this machine's apt sources name. Root only
# (debootstrap); otherwise it says so and makes nothing.
set -eu
B=$(mkdir -p "$1" && cd "$1" && pwd)
D=$B/bli-debian
OUT=$D/root.ext4
# the ESP's partition GUID the test's disk gets (fstab mounts it)
ESP_UUID=0b1ee5b0-0000-4000-8000-000000000001

if [ "$(id -u)" != 0 ]; then
	echo "bli-debian: not root: debootstrap needs root; $OUT is not made" >&2
	exit 0
fi
. "$(dirname "$0")/debian-root.sh"
R=$D/root
mkdir -p "$D"
t0=$(date +%s)
# logind (systemctl reboot --boot-loader-entry= asks it) needs D-Bus;
# the kernel loads the ESP's vfat and efivarfs through modprobe (kmod)
PKGS=systemd,systemd-sysv,udev,systemd-boot,dbus,kmod
debian_root "$D" "$PKGS"
# the modules of Debian's kernel (build/debkernel, scripts/debian-kernel.sh)
# the report needs after the initrd: FAT for the ESP at /boot, efivarfs
VER=$(cat "$B/debkernel/VERSION" 2>/dev/null || true)
MODS=/lib/modules/$VER
if [ -n "$VER" ] && [ -d "$MODS/kernel/fs/fat" ]; then
	rm -rf "$R/lib/modules/$VER"
	mkdir -p "$R/lib/modules/$VER/kernel/fs"
	for m in fat nls efivarfs; do
		cp -a "$MODS/kernel/fs/$m" "$R/lib/modules/$VER/kernel/fs/"
	done
	cp -a "$MODS"/modules.order "$MODS"/modules.builtin* "$R/lib/modules/$VER/"
	depmod -b "$R" "$VER"
else
	echo "bli-debian: no modules of Debian's kernel ${VER:-?} in $MODS:" \
		"the ESP and efivarfs will not mount in the guest" >&2
fi
# small: no documentation, manuals, locales or package lists
rm -rf "$R"/usr/share/doc/* "$R"/usr/share/man/* "$R"/usr/share/locale/* \
	"$R"/var/cache/apt/* "$R"/var/lib/apt/lists/*
# a fixed machine id: not a first boot (no systemd-firstboot prompts)
echo b1e5b1e5b1e5b1e5b1e5b1e5b1e5b1e5 > "$R/etc/machine-id"
echo bli-debian > "$R/etc/hostname"
printf 'PARTUUID=%s /boot vfat ro,nofail 0 0\n' "$ESP_UUID" > "$R/etc/fstab"
mkdir -p "$R/boot" "$R/var/lib/bli" "$R/usr/local/sbin"
cat > "$R/usr/local/sbin/bli-report" <<'SH'
#!/bin/sh
# bli-report: what systemd sees of its boot loader, on the serial console
exec > /dev/ttyS0 2>&1
systemctl is-system-running --wait > /dev/null
n=$(( $(cat /var/lib/bli/count 2>/dev/null || echo 0) + 1 ))
echo "$n" > /var/lib/bli/count
sync
tag=$(sed -n 's/.*bli\.tag=\([a-z0-9]*\).*/\1/p' /proc/cmdline)
echo "BLI-BOOT $n tag=$tag"
echo "BLI-ESP $(findmnt -n -o SOURCE,FSTYPE /boot) efivarfs=$(findmnt -n -o FSTYPE /sys/firmware/efi/efivars)"
echo "BLI-STATUS-BEGIN"; SYSTEMD_COLORS=0 bootctl status --no-pager; echo "BLI-STATUS-END rc=$?"
echo "BLI-LIST-BEGIN"; SYSTEMD_COLORS=0 bootctl list --no-pager; echo "BLI-LIST-END rc=$?"
echo "BLI-ANALYZE-BEGIN"; systemd-analyze; echo "BLI-ANALYZE-END rc=$?"
for v in /sys/firmware/efi/efivars/Loader*-4a67b082-0a4c-41cf-b6c7-440b29bb8c4f; do
	echo "BLI-VAR ${v##*/} $(od -An -v -tx1 "$v" | tr -d ' \n')"
done
if [ -f "/boot/bli/steer-$n" ]; then
	echo "BLI-STEER $n: $(cat "/boot/bli/steer-$n")"
	sh "/boot/bli/steer-$n"
	echo "BLI-STEER-END rc=$?"
else
	echo "BLI-DONE"
	systemctl poweroff
fi
SH
chmod 755 "$R/usr/local/sbin/bli-report"
cat > "$R/etc/systemd/system/bli-report.service" <<'UNIT'
[Unit]
Description=Report the Boot Loader Interface on the serial console
After=multi-user.target

[Service]
Type=simple
ExecStart=/usr/local/sbin/bli-report

[Install]
WantedBy=multi-user.target
UNIT
mkdir -p "$R/etc/systemd/system/multi-user.target.wants"
ln -sf /etc/systemd/system/bli-report.service \
	"$R/etc/systemd/system/multi-user.target.wants/bli-report.service"
# no login prompt on the serial console to mix with the report
ln -sf /dev/null "$R/etc/systemd/system/serial-getty@ttyS0.service"
rm -f "$OUT.tmp"
size=$(( $(du -sm "$R" | cut -f1) + 160 ))
mkfs.ext4 -q -F -L bli-root -U 0b1ee5b0-0000-4000-8000-0000000000f5 \
	-d "$R" "$OUT.tmp" "${size}M"
mv "$OUT.tmp" "$OUT"
echo "  BLIDEBIAN $(du -sm "$OUT" | cut -f1) MiB in $(( $(date +%s) - t0 )) s"
