#!/usr/bin/env bash
# images/run.sh BUILD - boot bootmenu.efi with the demo disk in QEMU, the
# serial console in this terminal (Ctrl-A X quits QEMU).
#   UEFI=1       boot through OVMF from BUILD/esp.img instead of -kernel
#   KVM=1        use KVM instead of TCG (TCG is the default: KVM hangs on
#                some hosts)
#   MEM=512      guest memory in MiB
#   APPEND="..." extra kernel command line (not with UEFI=1)
set -eu
B=$(cd "$1" && pwd)
accel=tcg; [ "${KVM:-0}" = 1 ] && accel=kvm
args=(-machine q35,accel=$accel -m "${MEM:-512}" -nographic -no-reboot
      -drive file="$B/demo.img",format=raw,if=virtio,snapshot=on)
if [ "${UEFI:-0}" = 1 ]; then
	cp /usr/share/OVMF/OVMF_VARS_4M.fd "$B/OVMF_VARS.run.fd"
	args+=(-drive if=pflash,format=raw,readonly=on,file=/usr/share/OVMF/OVMF_CODE_4M.fd
	       -drive if=pflash,format=raw,file="$B/OVMF_VARS.run.fd"
	       -drive file="$B/esp.img",format=raw,if=virtio,snapshot=on)
	echo "bootmenu: OVMF -> esp.img \\EFI\\BOOT\\BOOTX64.EFI; the demo disk is the other virtio disk"
else
	args+=(-kernel "$B/bootmenu.efi" -append "${APPEND:-}")
fi
echo "bootmenu: qemu-system-x86_64 ${args[*]}"
echo "bootmenu: Ctrl-A X quits QEMU"
exec qemu-system-x86_64 "${args[@]}"
